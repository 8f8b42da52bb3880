/**
 * Setup file of every test file (vitest.config.ts `setupFiles`): the functions' structured log
 * lines (Powertools Logger writes one JSON object per line to stdout) go to
 * test-results/logs/<test file>.log instead of the test output, which stays quiet. Any other
 * output (a test's own figures, a failure) still reaches the console. captureOutput
 * (output-capture.ts) still sees every line: it wraps the writers installed here.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';

const DIVERTED = Symbol.for('hotel-integration.quiet-logs');
const isLogLine = (chunk: unknown) => typeof chunk === 'string' && chunk.startsWith('{"level":');
const logDir = join(process.cwd(), 'test-results', 'logs');

let logDirMade = false;

function divert(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!isLogLine(chunk)) return write(chunk as string, ...(rest as []));
    if (!logDirMade) {
      mkdirSync(logDir, { recursive: true });
      logDirMade = true;
    }
    appendFileSync(join(logDir, `${basename(expect.getState().testPath ?? 'unknown-test')}.log`), chunk as string);
    (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
    return true;
  }) as typeof stream.write;
}

const marked = process as unknown as Record<symbol, boolean>;
if (!marked[DIVERTED]) {
  marked[DIVERTED] = true;
  divert(process.stdout);
  divert(process.stderr);
}
