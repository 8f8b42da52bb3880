/**
 * Sending many deliveries again at once: a receiver's replay (POST /api/v1/deliveries/replay),
 * the dashboard's "Retry all failed" and `ops deliveries retry --client`. One path for all three,
 * bounded in the request: it counts the matching deliveries from the index (thousands an index
 * read), marks as many due as its budget allows (each under its own id and bytes) and puts them
 * on the queue, and hands the rest to the sweeper as a bulk-resend item, which the sweeper marks
 * and queues the same way (docs/data-model.md "Bulk resends"). A marked delivery waits on the due
 * index at its resend-after time, so one whose message is lost is still sent, by the sweeper.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '../../observability';
import { ENQUEUE_BATCH_SIZE, enqueueDeliveries } from '../../queue';
import type { DeliveryStatus } from '../../schemas/deliveries';
import {
  claimReplayJob,
  countDeliveries,
  type DeliveryEntry,
  latestReplayJob,
  type DeliveryFilter,
  type DeliverySource,
  markDueBeforeEnqueue,
  openReplayJobs,
  putReplayJob,
  type ReplayJob,
  type ReplayKind,
  type ReplayPart,
  saveReplayProgress,
  walkDeliveries,
} from '../../store/delivery-bulk-store';
import { mapConcurrent } from '../../store/batch';
import { markEnqueued } from '../../store/delivery-store';
import { resendAfter } from './resend';

/** What a request spends counting, then counting and marking together (from its start); the rest is the sweeper's. */
const COUNT_BUDGET_MS = 1_500;
const REQUEST_BUDGET_MS = 2_000;
/**
 * At most this many index entries a request marks, however fast it goes: its work is bounded by
 * count as well as by time, and a bulk resend larger than this always continues in the sweeper.
 */
export const REQUEST_MARK_LIMIT = 1_000;
/** Conditional writes in flight at once while marking: two SendMessageBatch calls' worth. */
const MARK_CONCURRENCY = 2 * ENQUEUE_BATCH_SIZE;
/** Index entries read per step of marking: a step's marks fit well within a budget. */
const WALK_STEP = 500;
/** A sweep holds a bulk resend this long; another sweep takes it over after. */
const JOB_LEASE_MS = 90_000;

export interface BulkResendInput {
  clientId: string;
  kind: ReplayKind;
  sources: DeliverySource[];
  filter: DeliveryFilter;
  /** The statuses a matching delivery is sent again from (`pending` never: it is on its way). */
  from: readonly DeliveryStatus[];
  now?: Date;
}

export interface BulkResendResult {
  /** Deliveries that will be sent again: marked now, or left to the sweeper. */
  queued: number;
  byStatus: Partial<Record<DeliveryStatus, number>>;
  /** Marked within the request. */
  markedNow: number;
}

/**
 * Marks these entries due, in order, until `deadline`, and puts each marked one on the queue;
 * answers how many it went through. A marked delivery waits on the due index at its resend-after
 * time (one write, not a second to move it there once queued); one the queue refused is moved
 * back to now, for the sweeper's next run, and one whose move fails is sent after that time.
 */
async function markInOrder(entries: readonly DeliveryEntry[], from: readonly DeliveryStatus[], now: Date, deadline: number) {
  let done = 0;
  let marked = 0;
  while (done < entries.length && Date.now() < deadline) {
    const chunk = entries.slice(done, done + MARK_CONCURRENCY);
    const indexAt = resendAfter(Date.now());
    const results = await mapConcurrent(chunk, MARK_CONCURRENCY, (entry) => markDueBeforeEnqueue(entry.delivery_id, from, now, indexAt));
    const ids = chunk.flatMap((entry, i) => (results[i] ? [entry.delivery_id] : []));
    marked += ids.length;
    done += chunk.length;
    await handOff(ids, indexAt);
  }
  return { done, marked };
}

/** Puts marked deliveries on the queue; the ones it refuses are due at once instead (the sweeper's). */
async function handOff(ids: readonly string[], indexedAt: string): Promise<void> {
  for (let start = 0; start < ids.length; start += ENQUEUE_BATCH_SIZE) {
    const sent = await enqueueDeliveries(ids.slice(start, start + ENQUEUE_BATCH_SIZE).map((deliveryId) => ({ deliveryId, delaySeconds: 0 })));
    if (!sent.failed.length) continue;
    logger.warn('enqueue failed; the sweeper will send these', { delivery_ids: sent.failed.map((f) => f.deliveryId), error: sent.failed[0]!.error });
    const dueNow = new Date().toISOString();
    await Promise.allSettled(sent.failed.map((f) => markEnqueued(f.deliveryId, indexedAt, dueNow)));
  }
}

/**
 * Counts a source's matches in the filter's range, a Query call at a time, until the range ends or
 * `deadline`: then `upTo` is where the count stopped (the range is cut there).
 */
async function countRange(source: DeliverySource, filter: DeliveryFilter, deadline: number): Promise<{ count: number; upTo?: string }> {
  let count = 0;
  let after: string | undefined;
  do {
    const step = await countDeliveries(source, filter, after);
    count += step.count;
    after = step.next;
    if (after && Date.now() > deadline) return { count, upTo: after };
  } while (after);
  return { count };
}

/**
 * Counts (index reads with `Select: COUNT`, thousands a call), marks from the oldest on within the
 * request's budget, and keeps the rest for the sweeper. `queued` is the count of matching
 * deliveries as the index shows them; one that changed meanwhile (an attempt holds it) is left as
 * it is. A count cut short by the budget (far more than 5,000 matches on a loaded machine) ends the
 * bulk resend's range where it stopped: `queued` is what it covers. `byStatus` counts each status
 * apart (one count per status).
 */
export async function startBulkResend(input: BulkResendInput & { byStatus?: boolean }): Promise<BulkResendResult> {
  const now = input.now ?? new Date();
  const started = Date.now();
  const from = input.from.filter((status) => status !== 'pending');
  const filter: DeliveryFilter = { ...input.filter, statuses: from };
  const byStatus: Partial<Record<DeliveryStatus, number>> = {};
  const parts: ReplayPart[] = [];
  let queued = 0;
  for (const source of from.length ? input.sources : []) {
    if (Date.now() - started > COUNT_BUDGET_MS) break;
    if (input.byStatus) {
      for (const status of from) {
        const { count } = await countRange(source, { ...filter, statuses: [status] }, Number.POSITIVE_INFINITY);
        byStatus[status] = (byStatus[status] ?? 0) + count;
        queued += count;
      }
      parts.push({ source, filter });
      continue;
    }
    const { count, upTo } = await countRange(source, filter, started + COUNT_BUDGET_MS);
    queued += count;
    parts.push({ source, filter: upTo ? { ...filter, upTo } : filter });
    if (upTo) {
      logger.warn('bulk resend limited to what its request could count', { client_id: input.clientId, queued });
      break;
    }
  }

  const job: ReplayJob = { job_id: randomUUID(), client_id: input.clientId, kind: input.kind, created_at: now.toISOString(), total: queued, from: [...from], parts, marked: 0 };
  await runJob(job, now, started + REQUEST_BUDGET_MS, { limit: REQUEST_MARK_LIMIT });
  if (job.parts.length) await putReplayJob(job);
  return { queued, byStatus, markedNow: job.marked };
}

/**
 * The sweeper's share: each open bulk resend claimed in turn, its parts walked on from where they
 * stopped and their deliveries marked due, its progress saved after every index read, until none
 * is left or `stopAt` (epoch ms). Answers how many deliveries it marked.
 */
export async function continueBulkResends(options: { stopAt?: number; now?: Date } = {}): Promise<{ marked: number; jobsLeft: boolean }> {
  const timeLeft = () => options.stopAt === undefined || Date.now() < options.stopAt;
  let marked = 0;
  const ids = await openReplayJobs(10);
  for (const id of ids) {
    if (!timeLeft()) break;
    const now = options.now ?? new Date();
    const job = await claimReplayJob(id, now, JOB_LEASE_MS);
    if (!job) continue;
    try {
      marked += await runJob(job, now, options.stopAt ?? Number.POSITIVE_INFINITY, { stored: true });
    } catch (error) {
      // Released, with the progress it made, so the next run tries again at once, not after the lease.
      await saveReplayProgress(job, { release: true }).catch(() => undefined);
      throw error;
    }
  }
  return { marked, jobsLeft: ids.length > 0 && !timeLeft() };
}

/**
 * Walks a bulk resend's parts on from their positions, marking each match due, until none is left,
 * `deadline` (epoch ms) or `limit` entries walked; a step cut short goes on after the last
 * delivery it marked. `stored`: its progress is saved after every step (the sweeper's; a request
 * stores the item once, after).
 */
async function runJob(job: ReplayJob, now: Date, deadline: number, { stored = false, limit = Number.POSITIVE_INFINITY } = {}): Promise<number> {
  let marked = 0;
  let walked = 0;
  while (job.parts.length && Date.now() < deadline && walked < limit) {
    const part = job.parts[0]!;
    const step = await walkDeliveries(part.source, part.filter, part.after, Math.min(WALK_STEP, limit - walked));
    walked += step.entries.length;
    const { done, marked: count } = await markInOrder(step.entries, job.from, now, deadline);
    marked += count;
    job.marked += count;
    if (done < step.entries.length) {
      if (done > 0) job.parts[0] = { ...part, after: step.entries[done - 1]!.position };
    } else if (step.next) job.parts[0] = { ...part, after: step.next };
    else job.parts.shift();
    if (stored && job.parts.length && Date.now() < deadline) await saveReplayProgress(job);
  }
  // Released when the run stops: the next sweep takes it up at once.
  if (stored) await saveReplayProgress(job, { release: true });
  if (stored && !job.parts.length) logger.info('bulk resend done', { job_id: job.job_id, client_id: job.client_id, marked: job.marked });
  return marked;
}

/** A bulk resend still under way: who asked, how many of the deliveries counted are sent again so far. */
export interface BulkResendProgress {
  kind: ReplayKind;
  created_at: string;
  sent: number;
  total: number;
}

/**
 * The client's latest bulk resend while the sweeper is still marking its deliveries (the
 * dashboard's "N of M sent"); undefined once done, or when the request did it all.
 */
export async function bulkResendInProgress(clientId: string): Promise<BulkResendProgress | undefined> {
  const job = await latestReplayJob(clientId);
  if (!job || !job.parts.length) return undefined;
  return { kind: job.kind, created_at: job.created_at, sent: job.marked, total: Math.max(job.total, job.marked) };
}
