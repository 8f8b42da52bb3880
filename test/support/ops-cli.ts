/** The operator CLI as operators run it: a child process finding the stack through a stack file. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The test process's environment as an operator's shell has it: without what the local stack set
 * for the functions it runs in-process (AWS_LAMBDA_MAX_CONCURRENCY: infra/local/invocation-scope.ts).
 */
function operatorEnvironment(): NodeJS.ProcessEnv {
  const { AWS_LAMBDA_MAX_CONCURRENCY: _, ...rest } = process.env;
  return rest;
}

export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run ops -- <args>` against the stack whose stack.json is `stackFile`. By default the
 * run's bundle of bin/ops.ts (test/support/ops-cli-bundle.ts: same code, less CPU per command);
 * `via: 'tsx'` runs bin/ops.ts through tsx exactly as `npm run ops` does.
 */
export function runOps(stackFile: string, args: string[], env: Record<string, string> = {}, options: { via?: 'bundle' | 'tsx' } = {}): Promise<OpsRun> {
  const bundle = options.via === 'tsx' ? '' : inject('opsCliBundle');
  const entry = bundle ? [bundle] : ['--import', 'tsx', 'bin/ops.ts'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd: root,
      env: { ...operatorEnvironment(), OPS_STACK_FILE: stackFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
