/**
 * The time a sync write has left before its function times out (the route's timeout, below API
 * Gateway's 29 s). A sync decides every write before the first one; it starts writing only when
 * the writes are expected to finish with a reserve to spare, and starts no further write once
 * only the reserve is left. Either way it answers 503 SERVICE_UNAVAILABLE with Retry-After
 * instead of being cut off by the timeout.
 *
 * What a stop leaves: every item is written whole (one conditional write per item, its index
 * attributes with it) or not at all, and nothing is written after the answer. A stop before the
 * first write leaves the table as it was. A stop between writes (only when DynamoDB is far
 * slower than expected) leaves some items written: the 503 is not stored under the
 * Idempotency-Key, and the same request sent again finds those items unchanged and writes the
 * rest, reaching the state a single complete run would have left.
 */
import { type AppError, errors } from '../../errors';

export interface TimeBudget {
  /** Milliseconds until the function is stopped. */
  remainingMs(): number;
}

/** No deadline: code outside a function invocation (tests, the ops CLI, benchmarks). */
export const UNLIMITED_TIME: TimeBudget = { remainingMs: () => Number.POSITIVE_INFINITY };

/**
 * Kept free after the last write starts: one DynamoDB call at its request timeout (3 s,
 * shared/store/dynamo.ts), then the idempotency record and the response.
 */
export const WRITE_RESERVE_MS = 4_000;

/**
 * What one round of parallel writes is allowed for the up-front estimate: DynamoDB answers a
 * single-item write in about 10 ms, DynamoDB Local in 5 to 30 ms; this leaves room for both.
 */
export const WRITE_ROUND_MS = 100;

export function outOfTime(): AppError {
  return errors.syncOutOfTime();
}

/** Rounds of parallel writes: `writes` at most `parallel` at a time. */
export function writeRounds(writes: number, parallel: number): number {
  return Math.ceil(writes / parallel);
}

/** Before the first write: refuses, with nothing written, when `rounds` of writes would not finish in time. */
export function ensureTimeForWrites(budget: TimeBudget, rounds: number): void {
  if (rounds > 0 && budget.remainingMs() < WRITE_RESERVE_MS + rounds * WRITE_ROUND_MS) throw outOfTime();
}

/** Before each further write (or batch of writes): stops once only the reserve is left. */
export function ensureTimeForNextWrite(budget: TimeBudget): void {
  if (budget.remainingMs() < WRITE_RESERVE_MS) throw outOfTime();
}
