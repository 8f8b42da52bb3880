/** Paging, batching and bounded parallelism over the document client. */
import {
  BatchGetCommand,
  BatchWriteCommand,
  type NativeAttributeValue,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { tableDefinition } from '../../definitions/table';
import { db, TABLE } from './dynamo';

type Item = Record<string, NativeAttributeValue>;
type Key = Record<string, string>;

/**
 * `fn` over the values, at most `limit` at a time. After a failure no further value is started;
 * the calls already running are awaited, then the first failure is thrown, so nothing is still
 * writing once the caller has its answer.
 */
export async function mapConcurrent<T, R>(values: readonly T[], limit: number, fn: (value: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(values.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.min(limit, values.length) }, async () => {
    while (!failure && next < values.length) {
      const index = next++;
      try {
        results[index] = await fn(values[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  if (failure) throw failure.error;
  return results;
}

function chunks<T>(values: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < values.length; i += size) result.push(values.slice(i, i + size));
  return result;
}

const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));

/** Every page of a query. */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Item | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, TableName: TABLE, ExclusiveStartKey: cursor }));
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/**
 * The sort-key range of a prefix, as the values `:from` and `:to` of `sk BETWEEN :from AND :to`.
 * Same items as begins_with, and DynamoDB Local serves a range in time independent of the rest
 * of the partition (measured in npm run bench).
 */
export function prefixRange(prefix: string) {
  return { ':from': prefix, ':to': `${prefix}\uffff` };
}

/** Where a page of a query starts (ExclusiveStartKey): the table's keys, and the index's on an index. */
export type PageKey = Record<string, string>;

/** The key attributes a query's start key holds: the table's, and its index's when it reads one. */
function pageKeyAttributes(indexName: string | undefined): string[] {
  const { partitionKey, sortKey, globalSecondaryIndexes } = tableDefinition;
  const index = globalSecondaryIndexes.find((i) => i.indexName === indexName);
  return [partitionKey, sortKey, ...(index ? [index.partitionKey, index.sortKey] : [])];
}

/**
 * The most items a filtered page reads in one request (docs/reliability.md "Only the guest holds a
 * guest's booking"): a selective filter over a long range stops there and answers what it found.
 */
export const MAX_ITEMS_READ_PER_PAGE = 1000;

/**
 * At most `limit` items of a query after `start`, and the key the next page starts after when
 * another item follows. It reads one item past the page to know, so the last page never leads to
 * an empty one; with a FilterExpression it reads on (100, then up to 1,000 items a call) until the
 * page is full, the query ends or MAX_ITEMS_READ_PER_PAGE items were read: then it answers the
 * items found so far (maybe none) and the key of the last item read, where the next page goes on.
 */
export async function queryPage(
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  page: { limit: number; start?: PageKey },
  maxRead = MAX_ITEMS_READ_PER_PAGE,
): Promise<{ items: Item[]; next?: PageKey }> {
  const items: Item[] = [];
  const keyOf = (item: Item): PageKey => Object.fromEntries(pageKeyAttributes(input.IndexName).map((name) => [name, item[name] as string]));
  let start: Item | undefined = page.start;
  let read = 0;
  for (let round = 0; round === 0 || (start && items.length <= page.limit); round++) {
    const want = page.limit + 1 - items.length;
    if (input.FilterExpression && read >= maxRead) return { items, next: keyOf(start!) };
    // A filter may match little of what it reads: after a first short read, read in larger steps.
    const limit = input.FilterExpression ? Math.min(Math.max(want, round === 0 ? 100 : 1000), maxRead - read) : want;
    const result = await db.send(new QueryCommand({ ...input, TableName: TABLE, Limit: limit, ExclusiveStartKey: start }));
    items.push(...(result.Items ?? []));
    read += result.ScannedCount ?? result.Items?.length ?? 0;
    start = result.LastEvaluatedKey;
  }
  if (items.length <= page.limit) return { items };
  return { items: items.slice(0, page.limit), next: keyOf(items[page.limit - 1]!) };
}

/** GetItem for many keys: BatchGetItem in chunks of 100, unprocessed keys retried. */
export async function batchGet(keys: readonly Key[]): Promise<Item[]> {
  const found: Item[] = [];
  await mapConcurrent(chunks(keys, 100), 4, async (chunk) => {
    let pending: Key[] = chunk;
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 8) throw Object.assign(new Error('BatchGetItem kept returning unprocessed keys'), { name: 'ThrottlingException' });
      if (attempt) await backoff(attempt);
      const response = await db.send(
        new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: pending, ConsistentRead: true } } }),
      );
      found.push(...(response.Responses?.[TABLE] ?? []));
      pending = (response.UnprocessedKeys?.[TABLE]?.Keys as Key[] | undefined) ?? [];
    }
  });
  return found;
}

/**
 * The table's items behind index entries, in the entries' order. The indexes project only what
 * their hot queries read (definitions/table.ts); a listing that needs whole items reads
 * the index for the keys and the table for the items.
 */
export async function tableItemsOf(entries: readonly Item[]): Promise<Item[]> {
  const { partitionKey, sortKey } = tableDefinition;
  const id = (item: Item) => `${item[partitionKey]}\u0000${item[sortKey]}`;
  const found = new Map((await batchGet(entries.map((e) => ({ [partitionKey]: e[partitionKey], [sortKey]: e[sortKey] })))).map((item) => [id(item), item]));
  return entries.flatMap((entry) => found.get(id(entry)) ?? []);
}

/** BatchWriteItem chunks (25 items) written at once. */
export const BATCH_PUT_PARALLEL_ITEMS = 25 * 8;

/**
 * PutItem for many items: BatchWriteItem in chunks of 25, unprocessed items retried.
 * `beforeChunk` may throw to start no further chunk (the ones running finish).
 */
export async function batchPut(items: readonly Item[], beforeChunk?: () => void): Promise<number> {
  let calls = 0;
  await mapConcurrent(chunks(items, 25), BATCH_PUT_PARALLEL_ITEMS / 25, async (chunk) => {
    beforeChunk?.();
    let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 8) throw Object.assign(new Error('BatchWriteItem kept returning unprocessed items'), { name: 'ThrottlingException' });
      if (attempt) await backoff(attempt);
      calls++;
      const response = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
      pending = (response.UnprocessedItems?.[TABLE] as typeof pending | undefined) ?? [];
    }
  });
  return calls;
}
