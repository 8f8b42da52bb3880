/**
 * Everything stored for some tenants, to prove that requests changed nothing: the client's
 * partitions (data and configuration), its API keys, its payment orders (with their attempts, events and transactions),
 * their sandbox checkout sessions and its deliveries. A test may scan its own table; no request
 * path does. `last_used_at` of keys is left out: the authorizer updates it on use by design.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { canonicalJson } from '../../shared/ids';

export type Snapshot = Map<string, Record<string, unknown>>;

const VOLATILE = ['last_used_at'];

async function scanAll(): Promise<Record<string, unknown>[]> {
  const { db, TABLE } = await import('../../shared/store/dynamo');
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: cursor, ConsistentRead: true }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

export async function tenantSnapshot(clientIds: readonly string[]): Promise<Snapshot> {
  const items = await scanAll();
  const clients = new Set(clientIds);
  // The client's partition and its configuration partition.
  const partitions = new Set(clientIds.flatMap((id) => [`CLIENT#${id}`, `CLIENTCONFIG#${id}`]));
  const orders = new Set<string>();
  for (const item of items) {
    if (item.sk === 'ORDER' && clients.has(item.client_id as string)) orders.add(item.order_reference as string);
  }
  const owned = (item: Record<string, unknown>): boolean => {
    const pk = String(item.pk);
    if (partitions.has(pk)) return true;
    if (pk.startsWith('ORDER#')) return orders.has(pk.slice('ORDER#'.length));
    if (pk.startsWith('SANDBOX#')) return orders.has(item.order_reference as string);
    if (pk.startsWith('APIKEY#') || pk.startsWith('APIKEYID#') || pk.startsWith('DELIVERY#')) return clients.has(item.client_id as string);
    return false;
  };
  const snapshot: Snapshot = new Map();
  for (const item of items.filter(owned)) {
    const copy = { ...item };
    for (const field of VOLATILE) delete copy[field];
    snapshot.set(`${String(item.pk)} | ${String(item.sk)}`, copy);
  }
  return new Map([...snapshot.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Differences between two snapshots, for a readable failure. */
export function snapshotDiff(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [key, item] of after) {
    const was = before.get(key);
    if (!was) lines.push(`added ${key}: ${canonicalJson(item).slice(0, 300)}`);
    else if (canonicalJson(was) !== canonicalJson(item)) lines.push(`changed ${key}: ${canonicalJson(was).slice(0, 300)} -> ${canonicalJson(item).slice(0, 300)}`);
  }
  for (const key of before.keys()) if (!after.has(key)) lines.push(`removed ${key}`);
  return lines;
}
