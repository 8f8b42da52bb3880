/**
 * The delivery sweeper's use case: put on the queue every delivery waiting on the due index
 * whose time there has come: its enqueue failed after the booking committed, its retry delay is
 * longer than SQS allows, or its message was on the queue and is gone (a purge, the local
 * emulator's restart) or its attempt died and no message came back in time. A delivery whose
 * message is on the queue and will be received in time is later on the index than now
 * (./resend.ts), so an unchanged steady state finds nothing. The index is sharded; every shard
 * is read, page after page, until nothing is due or the run's time is up, and the next run
 * continues.
 */
import { logger } from '../../observability';
import { ENQUEUE_BATCH_SIZE, enqueueDeliveries } from '../../queue';
import { type DueCursor, type DueDelivery, dueIndexPartitions, findDueDeliveries, markEnqueued } from '../../store/delivery-store';
import { resendAfter } from './resend';

/**
 * Pages in flight at once, each from another partition. Within a page, one SendMessageBatch at a
 * time, then its ten markEnqueued at once: at most 40 table writes in flight.
 */
const PAGES_AT_ONCE = 4;
/** Due-index entries read per Query. */
const PAGE_SIZE = 100;

export interface SweepResult {
  /** Deliveries put on the queue. */
  enqueued: number;
  /** Deliveries whose enqueue failed: they stay due, for the next run. */
  notEnqueued: number;
  /** Query pages read, all partitions together. */
  pages: number;
  /** False when the run stopped at `stopAt` with pages left: the next run continues. */
  drained: boolean;
  /** Partitions whose Query failed (logged); the rest were swept. */
  failedPartitions: number;
  /** SWEEPER_METRICS.oldestDueAgeSeconds, measured as the run started. */
  oldestDueAgeSeconds: number;
}

/**
 * How long the oldest of these due times had passed at `now`, in whole seconds; 0 when nothing
 * is due. Fed with the first entry of each partition's first page, the oldest there.
 */
export function oldestDueAgeSeconds(dueTimes: readonly string[], now: Date): number {
  if (!dueTimes.length) return 0;
  const oldest = Math.min(...dueTimes.map((at) => Date.parse(at)));
  return Math.max(0, Math.floor((now.getTime() - oldest) / 1000));
}

/**
 * One sweep. Partitions are served round-robin, a page at a time (PAGES_AT_ONCE in flight), so
 * a long backlog in one shard does not starve the others, and every partition's first page,
 * which holds its oldest due entry, is read first. No new page starts after `stopAt` (epoch ms).
 */
export async function sweepDueDeliveries(options: { now?: Date; stopAt?: number; pageSize?: number } = {}): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const timeLeft = () => options.stopAt === undefined || Date.now() < options.stopAt;
  const todo: { partition: string; cursor?: DueCursor }[] = dueIndexPartitions.map((partition) => ({ partition }));
  const oldest: string[] = [];
  const result = { enqueued: 0, notEnqueued: 0, pages: 0, failedPartitions: 0 };

  const worker = async () => {
    while (timeLeft()) {
      const task = todo.shift();
      if (!task) return;
      let page: Awaited<ReturnType<typeof findDueDeliveries>>;
      try {
        page = await findDueDeliveries(task.partition, now.toISOString(), { limit: pageSize, cursor: task.cursor });
      } catch (error) {
        result.failedPartitions++;
        logger.error('due-index partition could not be read; the next run retries it', { partition: task.partition, error: error as Error });
        continue;
      }
      result.pages++;
      if (!task.cursor && page.due[0]) oldest.push(page.due[0].due_at);
      const { enqueued, notEnqueued } = await enqueueDue(page.due, now);
      result.enqueued += enqueued;
      result.notEnqueued += notEnqueued;
      if (page.cursor) todo.push({ partition: task.partition, cursor: page.cursor });
    }
  };
  await Promise.all(Array.from({ length: PAGES_AT_ONCE }, worker));
  return { ...result, drained: todo.length === 0, oldestDueAgeSeconds: oldestDueAgeSeconds(oldest, now) };
}

/**
 * dispatch() for a page of due deliveries: SendMessageBatch, ten at a time, then each accepted
 * delivery moved on the due index to its resend-after time (if still where it was read). A
 * refused one stays due; one whose move fails stays due too and is sent again later, a
 * duplicate the sender's lease absorbs.
 */
async function enqueueDue(due: readonly DueDelivery[], now: Date): Promise<{ enqueued: number; notEnqueued: number }> {
  const dueAt = new Map(due.map((d) => [d.delivery_id, d.due_at]));
  let enqueued = 0;
  let notEnqueued = 0;
  for (let start = 0; start < due.length; start += ENQUEUE_BATCH_SIZE) {
    const batch = due.slice(start, start + ENQUEUE_BATCH_SIZE);
    const sent = await enqueueDeliveries(
      batch.map((d) => ({ deliveryId: d.delivery_id, delaySeconds: Math.max(0, (Date.parse(d.due_at) - now.getTime()) / 1000) })),
    );
    if (sent.failed.length) {
      notEnqueued += sent.failed.length;
      logger.warn('enqueue failed; the sweeper will retry', { delivery_ids: sent.failed.map((f) => f.deliveryId), error: sent.failed[0]!.error });
    }
    // Due entries are sent without delay: visible now.
    const resend = resendAfter(Date.now());
    const marked = await Promise.allSettled(sent.enqueued.map((id) => markEnqueued(id, dueAt.get(id)!, resend)));
    enqueued += sent.enqueued.length;
    const unmarked = marked.flatMap((m, i) => (m.status === 'rejected' ? [{ id: sent.enqueued[i], error: m.reason as Error }] : []));
    if (unmarked.length) {
      logger.warn('enqueued deliveries stay on the due index; a later run sends them again', { delivery_ids: unmarked.map((u) => u.id), error: unmarked[0]!.error });
    }
  }
  return { enqueued, notEnqueued };
}
