/**
 * Rate plans and their prices and restrictions per date on the single table (docs/data-model.md
 * "Rates"): plans in the client's partition beside its categories; one item per plan per month
 * holding every day of it, written whole under an optimistic `version`.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, batchPut, prefixRange, queryAll } from './batch';
import { db, TABLE } from './dynamo';
import { fromItem } from './items';
import { keys } from './keys';
import type { RateValues } from '../schemas/rate-fields';

export interface RatePlanRecord {
  id: string;
  external_source: string;
  external_rate_plan_id: string;
  external_category_id: string;
  name: string;
  description?: string;
  active: boolean;
  content_hash: string;
  created_at: string;
  updated_at: string;
}

/**
 * One day of a plan: the values set on it, the sequence each was set with (when the client sent
 * one), and who set it last (`sync`: the PMS; `operator`: the dashboard or the CLI).
 */
export interface StoredRateDay extends RateValues {
  seq?: Record<string, number>;
  by?: 'sync' | 'operator';
}

export interface RateMonthRecord {
  rate_plan_id: string;
  /** `YYYY-MM`. */
  month: string;
  /** Days by their number in the month (`01`..`31`). */
  days: Record<string, StoredRateDay>;
  version: number;
  updated_at: string;
}

export async function listRatePlans(clientId: string): Promise<RatePlanRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ...prefixRange(keys.ratePlanPrefix) },
    ConsistentRead: true,
  });
  return items.map((item) => fromItem<RatePlanRecord>(item));
}

export async function putRatePlans(clientId: string, plans: readonly RatePlanRecord[], beforeChunk?: () => void): Promise<number> {
  return batchPut(
    plans.map((p) => ({ ...keys.ratePlan(clientId, p.external_source, p.external_rate_plan_id), entity: 'rate_plan', ...p })),
    beforeChunk,
  );
}

const monthId = (ratePlanId: string, month: string) => `${ratePlanId}#${month}`;

/** The stored months of these plans (BatchGetItem, consistent), by `<plan id>#<month>`; a month never written is absent. */
export async function getRateMonths(clientId: string, ratePlanIds: readonly string[], months: readonly string[]): Promise<Map<string, RateMonthRecord>> {
  if (!ratePlanIds.length || !months.length) return new Map();
  const items = await batchGet(ratePlanIds.flatMap((id) => months.map((month) => keys.rateMonth(clientId, id, month))));
  return new Map(
    items.map((item) => {
      const month = fromItem<RateMonthRecord>(item);
      return [monthId(month.rate_plan_id, month.month), month];
    }),
  );
}

export const rateMonthKey = monthId;

/**
 * Every plan's months from `fromMonth` to `toMonth` (one Query of a sort-key range, consistent):
 * a stay's prices without knowing its plans first, so it runs beside the other reads of availability.
 */
export async function queryRateMonths(clientId: string, fromMonth: string, toMonth: string): Promise<Map<string, RateMonthRecord>> {
  const range = keys.rateMonthsBetween(fromMonth, toMonth);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':from': range.from, ':to': range.to },
    ConsistentRead: true,
  });
  return new Map(
    items.map((item) => {
      const month = fromItem<RateMonthRecord>(item);
      return [monthId(month.rate_plan_id, month.month), month];
    }),
  );
}

/** One month read again (consistent), after a concurrent write won. */
export async function getRateMonth(clientId: string, ratePlanId: string, month: string): Promise<RateMonthRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.rateMonth(clientId, ratePlanId, month), ConsistentRead: true }));
  return Item ? fromItem<RateMonthRecord>(Item) : undefined;
}

/**
 * Writes a month whole, on the condition that it is still the version read (`readVersion`
 * undefined: still absent). A concurrent writer makes it fail with ConditionalCheckFailedException.
 */
export async function putRateMonth(clientId: string, month: RateMonthRecord, readVersion: number | undefined): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...keys.rateMonth(clientId, month.rate_plan_id, month.month), entity: 'rate_month', ...month },
      ConditionExpression: readVersion === undefined ? 'attribute_not_exists(pk)' : 'version = :read',
      ...(readVersion === undefined ? {} : { ExpressionAttributeValues: { ':read': readVersion } }),
    }),
  );
}
