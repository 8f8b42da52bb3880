/**
 * Where a client's usage key is registered in its plan's usage plan (docs/behaviour.md "Plans and
 * rate limits"). On a deployed stage that is API Gateway: an API key whose value the authorizer
 * returns as usageIdentifierKey, attached to the usage plan of the client's plan (the stack
 * outputs the plans' ids; the ops CLI passes them as USAGE_PLAN_IDS). On the local stack it is
 * the table's usage-key registry, which the local gateway reads.
 *
 * API Gateway API keys, usage plans and usage-plan keys:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-api-usage-plans.html
 * (apiKeySource AUTHORIZER: https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-api-key-source.html)
 */
import { randomBytes } from 'node:crypto';
import { PLANS, type Plan } from '../../definitions/plans';
import { config } from '../config';
import { putUsageKey } from '../store/usage-key-store';

export interface UsageKey {
  /** The value: what the authorizer returns as usageIdentifierKey. */
  usage_key: string;
  /** API Gateway's id of the API key (locally the value itself). */
  usage_key_id: string;
}

export interface UsagePlanKeys {
  /** Creates a client's usage key in the plan's usage plan. */
  create(clientId: string, plan: Plan): Promise<UsageKey>;
  /** Puts the key in the plan's usage plan and out of every other; safe to repeat. */
  assign(key: UsageKey, plan: Plan): Promise<void>;
}

/** 40 hex characters: API Gateway wants at least 20, and nothing but letters and digits is safest. */
const newUsageKeyValue = () => randomBytes(20).toString('hex');

const localUsagePlanKeys: UsagePlanKeys = {
  async create(_clientId, plan) {
    const value = newUsageKeyValue();
    await putUsageKey(value, plan);
    return { usage_key: value, usage_key_id: value };
  },
  async assign(key, plan) {
    await putUsageKey(key.usage_key, plan);
  },
};

function apiGatewayUsagePlanKeys(planIds: Partial<Record<Plan, string>>): UsagePlanKeys {
  const planId = (plan: Plan) => {
    const id = planIds[plan];
    if (!id) throw new Error(`No usage plan id for the plan ${plan} (USAGE_PLAN_IDS)`);
    return id;
  };
  // Only the operator CLI gets here: the SDK client is loaded on first use.
  const sdk = import('@aws-sdk/client-api-gateway').then((module) => ({ module, client: new module.APIGatewayClient({ maxAttempts: 5 }) }));
  const ignoring = async (names: string[], call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (error) {
      if (!names.includes((error as Error).name)) throw error;
    }
  };
  const api: UsagePlanKeys = {
    async create(clientId, plan) {
      const { module, client } = await sdk;
      const value = newUsageKeyValue();
      const created = await client.send(new module.CreateApiKeyCommand({ name: `client-${clientId}`, description: `Usage key of client ${clientId}`, value, enabled: true }));
      const key = { usage_key: value, usage_key_id: created.id! };
      await api.assign(key, plan);
      return key;
    },
    async assign(key, plan) {
      const { module, client } = await sdk;
      await ignoring(['ConflictException'], () =>
        client.send(new module.CreateUsagePlanKeyCommand({ usagePlanId: planId(plan), keyId: key.usage_key_id, keyType: 'API_KEY' })),
      );
      for (const other of PLANS.filter((p) => p !== plan && planIds[p])) {
        await ignoring(['NotFoundException'], () => client.send(new module.DeleteUsagePlanKeyCommand({ usagePlanId: planId(other), keyId: key.usage_key_id })));
      }
    },
  };
  return api;
}

export function usagePlanKeys(): UsagePlanKeys {
  const { usagePlanIds, isLocal } = config();
  if (usagePlanIds) return apiGatewayUsagePlanKeys(usagePlanIds);
  if (isLocal) return localUsagePlanKeys;
  throw new Error('Usage plans are not configured: the ops CLI sets USAGE_PLAN_IDS from the stack outputs');
}
