/**
 * The crash test (docs/behaviour.md "Nothing lost across crashes"), in two kinds of kill:
 * - `stack`: `npm start` killed whole with SIGKILL (the emulators with it) at seeded random
 *   moments of a mixed workload and started again on the same data. DynamoDB Local may then drop
 *   the last transaction it acknowledged (LOCAL-EMULATORS.md): a partner that finds its order gone
 *   creates it again with the same reference, and must end with one paid order.
 * - `service`: only the service's process killed (test/support/service-process.ts), the
 *   emulators left running: nothing acknowledged may be lost.
 * Afterwards nothing acknowledged is lost, nothing is held twice and every booking.confirmed
 * arrived. The workload and the invariants are in test/support/crash-workload.ts.
 *
 * And one kill at a fixed point (test/support/crash-cancel-refund.ts): the service's process dies
 * as a guest's cancellation commits, before its refund; started again and left alone, its sweeper
 * makes the refund, exactly once, and the booking stays cancelled.
 *
 * CRASH_SEED (default a fixed seed), CRASH_KILLS (default 3; `npm run stress` runs 20 or more)
 * and CRASH_MODES (default `stack,service`) set the run; the seed is in every title and message,
 * and the same seed makes the same choices. Requests, callbacks and each run's output:
 * test-results/crash/seed-<seed>[-service]/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCancelRefundKill } from '../support/crash-cancel-refund';
import { type CrashMode, type CrashResult, invariantsOf, runCrashWorkload } from '../support/crash-workload';
import { recordFigures } from '../support/figures';
import { killAllStackProcesses } from '../support/local-stack-process';

const SEED = Number(process.env.CRASH_SEED ?? 170_317);
const KILLS = Number(process.env.CRASH_KILLS ?? 3);
const MODES = (process.env.CRASH_MODES ?? 'stack,service').split(',').map((m) => m.trim()) as CrashMode[];

describe.each(MODES)(`crash test, %s kills (seed ${SEED}, ${KILLS} kills)`, (mode) => {
  let result: CrashResult | undefined;

  beforeAll(async () => {
    result = await runCrashWorkload({ seed: SEED, kills: KILLS, mode });
    recordFigures(mode === 'stack' ? 'crash' : `crash-${mode}`, result.figures);
  }, 600_000 + KILLS * 60_000);

  afterAll(() => killAllStackProcesses());

  it.each(invariantsOf(mode))('%s', (invariant) => {
    expect(result, `seed ${SEED}: the workload did not complete`).toBeDefined();
    expect(
      result!.violations[invariant],
      `seed ${SEED} (CRASH_SEED=${SEED} CRASH_KILLS=${KILLS} CRASH_MODES=${mode} reproduces; logs in ${result!.logDir})`,
    ).toEqual([]);
  });
});

describe('crash test, a kill between a cancel and its refund', () => {
  afterAll(() => killAllStackProcesses());

  it('ends with the booking cancelled and exactly one refund, made by the sweeper', async () => {
    const result = await runCancelRefundKill();
    recordFigures('crash-cancel-refund', { killed: result.killed, refund_after_restart_ms: result.refundAfterRestartMs ?? null });
    expect(result.killed).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.order).toMatchObject({ status: 'refunded', refunds: [{ status: 'succeeded' }] });
  }, 300_000);
});
