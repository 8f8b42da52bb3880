/** What every repository does at the table's edge: items to records, and failed conditions. */
import { tableDefinition } from '../../definitions/table';

/** Attributes that place an item on the table and its indexes, and its entity type: never part of a record. */
const INTERNAL_ATTRIBUTES = new Set<string>([
  tableDefinition.partitionKey,
  tableDefinition.sortKey,
  ...tableDefinition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  'entity',
]);

/** The record an item holds, without its key, index and entity attributes. */
export function fromItem<T>(item: Record<string, unknown>): T {
  const record: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) if (!INTERNAL_ATTRIBUTES.has(name)) record[name] = value;
  return record as T;
}

/**
 * A write refused by its condition: a conditional write, or a transaction cancelled because one
 * of its conditions failed or a concurrent transaction touched the same items. The caller read
 * something another writer changed; reading again decides what to do.
 */
export function isConditionFailure(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  if (name === 'ConditionalCheckFailedException') return true;
  if (name !== 'TransactionCanceledException') return false;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict');
}
