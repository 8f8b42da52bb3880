/**
 * Least privilege per partition-key prefix (docs/behaviour.md "Payment safety in deployed stages"):
 * every DynamoDB write a function's role allows is limited by `dynamodb:LeadingKeys` to the
 * partition-key prefixes it declares ("Using IAM policy conditions for fine-grained access
 * control", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html;
 * the condition key: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html#amazondynamodb-policy-keys).
 * Read from the synthesized template of a stage with the sandbox and of prod.
 */
import { readFileSync } from 'node:fs';
import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ServiceFunction } from '../../infra/constructs/service-function';
import { ServiceTable } from '../../infra/constructs/table';
import { routesOfStage } from '../../definitions/routes';
import { HotelIntegrationStack } from '../../infra/stack';
import { CLIENT_CONFIG_PARTITION, KEY_PARTITIONS } from '../../definitions/table-access';
import { keys, PARTITION_PREFIXES } from '../../shared/store/keys';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

// Raw CloudFormation JSON.
type CfnJson = any;

const WRITE = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;

function synth(stage: string, sandboxPayments: boolean) {
  const app = testApp();
  const stack = new HotelIntegrationStack(app, `HotelIntegration-${stage}`, { stage, sandboxPayments });
  const resources = (mergedTemplate(stack).toJSON() as { Resources: Record<string, { Type: string; Properties: CfnJson }> }).Resources;
  const idOf = (construct: IConstruct) => logicalIdOf(construct);
  /** The function's role's statements. */
  const statementsOf = (fn: IConstruct & { role?: IConstruct }): CfnJson[] =>
    Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: CfnJson) => role.Ref === idOf(fn.role!)))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
  /** Each write action the function may call, with the partition-key prefixes it may call it under. */
  const writesOf = (fn: IConstruct & { role?: IConstruct }): Map<string, string[]> => {
    const writes = new Map<string, string[]>();
    for (const statement of statementsOf(fn)) {
      for (const action of [statement.Action].flat() as string[]) {
        if (!WRITE.test(action)) continue;
        expect(statement.Effect).toBe('Allow');
        expect(Object.keys(statement.Condition ?? {}), `${fn.node.id} ${action}`).toEqual(['ForAllValues:StringLike']);
        const { 'dynamodb:LeadingKeys': leadingKeys, ...others } = statement.Condition['ForAllValues:StringLike'];
        expect(others).toEqual({});
        const prefixes = [leadingKeys].flat() as string[];
        for (const prefix of prefixes) expect(prefix, fn.node.id).toMatch(/^[A-Z]+#\*$/);
        writes.set(action, [...(writes.get(action) ?? []), ...prefixes.map((p) => p.slice(0, -1))].sort());
      }
    }
    return writes;
  };
  return { stack, resources, writesOf };
}

const stages = [
  { name: 'test (sandbox on)', ...synth('test', true), routes: routesOfStage({ sandboxPayments: true }) },
  { name: 'prod', ...synth('prod', false), routes: routesOfStage({ sandboxPayments: false }) },
];

describe('partition-key prefixes', () => {
  it('lists every partition-key prefix shared/store/keys.ts builds', () => {
    const source = readFileSync(new URL('../../shared/store/keys.ts', import.meta.url), 'utf8');
    const built = new Set([...source.matchAll(/\bpk: `([A-Z]+#)/g)].map((m) => m[1]!));
    built.add(`${keys.idempotency.prefix}#`);
    expect(built.size).toBeGreaterThan(5);
    expect([...built].sort()).toEqual([...PARTITION_PREFIXES].sort());
    // IAM's `APIKEY#*` does not cover `APIKEYID#`: no prefix is another's.
    for (const a of PARTITION_PREFIXES) for (const b of PARTITION_PREFIXES) if (a !== b) expect(b.startsWith(a), `${b} under ${a}`).toBe(false);
  });
});

describe('a declaration', () => {
  it('that writes without naming its partition-key prefixes does not synthesize', () => {
    const stack = new Stack(testApp(), 'Undeclared');
    const table = new ServiceTable(stack, 'Table');
    const fn = new ServiceFunction(stack, 'UndeclaredWriterFunction', { handler: 'authorizer', description: 'x', stage: 'test', table, logRetention: RetentionDays.ONE_DAY });
    expect(() => fn.grantTableAccess(table, { actions: ['GetItem', 'PutItem'] })).toThrow(/UndeclaredWriterFunction declares PutItem but no partition-key prefixes/);
  });
});

describe.each(stages)('DynamoDB writes in stage $name', ({ stack, resources, writesOf, routes }) => {
  const functions = [...new Set(stack.routeFunctions.values()), stack.authorizerFunction, stack.callbackSenderFunction, stack.deliverySweeperFunction];

  it('every write statement of every role carries dynamodb:LeadingKeys naming known prefixes', () => {
    let writeStatements = 0;
    for (const resource of Object.values(resources)) {
      if (resource.Type !== 'AWS::IAM::Policy') continue;
      for (const statement of resource.Properties.PolicyDocument.Statement) {
        if (!([statement.Action].flat() as string[]).some((action) => WRITE.test(action))) continue;
        writeStatements++;
        const prefixes = [statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']].flat();
        expect(prefixes.length, JSON.stringify(statement)).toBeGreaterThan(0);
        for (const prefix of prefixes) expect(PARTITION_PREFIXES.map((p) => `${p}*`)).toContain(prefix);
      }
    }
    expect(writeStatements).toBeGreaterThan(functions.length / 2);
    // And each function that writes writes under its declaration only (read per function).
    for (const fn of functions) for (const [action, prefixes] of writesOf(fn)) expect(prefixes.length, `${fn.node.id} ${action}`).toBeGreaterThan(0);
  });

  it('the public functions (guest booking, verify, provider webhooks, sandbox checkout) and the authorizer never write key records or client configuration', () => {
    const publicFunctions = new Set(routes.filter((r) => r.auth.kind === 'public').map((r) => stack.routeFunctions.get(r.id)!));
    const names = [...publicFunctions].map((fn) => fn.node.id);
    const sandbox = routes.some((r) => r.origin === 'sandbox') ? ['SandboxCheckoutFunction'] : [];
    expect(names.sort()).toEqual(['DashboardSessionFunction', 'GuestBookingFunction', 'GuestCancelFunction', ...sandbox, 'StripeWebhookFunction', 'VerifyPaymentOrderFunction']);
    for (const fn of [...publicFunctions, stack.authorizerFunction]) {
      const written = [...writesOf(fn).values()].flat();
      for (const partition of [...KEY_PARTITIONS, CLIENT_CONFIG_PARTITION].filter((p) => fn !== stack.authorizerFunction || p !== 'APIKEY#')) {
        expect(written, `${fn.node.id} under ${partition}`).not.toContain(partition);
      }
      // Never a delete, nor a batch (which deletes too).
      expect([...writesOf(fn).keys()].filter((a) => /DeleteItem|BatchWriteItem/.test(a)), fn.node.id).toEqual([]);
    }
    // The bookings, holds, checkout-hold markers and reference guards they write are in the
    // client's `CLIENT#` partition; its configuration is not (docs/operations.md "The table and
    // least privilege"), and IAM's `CLIENT#*` does not match `CLIENTCONFIG#`.
    expect(`${CLIENT_CONFIG_PARTITION}x`.startsWith('CLIENT#')).toBe(false);
    for (const key of [keys.client('c'), keys.providerSettings('c'), keys.endpoint('c', 'callback'), keys.endpoint('c', 'webhook'), keys.linkedStripeAccount('c', 'acct_1'), keys.operatorReauth('c', 'h')]) {
      expect(key.pk, key.sk).toBe(`${CLIENT_CONFIG_PARTITION}c`);
    }
  });

  it('the authorizer writes only key bookkeeping (the key’s last use)', () => {
    expect(Object.fromEntries(writesOf(stack.authorizerFunction))).toEqual({ 'dynamodb:UpdateItem': ['APIKEY#'] });
  });

  it('only the admins’ integrations page writes client configuration', () => {
    const writers = functions.filter((fn) => [...writesOf(fn).values()].flat().includes(CLIENT_CONFIG_PARTITION)).map((fn) => fn.node.id);
    expect(writers).toEqual(['DashboardIntegrationsFunction']);
  });

  it('only the admins’ integrations page writes API keys; nothing writes usage keys (API Gateway holds them)', () => {
    for (const fn of functions) {
      const written = new Set([...writesOf(fn).values()].flat());
      if (fn === stack.routeFunctions.get('DashboardIntegrations')) expect([...written].sort()).toEqual(['APIKEY#', 'APIKEYID#', 'CLIENT#', 'CLIENTCONFIG#', 'SLUG#']);
      else if (fn !== stack.authorizerFunction) expect([...written].filter((p) => p.startsWith('APIKEY')), fn.node.id).toEqual([]);
      expect(written.has('USAGEKEY#'), fn.node.id).toBe(false);
    }
  });
});
