/**
 * Setup file of the projects that use the run's emulators (vitest.config.ts): waits until the
 * global setup (test/support/global-setup.ts), which starts them in the background while the unit
 * and CDK template files run, has them up, or fails the file with the reason they did not start.
 * A worker waits once; the files it runs after that find them up.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

const READY = Symbol.for('hotel-integration.emulators-ready');
const worker = globalThis as unknown as Record<symbol, boolean | undefined>;

// Three tries of DynamoDB Local's 30 s start allowance, on a busy machine, and the table.
const LIMIT_MS = 150_000;

if (!worker[READY]) {
  const dir = inject('emulatorsMarkerDir');
  const deadline = Date.now() + LIMIT_MS;
  for (;;) {
    if (existsSync(join(dir, 'ready'))) break;
    if (existsSync(join(dir, 'failed'))) throw new Error(`The run's emulators did not start:\n${readFileSync(join(dir, 'failed'), 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`The run's emulators were not up within ${LIMIT_MS / 1000} s (marker folder ${dir})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  worker[READY] = true;
}
