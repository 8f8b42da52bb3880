/** The local stack's delivery sweeper (the stack's EventBridge rule runs it every minute). */
import { invoke, supportFunction } from './lambda-runtime';

/** One run of the delivery sweeper function, now, as its schedule invokes it. */
export const sweepOnce = (): Promise<unknown> => invoke(supportFunction('sweep-deliveries'), {}, 60_000);

/**
 * The scheduled delivery sweeper, run on an interval as EventBridge runs it in the stack, and
 * once at start: what a previous run of the stack left due (or whose messages its emulator lost
 * when it stopped) goes out without waiting for the first interval.
 */
export function startSweeper(intervalMs: number) {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running
      .then(sweepOnce)
      .catch((error) => console.error('delivery sweeper failed:', (error as Error).message));
  };
  run();
  const timer = setInterval(run, intervalMs);
  return {
    /** Resolves when the runs started so far (the one at start included) have ended. */
    settled: () => running.then(() => undefined),
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
