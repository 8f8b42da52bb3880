/**
 * What the local gateway emulates of API Gateway's and Lambda's limits: a token bucket per usage
 * key (a usage plan's rate and burst, per API key), and a bounded number of concurrent
 * invocations per function (Lambda instances), the rest waiting in line.
 */
import type { PlanLimits } from '../../definitions/plans';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * API Gateway's token bucket: `burstLimit` tokens at most, refilled at `rateLimit` a second, one
 * per request (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html).
 * A bucket starts full.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** Takes a token for `key`; false when its bucket is empty (the request is throttled). */
  take(key: string, limits: PlanLimits): boolean {
    const now = this.clock();
    const bucket = this.buckets.get(key) ?? { tokens: limits.burstLimit, updatedAt: now };
    bucket.tokens = Math.min(limits.burstLimit, bucket.tokens + ((now - bucket.updatedAt) / 1000) * limits.rateLimit);
    bucket.updatedAt = now;
    if (this.buckets.size > 10_000 && !this.buckets.has(key)) this.buckets.clear();
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

/** The line of waiting invocations is full: Lambda would throttle this invocation. */
export class FunctionThrottledError extends Error {
  constructor(functionName: string) {
    super(`${functionName}: too many invocations waiting`);
    this.name = 'FunctionThrottledError';
  }
}

export interface ConcurrencyOptions {
  /** Invocations of one function running at once. */
  perFunction: number;
  /** Invocations of one function waiting for a free slot; beyond that they are refused. */
  maxQueued: number;
}

/** At most `perFunction` runs at once per function; the rest wait in line (first in, first out). */
export class FunctionConcurrency {
  private readonly pools = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(readonly options: ConcurrencyOptions) {
    if (!(options.perFunction >= 1) || !(options.maxQueued >= 0)) throw new Error('function concurrency must be at least 1');
  }

  /**
   * Runs `work` in a slot of `functionName`. A caller that gives up while waiting (`signal`) leaves
   * the line; once started, the work holds its slot until it ends, as an invocation keeps running
   * after API Gateway stopped waiting for it.
   */
  async run<T>(functionName: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let pool = this.pools.get(functionName);
    if (!pool) this.pools.set(functionName, (pool = { running: 0, waiting: [] }));
    if (pool.running >= this.options.perFunction) {
      if (pool.waiting.length >= this.options.maxQueued) throw new FunctionThrottledError(functionName);
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const at = pool.waiting.indexOf(start);
          if (at >= 0) pool.waiting.splice(at, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', leave, { once: true });
        pool.waiting.push(start);
      });
    } else {
      pool.running++;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so nobody overtakes it.
      const next = pool.waiting.shift();
      if (next) next();
      else pool.running--;
    }
  }

  /** Invocations running and waiting, per function (diagnostics). */
  load(functionName: string): { running: number; waiting: number } {
    const pool = this.pools.get(functionName);
    return { running: pool?.running ?? 0, waiting: pool?.waiting.length ?? 0 };
  }
}
