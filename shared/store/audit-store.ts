/**
 * Operators' audit entries: who did what to which record of a client, and when. Each entry is one
 * item in the client's partition under `AUDIT#<at>#<id>` (keys.audit), so a client's entries are
 * one sort-key range, read newest first by a Query that never reaches another client's data. An
 * entry about one of the service's records (a booking, a delivery) is written again, in the same
 * transaction, under `AUDITABOUT#<target>#<at>#<id>` (keys.auditAbout): a record's own entries
 * are read without reading the client's history.
 */
import { PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type PageKey, queryPage } from './batch';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { fromItem } from './items';

export type AuditValue = string | number | boolean | null;

export interface AuditRecord {
  id: string;
  /** ISO timestamp of the action. */
  at: string;
  /** Who acted: the operator's e-mail or name, as the caller names them. */
  operator: string;
  action: string;
  /** The record the action was about (a booking id, a delivery id, an order reference), if one. */
  target?: string;
  /** What changed: field to new value. */
  changes: Record<string, AuditValue>;
  /** The values those fields had before, where the action replaced one (a URL, a provider account). */
  previous?: Record<string, AuditValue>;
}

/** Writes one entry (and its copy under its target, keys.auditAbout); never overwrites (the id is new). */
export async function putAuditEntry(clientId: string, entry: AuditRecord): Promise<void> {
  const put = { TableName: TABLE, Item: { ...keys.audit(clientId, entry.at, entry.id), entity: 'audit', ...entry }, ConditionExpression: 'attribute_not_exists(pk)' };
  if (entry.target === undefined || !keys.isAuditTarget(entry.target)) {
    await db.send(new PutCommand(put));
    return;
  }
  const about = { ...put, Item: { ...put.Item, ...keys.auditAbout(clientId, entry.target, entry.at, entry.id), entity: 'audit_about' } };
  await db.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, { Put: about }] }));
}

/**
 * The newest `limit` entries about one record (at most), newest first, and whether older ones
 * exist: one Query of the record's own range (keys.auditAbout), whatever the client's history.
 */
export async function auditEntriesAbout(clientId: string, target: string, limit: number): Promise<{ entries: AuditRecord[]; more: boolean }> {
  if (!keys.isAuditTarget(target)) return { entries: [], more: false };
  const prefix = keys.auditAboutPrefix(target);
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':from': prefix, ':to': `${prefix}\uffff` },
      ScanIndexForward: false,
      Limit: limit + 1,
    }),
  );
  return { entries: Items.slice(0, limit).map((item) => fromItem<AuditRecord>(item)), more: Items.length > limit };
}

/**
 * The start key a cursor of this client's audit list may name: the client's partition and an
 * audit sort key (so the key stays inside the query's sort-key range), else undefined.
 */
export function auditPageKey(clientId: string, key: PageKey): PageKey | undefined {
  const entry = key.sk === undefined ? undefined : keys.auditEntryOf(key.sk);
  return entry && keys.audit(clientId, entry.at, entry.id);
}

/**
 * At most `limit` entries, newest first, after `start`; with `target`, only the entries about
 * that record (a filter on the same Query: it reads on through the client's entries until the
 * page is full, so a rare target costs reads in proportion to the history).
 */
export async function auditPage(
  clientId: string,
  page: { limit: number; start?: PageKey; target?: string },
): Promise<{ entries: AuditRecord[]; next?: PageKey }> {
  const { items, next } = await queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ...(page.target === undefined ? {} : { FilterExpression: '#target = :target', ExpressionAttributeNames: { '#target': 'target' } }),
      ExpressionAttributeValues: {
        ':pk': keys.clientPartition(clientId).pk,
        ':from': keys.auditPrefix,
        ':to': `${keys.auditPrefix}\uffff`,
        ...(page.target === undefined ? {} : { ':target': page.target }),
      },
      ScanIndexForward: false,
    },
    page,
  );
  return { entries: items.map((item) => fromItem<AuditRecord>(item)), next };
}
