/** The local gateway's emulation of usage plan throttling and of Lambda's bounded concurrency. */
import { describe, expect, it } from 'vitest';
import { FunctionConcurrency, FunctionThrottledError, TokenBuckets } from '../../infra/local/limits';
import { DEFAULT_PLAN_LIMITS } from '../../definitions/plans';

describe('token buckets', () => {
  const standard = DEFAULT_PLAN_LIMITS.standard;

  it('lets a burst through, then the steady rate', () => {
    let now = 0;
    const buckets = new TokenBuckets(() => now);
    const burst = Array.from({ length: standard.burstLimit + 10 }, () => buckets.take('client-a', standard));
    expect(burst.filter(Boolean)).toHaveLength(standard.burstLimit);
    now += 1000;
    const nextSecond = Array.from({ length: standard.rateLimit + 5 }, () => buckets.take('client-a', standard));
    expect(nextSecond.filter(Boolean)).toHaveLength(standard.rateLimit);
  });

  it('never lets one key spend another key\'s tokens', () => {
    const buckets = new TokenBuckets(() => 0);
    while (buckets.take('busy', standard));
    expect(buckets.take('busy', standard)).toBe(false);
    expect(Array.from({ length: standard.burstLimit }, () => buckets.take('quiet', standard)).every(Boolean)).toBe(true);
  });

  it('refills no more than the burst', () => {
    let now = 0;
    const buckets = new TokenBuckets(() => now);
    buckets.take('a', standard);
    now += 3_600_000;
    expect(Array.from({ length: standard.burstLimit + 1 }, () => buckets.take('a', standard)).filter(Boolean)).toHaveLength(standard.burstLimit);
  });
});

describe('function concurrency', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('runs at most perFunction at once per function, the rest in arrival order', async () => {
    const pool = new FunctionConcurrency({ perFunction: 2, maxQueued: 10 });
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      pool.run('GetAvailability', async () => {
        started.push(i);
        await gate.promise;
      }),
    );
    // Another function has its own slots.
    await pool.run('PutRooms', async () => undefined);
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(pool.load('GetAvailability')).toEqual({ running: 2, waiting: 3 });
    gates[1]!.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(pool.load('GetAvailability')).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses beyond the line\'s bound, and lets a caller that gives up leave the line', async () => {
    const pool = new FunctionConcurrency({ perFunction: 1, maxQueued: 1 });
    const gate = deferred();
    const first = pool.run('f', () => gate.promise);
    const givenUp = new AbortController();
    const waiting = pool.run('f', async () => 'ran', givenUp.signal);
    await expect(pool.run('f', async () => 'ran')).rejects.toBeInstanceOf(FunctionThrottledError);
    givenUp.abort(new Error('integration timeout'));
    await expect(waiting).rejects.toThrow('integration timeout');
    expect(pool.load('f')).toEqual({ running: 1, waiting: 0 });
    gate.resolve();
    await first;
    await expect(pool.run('f', async () => 'ran')).resolves.toBe('ran');
  });

  it('frees the slot when the work fails', async () => {
    const pool = new FunctionConcurrency({ perFunction: 1, maxQueued: 0 });
    await expect(pool.run('f', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(pool.run('f', async () => 'ok')).resolves.toBe('ok');
  });
});
