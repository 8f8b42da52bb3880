/**
 * Figures a suite measured (counts, seed, outcomes), written to test-results/figures/<suite>.json
 * instead of the console, so `npm test` stays quiet and `npm run stress` can report them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIGURES_DIR = join(process.cwd(), 'test-results', 'figures');

export function recordFigures(suite: string, figures: Record<string, unknown>): void {
  mkdirSync(FIGURES_DIR, { recursive: true });
  const entry = { suite, recorded_at: new Date().toISOString(), ...figures };
  writeFileSync(join(FIGURES_DIR, `${suite}.json`), `${JSON.stringify(entry, null, 2)}\n`);
}
