/**
 * The order files start in. Vitest's own order (slowest first, from the durations its cache kept
 * of the last run; by size on a clean clone) is kept, except that the files known to take longest
 * go first whatever the cache says: they mostly wait (a stack restarted after SIGKILLs, the
 * sweeper's retries, child processes), so started early they overlap the others instead of
 * running alone at the end. The first four start at once; each of the others follows two short
 * files, so that the waiting files do not hold all the workers at the same time (measured: 0.9
 * to 1.5 of the two cores busy for 20 s when four of them ran together).
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

/**
 * The browser files share the integration files' group (vitest.config.ts) and come after all of
 * them: they take the workers the last integration files leave free, instead of waiting for the
 * slowest of them to end.
 */
const phase = (spec: TestSpecification): number => (spec.project.name === 'browser' ? 1 : 0);

/** The first wave: one file per worker of the integration group. */
const FIRST_WAVE = 4;
/** Then each of the other long files after this many short ones, so that they do not all wait at once. */
const SHORT_BETWEEN = 2;

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order (stable sorts below keep it among equals), the browser files last.
    const sorted = [...(await super.sort(files))].sort((a, b) => phase(a) - phase(b));
    const ordered: TestSpecification[] = [];
    for (const project of new Set(sorted.map((spec) => spec.project.name))) {
      const ofProject = sorted.filter((spec) => spec.project.name === project);
      const long = ofProject.filter((spec) => rank(spec) < LONGEST.length).sort((a, b) => rank(a) - rank(b));
      const short = ofProject.filter((spec) => rank(spec) === LONGEST.length);
      ordered.push(...long.splice(0, FIRST_WAVE));
      for (const next of long) ordered.push(...short.splice(0, SHORT_BETWEEN), next);
      ordered.push(...short);
    }
    return ordered;
  }
}
