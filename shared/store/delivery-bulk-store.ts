/**
 * Deliveries read and resent in bulk: a client's deliveries of one endpoint in creation order
 * (gsi4: the deliveries API's list and replay) or of every endpoint (gsi2: the operators' "retry
 * all"), each marked due again by one conditional write, and the bulk-resend ("replay") items the
 * sweeper carries on when a request's budget ends before its work does.
 */
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryStatus } from '../schemas/deliveries';
import { type PageKey, queryPage } from './batch';
import { type DeliveryRecord, deliveryExpiresAt, oldestKeptDelivery } from './delivery-store';
import { db, TABLE } from './dynamo';
import type { EndpointKind } from './endpoint-store';
import { keys } from './keys';
import { fromItem, isConditionFailure } from './items';

/** Which index a bulk read walks: one endpoint's deliveries (gsi4), or all of the client's (gsi2). */
export type DeliverySource = { index: 'gsi4'; clientId: string; endpoint: EndpointKind } | { index: 'gsi2'; clientId: string };

export interface DeliveryFilter {
  /** Creation times, inclusive; `until` may be open (`~` follows every id). */
  since: string;
  until: string;
  /** A position (sort key) the range ends at, inclusive, instead of `until`: where a cut-short count stopped. */
  upTo?: string;
  statuses?: readonly DeliveryStatus[];
  /** Only on gsi4, which projects `event`. */
  events?: readonly string[];
}

/** An index entry: the delivery, its creation time and status as the index last saw them. */
export interface DeliveryEntry {
  delivery_id: string;
  created_at: string;
  status: DeliveryStatus;
  /** The entry's sort key: where a walk continues after it. */
  position: string;
}

const partitionOf = (source: DeliverySource) =>
  source.index === 'gsi4' ? keys.deliveriesOfEndpoint(source.clientId, source.endpoint) : keys.deliveriesOfClient(source.clientId);

/** The Query of a source's entries in a range of creation times, with the filters the index can apply. */
function rangeQuery(source: DeliverySource, filter: DeliveryFilter, newestFirst: boolean) {
  const pkName = `${source.index}pk`;
  const skName = `${source.index}sk`;
  const conditions: string[] = [];
  const values: Record<string, unknown> = { ':pk': partitionOf(source), ':since': filter.since, ':until': filter.upTo ?? `${filter.until}~` };
  const names: Record<string, string> = { '#pk': pkName, '#sk': skName };
  if (filter.statuses?.length) {
    names['#status'] = 'status';
    conditions.push(`#status IN (${filter.statuses.map((status, i) => ((values[`:s${i}`] = status), `:s${i}`)).join(', ')})`);
  }
  if (filter.events?.length && source.index === 'gsi4') {
    names['#event'] = 'event';
    conditions.push(`#event IN (${filter.events.map((event, i) => ((values[`:e${i}`] = event), `:e${i}`)).join(', ')})`);
  }
  return {
    IndexName: source.index,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :since AND :until',
    ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !newestFirst,
  };
}

function entryOf(source: DeliverySource, item: Record<string, unknown>): DeliveryEntry | undefined {
  const position = item[`${source.index}sk`] as string;
  const entry = keys.deliveryOfClientEntry(position);
  return entry && { delivery_id: entry.id, created_at: entry.at, status: item.status as DeliveryStatus, position };
}

/**
 * One step of a walk through a source's entries, oldest first, after `after` (a position, or
 * none): at most one Query call (up to 1 MB of index entries, thousands), so a caller can stop
 * between steps (`limit`: at most that many entries read). `next` is where the walk goes on;
 * absent at the end of the range.
 */
export async function walkDeliveries(
  source: DeliverySource,
  filter: DeliveryFilter,
  after?: string,
  limit?: number,
): Promise<{ entries: DeliveryEntry[]; next?: string }> {
  const query = rangeQuery(source, filter, false);
  const start = after ? startKey(source, after) : undefined;
  const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({ ...query, TableName: TABLE, ExclusiveStartKey: start, Limit: limit }));
  const entries = Items.flatMap((item) => entryOf(source, item) ?? []);
  const last = LastEvaluatedKey ? (LastEvaluatedKey[`${source.index}sk`] as string) : undefined;
  return { entries, ...(last ? { next: last } : {}) };
}

/**
 * One step of counting a source's matching entries after `after`: one Query call with `Select:
 * COUNT` (the index entries are read, none is sent back). `next` as walkDeliveries'.
 */
export async function countDeliveries(source: DeliverySource, filter: DeliveryFilter, after?: string): Promise<{ count: number; next?: string }> {
  const query = rangeQuery(source, filter, false);
  const start = after ? startKey(source, after) : undefined;
  const { Count = 0, LastEvaluatedKey } = await db.send(new QueryCommand({ ...query, TableName: TABLE, Select: 'COUNT', ExclusiveStartKey: start }));
  const last = LastEvaluatedKey ? (LastEvaluatedKey[`${source.index}sk`] as string) : undefined;
  return { count: Count, ...(last ? { next: last } : {}) };
}

/** The start key of a walk after a position of a source (its own partition, the delivery it names). */
function startKey(source: DeliverySource, position: string): PageKey {
  const entry = keys.deliveryOfClientEntry(position);
  if (!entry) throw new Error(`Not a delivery index position: ${position}`);
  return { ...keys.delivery(entry.id), [`${source.index}pk`]: partitionOf(source), [`${source.index}sk`]: position };
}

/**
 * The start key a cursor of a client's deliveries of one endpoint may name: that index partition
 * and the delivery the entry names, else undefined (another client's cursor, or not one).
 */
export function endpointPageKey(clientId: string, endpoint: EndpointKind, key: PageKey): PageKey | undefined {
  const entry = key.gsi4sk === undefined ? undefined : keys.deliveryOfEndpointEntry(key.gsi4sk);
  return entry && { ...keys.delivery(entry.id), ...keys.deliveryOfEndpoint(clientId, endpoint, entry.at, entry.id) };
}

/** A page of a client's deliveries of one endpoint, newest first: index entries only (BatchGetItem the records). */
export async function endpointDeliveriesPage(
  clientId: string,
  endpoint: EndpointKind,
  filter: DeliveryFilter,
  page: { limit: number; start?: PageKey },
): Promise<{ ids: string[]; next?: PageKey }> {
  const source: DeliverySource = { index: 'gsi4', clientId, endpoint };
  const { items, next } = await queryPage(rangeQuery(source, filter, true), page);
  return { ids: items.flatMap((item) => entryOf(source, item)?.delivery_id ?? []), next };
}

/**
 * The conditional update that sends a delivery again under its own id and bytes: pending, due
 * now, in a new round, on the due index at `indexAt`. Only from one of `statuses` (never
 * `pending`: it is on its way), not while an attempt holds it, and not past its retention.
 */
function markDueUpdate(deliveryId: string, statuses: readonly DeliveryStatus[], now: Date, indexAt: string) {
  const at = now.toISOString();
  const due = keys.deliveryDue(indexAt, deliveryId);
  return {
    TableName: TABLE,
    Key: keys.delivery(deliveryId),
    UpdateExpression: 'SET #status = :pending, due_at = :now, round_attempts = :zero, updated_at = :now, gsi1pk = :duePk, gsi1sk = :dueSk REMOVE lease_until',
    ConditionExpression: `attribute_exists(pk) AND #status IN (${statuses.map((_, i) => `:f${i}`).join(', ')}) AND (attribute_not_exists(lease_until) OR lease_until < :now) AND created_at > :kept`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':pending': 'pending',
      ':now': at,
      ':zero': 0,
      ':duePk': due.gsi1pk,
      ':dueSk': due.gsi1sk,
      ':kept': oldestKeptDelivery(now),
      ...Object.fromEntries(statuses.map((status, i) => [`:f${i}`, status])),
    },
  };
}

/**
 * Sends a delivery again under its own id and bytes (markDueUpdate), due now on the due index
 * for the sweeper. Answers the record when it was marked.
 */
export async function markDeliveryDue(deliveryId: string, from: readonly DeliveryStatus[], now: Date): Promise<DeliveryRecord | undefined> {
  const statuses = from.filter((status) => status !== 'pending');
  if (!statuses.length) return undefined;
  try {
    const { Attributes } = await db.send(new UpdateCommand({ ...markDueUpdate(deliveryId, statuses, now, now.toISOString()), ReturnValues: 'ALL_NEW' }));
    return Attributes ? fromItem<DeliveryRecord>(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * As markDeliveryDue, for a caller that puts the delivery on the queue right after: its entry on
 * the due index is at `resendAfter` (shared/domain/callbacks/resend.ts), so the sweeper sends it
 * only if that message is lost, and no second write moves it there. Answers whether it was
 * marked; nothing of the item is read back.
 */
export async function markDueBeforeEnqueue(deliveryId: string, from: readonly DeliveryStatus[], now: Date, resendAfter: string): Promise<boolean> {
  const statuses = from.filter((status) => status !== 'pending');
  if (!statuses.length) return false;
  try {
    await db.send(new UpdateCommand(markDueUpdate(deliveryId, statuses, now, resendAfter)));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// ---- bulk resends the sweeper carries on

/** One range of one source still to walk. */
export interface ReplayPart {
  source: DeliverySource;
  filter: DeliveryFilter;
  /** The last position done; the walk goes on after it. */
  after?: string;
}

/** Who asked: a receiver's replay (the deliveries API) or an operator's "retry all" (dashboard, CLI). */
export type ReplayKind = 'replay' | 'retry_all';

export interface ReplayJob {
  job_id: string;
  client_id: string;
  kind: ReplayKind;
  created_at: string;
  /** The matching deliveries counted when it was asked for: what "N of M sent" counts against. */
  total: number;
  /** The statuses a delivery may be marked due from. */
  from: DeliveryStatus[];
  parts: ReplayPart[];
  marked: number;
  lease_until?: string;
}

/**
 * Keeps a bulk resend for the sweeper, on the open-jobs index, and makes it the client's latest
 * (what the dashboard shows the progress of), in one transaction.
 */
export async function putReplayJob(job: ReplayJob): Promise<void> {
  const expires_at = deliveryExpiresAt(job.created_at);
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.replayJob(job.job_id), ...keys.replayJobOpen(job.created_at, job.job_id), entity: 'delivery_replay', expires_at, ...job },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Put: { TableName: TABLE, Item: { ...keys.latestReplayOf(job.client_id), entity: 'delivery_replay_latest', job_id: job.job_id, expires_at } } },
      ],
    }),
  );
}

/** The client's latest bulk resend left to the sweeper (done or not), or undefined: two reads by key. */
export async function latestReplayJob(clientId: string): Promise<ReplayJob | undefined> {
  const { Item: latest } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.latestReplayOf(clientId) }));
  if (typeof latest?.job_id !== 'string') return undefined;
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.replayJob(latest.job_id) }));
  return Item && Item.client_id === clientId ? fromItem<ReplayJob>(Item) : undefined;
}

/** The ids of the open bulk resends, oldest first (the index's keys only). */
export async function openReplayJobs(limit: number): Promise<string[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.replayJobsOpen },
      ProjectionExpression: 'gsi1sk',
      Limit: limit,
    }),
  );
  return Items.map((item) => keys.deliveryDueEntry(item.gsi1sk as string).deliveryId);
}

/** Claims an open bulk resend for `leaseMs` (no other sweep works on it meanwhile), answering it; undefined when held or done. */
export async function claimReplayJob(jobId: string, now: Date, leaseMs: number): Promise<ReplayJob | undefined> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.replayJob(jobId),
        UpdateExpression: 'SET lease_until = :until',
        ConditionExpression: 'attribute_exists(gsi1pk) AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        ExpressionAttributeValues: { ':until': new Date(now.getTime() + leaseMs).toISOString(), ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? fromItem<ReplayJob>(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Records how far a claimed bulk resend got (`release`: and lets the next sweep claim it); with no part left it leaves the open-jobs index (done). */
export async function saveReplayProgress(job: ReplayJob, options: { release?: boolean } = {}): Promise<void> {
  const done = job.parts.length === 0;
  const remove = done ? ' REMOVE gsi1pk, gsi1sk, lease_until' : options.release ? ' REMOVE lease_until' : '';
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.replayJob(job.job_id),
      UpdateExpression: `SET parts = :parts, marked = :marked${done ? ', done_at = :now' : ''}${remove}`,
      ExpressionAttributeValues: { ':parts': job.parts, ':marked': job.marked, ...(done ? { ':now': new Date().toISOString() } : {}) },
    }),
  );
}

