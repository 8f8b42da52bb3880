/**
 * The order files start in. Vitest's own order (slowest first, from the durations its cache kept
 * of the last run; by size on a clean clone) is kept, except that the files known to take longest
 * start first whatever the cache says: they mostly wait (a stack restarted after SIGKILLs, the
 * sweeper's retries, child processes), so started early they overlap the others instead of
 * running alone at the end.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, as measured alone on 2 cores (README "Tests and benchmarks"). */
const LONGEST = [
  'test/integration/local-stack-recovery.test.ts',
  'test/integration/crash.test.ts',
  'test/integration/faults.test.ts',
  'test/integration/deliveries-api.test.ts',
  'test/integration/local-stack.test.ts',
  'test/integration/local-stack-ports.test.ts',
  'test/integration/ops.test.ts',
  'test/integration/plans.test.ts',
  'test/browser/guest-booking.test.ts',
  'test/browser/dashboard.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const index = LONGEST.findIndex((file) => spec.moduleId.endsWith(file));
  return index === -1 ? LONGEST.length : index;
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the others keep Vitest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
