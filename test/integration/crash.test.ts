/**
 * The crash test (CONTRACT.md "Nothing lost across crashes"): `npm start` killed with SIGKILL at
 * seeded random moments of a mixed workload and started again on the same data; afterwards
 * nothing acknowledged is lost, nothing is held twice and every booking.confirmed arrived. The
 * workload and the invariants are in test/support/crash-workload.ts.
 *
 * CRASH_SEED (default a fixed seed) and CRASH_KILLS (default 3; `npm run stress` runs 20 or more)
 * set the run; the seed is in every title and message, and the same seed makes the same choices.
 * Requests, callbacks and each run's output: test-results/crash/seed-<seed>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrashResult, INVARIANTS, runCrashWorkload } from '../support/crash-workload';
import { recordFigures } from '../support/figures';
import { killAllStackProcesses } from '../support/local-stack-process';

const SEED = Number(process.env.CRASH_SEED ?? 170_317);
const KILLS = Number(process.env.CRASH_KILLS ?? 3);

describe(`crash test (seed ${SEED}, ${KILLS} kills)`, () => {
  let result: CrashResult | undefined;

  beforeAll(async () => {
    result = await runCrashWorkload({ seed: SEED, kills: KILLS });
    recordFigures('crash', result.figures);
  }, 600_000 + KILLS * 60_000);

  afterAll(() => killAllStackProcesses());

  it.each(INVARIANTS)('%s', (invariant) => {
    expect(result, `seed ${SEED}: the workload did not complete`).toBeDefined();
    expect(result!.violations[invariant], `seed ${SEED} (CRASH_SEED=${SEED} CRASH_KILLS=${KILLS} reproduces; logs in ${result!.logDir})`).toEqual([]);
  });
});
