/**
 * Who does an operator action, and its entry in the audit trail. Every action of the dashboard
 * (and of the CLI, when it acts for an operator) is one use case in this folder that does the
 * work and records the entry itself, so the same action leaves the same entry whoever calls it.
 */
import { logger } from '../../observability';
import type { AuditValue } from '../../store/audit-store';
import { recordAudit } from '../audit';

/** The operator acting and the client they act for (the dashboard's signed-in operator has this shape). */
export interface Actor {
  email: string;
  client_id: string;
}

export type AuditValues = Record<string, AuditValue>;

/** How the audit names an action taken with `npm run ops`, which signs in as no operator. */
export const OPERATOR_CLI = 'operator CLI';

/** The operator CLI acting for `clientId`: its entries go to that client's Audit page. */
export const cliActor = (clientId: string): Actor => ({ email: OPERATOR_CLI, client_id: clientId });

/** What an action records: `target` the record it was about, `previous` the old values of what it replaced. */
export interface ActionEntry {
  action: string;
  target?: string;
  changes: AuditValues;
  previous?: AuditValues;
}

/** Records the action at `now`; a failure to record is the caller's (the action is reported as failed). */
export async function recordAction(actor: Actor, entry: ActionEntry, now: Date): Promise<void> {
  const { action, target, changes, previous } = entry;
  await recordAudit(actor.client_id, { operator: actor.email, action, ...(target ? { target } : {}), changes, ...(previous ? { previous } : {}) }, now);
}

/**
 * Records the action at `now`, never undoing it: a booking made or given a room stays so, and
 * the operator is told it was, even when the entry could not be written (that is logged).
 */
export async function recordActionQuietly(actor: Actor, entry: ActionEntry, now: Date): Promise<void> {
  try {
    await recordAction(actor, entry, now);
  } catch (error) {
    logger.error('could not record an audit entry', { action: entry.action, target: entry.target, error: error as Error });
  }
}
