/**
 * The operator CLI bundled once per test run (global setup): one ESM file with its packages in
 * it, which a child process loads in a third of the CPU time that `tsx bin/ops.ts` takes (no
 * transform hooks, no module resolution through node_modules). test/support/ops-cli.ts runs it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Bundles bin/ops.ts into `dir`; resolves with the bundle's path. */
export async function bundleOpsCli(dir: string): Promise<string> {
  const outfile = join(dir, 'ops.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: ['bin/ops.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    // CommonJS packages in an ESM bundle call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}
