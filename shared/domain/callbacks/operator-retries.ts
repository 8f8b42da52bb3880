/**
 * Operators sending deliveries again: the dashboard's "Retry" and "Retry all failed and needs
 * review", and `ops deliveries retry`. Each use case retries and records the audit entry, so
 * every way in leaves the same trail on the client's Audit page.
 */
import { RETRYABLE_DELIVERY_STATUSES, type RetryableDeliveryStatus, WAITING_DELIVERY_STATUSES } from '../../schemas/deliveries';
import { type DeliveryRecord, type DeliveryStatus, getDelivery, oldestKeptDelivery } from '../../store/delivery-store';
import { recordAudit } from '../audit';
import { startBulkResend } from './bulk-resend';
import { retryDelivery } from './deliveries';

/** Who acted, as the audit names them: an operator's e-mail, or the operator CLI (OPERATOR_CLI). */
export interface RetryInput {
  actor: string;
  now?: Date;
}

/** How the audit names an action taken with `npm run ops` (operator-actions/actor.ts). */
export { OPERATOR_CLI } from '../operator-actions/actor';

/**
 * Sends one failed or needs_review delivery again (same delivery id) and records
 * `delivery.retry` about it; 404 NOT_FOUND or 409 DELIVERY_NOT_RETRYABLE (nothing recorded)
 * when it is gone or no longer retryable. `delivery` is the record as the caller read it: the
 * entry says what it was.
 */
export async function retryOneDelivery({ delivery, actor, now = new Date() }: RetryInput & { delivery: DeliveryRecord }): Promise<DeliveryRecord> {
  const requeued = await retryDelivery(delivery.delivery_id, now);
  await recordAudit(
    delivery.client_id,
    { operator: actor, action: 'delivery.retry', target: delivery.delivery_id, changes: { event: delivery.event, status: 'pending', was: delivery.status } },
    now,
  );
  return requeued;
}

/**
 * Sends again every delivery of the client in these statuses (default: failed and needs_review)
 * and records one `delivery.retry_all` with how many of each; an entry limited to one status names
 * it. Recorded also when there was nothing to send. Bounded work, answered at once: the sweeper
 * sends them, and marks what the call had no time for (bulk-resend.ts).
 */
export async function retryFailedDeliveries({
  clientId,
  actor,
  statuses = RETRYABLE_DELIVERY_STATUSES,
  now = new Date(),
}: RetryInput & { clientId: string; statuses?: readonly RetryableDeliveryStatus[] }): Promise<Record<RetryableDeliveryStatus, number>> {
  const asked = RETRYABLE_DELIVERY_STATUSES.filter((status) => statuses.includes(status));
  const { byStatus } = await startBulkResend({
    clientId,
    kind: 'retry_all',
    sources: [{ index: 'gsi2', clientId }],
    filter: { since: oldestKeptDelivery(now), until: now.toISOString() },
    from: asked,
    byStatus: true,
    now,
  });
  const retried: Record<RetryableDeliveryStatus, number> = { failed: byStatus.failed ?? 0, needs_review: byStatus.needs_review ?? 0 };
  const only: { status?: RetryableDeliveryStatus } = asked.length === 1 ? { status: asked[0]! } : {};
  await recordAudit(
    clientId,
    { operator: actor, action: 'delivery.retry_all', changes: { count: retried.failed + retried.needs_review, failed: retried.failed, needs_review: retried.needs_review, ...only } },
    now,
  );
  return retried;
}

const RETRY_POLL_MS = 200;
const WAITING: readonly DeliveryStatus[] = WAITING_DELIVERY_STATUSES;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The delivery once the attempt after a retry is recorded (or it left the waiting statuses), or
 * as it stands after `waitMs`: the sender is another function, so this reads the record.
 */
export async function afterRetryAttempt(deliveryId: string, attemptsBefore: number, waitMs: number): Promise<DeliveryRecord | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const delivery = await getDelivery(deliveryId);
    if (!delivery || delivery.attempts.length > attemptsBefore || !WAITING.includes(delivery.status) || Date.now() >= deadline) return delivery;
    await sleep(RETRY_POLL_MS);
  }
}
