/**
 * When the sweeper sends a waiting delivery again (docs/behaviour.md "Nothing lost across crashes").
 * Every `pending` or `retrying` delivery stays on the due index (docs/data-model.md, "The due
 * index and its sweeper"); its time there is when it is to be sent again unless something moves
 * it first. Each hand-off to the queue moves it past the moment the queue itself would hand the
 * message out again, and past the lease of an attempt that receives the message within the
 * grace, so the sweeper only finds deliveries whose message the queue lost (a purge, an emulator
 * restart), that never reached it, or that were received more than the grace late (a backlog):
 * sent again under their own id, where an attempt holding the lease makes the new message a
 * skipped duplicate. The lease itself leaves the index alone (one write fewer per delivery).
 */
import { config } from '../../config';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Longer than an attempt, so a lease outlives the attempt that holds it. */
export const LEASE_MS = ATTEMPT_TIMEOUT_MS + 20_000;
/**
 * Past the visibility timeout: how late a visible message may be received (the poller's long
 * poll and batching window, a cold start, a short backlog) without being sent a second time.
 */
export const RESEND_GRACE_MS = 30_000;

/**
 * How long after its message becomes visible a delivery is sent again if nothing moved it: a
 * message received and not deleted (its attempt crashed) is handed out again by the queue after
 * its visibility timeout; the lease of an attempt that received it within the grace ends before
 * that; then the grace.
 */
export function resendWindowMs(): number {
  return Math.max(config().callbackVisibilityTimeoutSeconds * 1000, LEASE_MS) + RESEND_GRACE_MS;
}

/** The due-index time of a delivery whose message becomes visible at `visibleAt` (epoch ms). */
export function resendAfter(visibleAt: number): string {
  return new Date(visibleAt + resendWindowMs()).toISOString();
}
