/**
 * Setup file of the projects whose files share their worker process (`isolate: false`,
 * vitest.config.ts): a worker loads the dependencies (the AWS SDK, the CDK, zod, Powertools) once
 * and runs file after file, instead of a process started and loaded again for each file. What a
 * file could leave behind for the next is undone here, before each file:
 * - the project's own modules are evaluated again (vi.resetModules: the registry of inlined
 *   modules, not the dependencies loaded from node_modules), so each file's stack reads its own
 *   configuration (table, queues, key files, ports) as a process of its own would;
 * - process.env is as the worker started, whatever an earlier file set;
 * - real timers.
 */
import { vi } from 'vitest';

const PRISTINE = Symbol.for('hotel-integration.pristine-env');
const worker = process as unknown as Record<symbol, NodeJS.ProcessEnv | undefined>;
const pristine = (worker[PRISTINE] ??= { ...process.env });

for (const name of Object.keys(process.env)) {
  if (!(name in pristine) && !name.startsWith('VITEST')) delete process.env[name];
}
for (const [name, value] of Object.entries(pristine)) {
  if (!name.startsWith('VITEST') && process.env[name] !== value) process.env[name] = value;
}
vi.useRealTimers();
vi.resetModules();
