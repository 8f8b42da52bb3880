/**
 * The audit trail of operators' actions (dashboard, CLI): each action records who did it, what
 * and to which record; the dashboard's Audit page lists a client's entries newest first, all of
 * them or those about one record.
 */
import * as z from 'zod/mini';
import { newId } from '../ids';
import { text } from '../schemas/common';
import { onFirstUse } from '../schemas/on-first-use';
import { type AuditRecord, type AuditValue, auditEntriesAbout, auditPage, auditPageKey, putAuditEntry } from '../store/audit-store';
import { invalid, nextCursor, readPage } from './paging';

/** An entry as listed: `target` is null when the action was about no one record. */
export interface AuditEntry {
  id: string;
  at: string;
  operator: string;
  action: string;
  target: string | null;
  changes: Record<string, AuditValue>;
  /** The old values of fields the action replaced, when it replaced any. */
  previous?: Record<string, AuditValue>;
}

/** Names and values small enough that an entry stays far below DynamoDB's 400 KB item limit. */
const auditInput = onFirstUse(() => {
  const auditValues = z
    .record(z.string().check(z.minLength(1), z.maxLength(128)), z.union([text, z.number(), z.boolean(), z.null()]))
    .check(z.refine((changes) => Object.keys(changes).length <= 100, 'at most 100 changes'));
  return z.object({
    operator: z.string().check(z.minLength(1), z.maxLength(254)),
    action: z.string().check(z.minLength(1), z.maxLength(128)),
    target: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
    changes: auditValues,
    previous: z.optional(auditValues),
  });
});

const filterInput = onFirstUse(() => z.object({ target: z.optional(z.string().check(z.minLength(1), z.maxLength(128))) }));

function entryView(record: AuditRecord): AuditEntry {
  return {
    id: record.id,
    at: record.at,
    operator: record.operator,
    action: record.action,
    target: record.target ?? null,
    changes: record.changes,
    ...(record.previous ? { previous: record.previous } : {}),
  };
}

/** Records one operator action at `now`; 400 VALIDATION_ERROR when the entry is malformed. */
export async function recordAudit(
  clientId: string,
  entry: { operator: string; action: string; target?: string; changes: Record<string, AuditValue>; previous?: Record<string, AuditValue> },
  now = new Date(),
): Promise<AuditEntry> {
  const parsed = auditInput().safeParse(entry);
  if (!parsed.success) invalid(parsed.error);
  const record: AuditRecord = { id: newId(), at: now.toISOString(), ...parsed.data };
  await putAuditEntry(clientId, record);
  return entryView(record);
}

/**
 * A client's audit entries, newest first: at most `limit` (default and most 100) after `cursor`,
 * and the cursor of the next page when there is one. `target` keeps the entries about one record.
 */
export async function listAudit(
  clientId: string,
  page: { limit?: number; cursor?: string; target?: string } = {},
): Promise<{ entries: AuditEntry[]; next_cursor?: string }> {
  const filter = filterInput().safeParse({ target: page.target });
  if (!filter.success) invalid(filter.error);
  const { limit, start } = readPage({ limit: page.limit, cursor: page.cursor }, (key) => auditPageKey(clientId, key));
  const found = await auditPage(clientId, { limit, start, target: filter.data.target });
  return { entries: found.entries.map(entryView), ...nextCursor(found.next) };
}

/**
 * The newest `limit` entries about one of the service's records (a booking, a delivery), newest
 * first, and whether older ones exist: a bounded read of the record's own entries, for its page.
 * Entries recorded before they were kept under their record too are on the Audit page only.
 */
export async function auditAbout(clientId: string, target: string, limit: number): Promise<{ entries: AuditEntry[]; more: boolean }> {
  const found = await auditEntriesAbout(clientId, target, limit);
  return { entries: found.entries.map(entryView), more: found.more };
}
