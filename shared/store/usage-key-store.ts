/**
 * The local stack's registry of usage-plan keys: which plan a usage key (the value the
 * authorizer returns as usageIdentifierKey) is registered in. In a deployed stage API Gateway
 * keeps this mapping (an API key in a usage plan); locally the ops CLI writes it here and the
 * local gateway reads it to apply the same plan limits.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isPlan, type Plan } from '../../definitions/plans';
import { db, TABLE } from './dynamo';
import { keys } from './keys';

export async function putUsageKey(usageKey: string, plan: Plan): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.usageKey(usageKey), entity: 'usage_key', plan } }));
}

export async function getUsagePlanOfKey(usageKey: string): Promise<Plan | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.usageKey(usageKey) }));
  return isPlan(Item?.plan) ? Item.plan : undefined;
}
