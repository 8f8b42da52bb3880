import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';

/** Everything this process writes to stdout and stderr while capturing: to look for secrets in logs. */
export interface OutputCapture {
  readonly text: () => string;
  restore(): void;
}

/** A structured log line (Powertools Logger writes one JSON object per line). */
const isLogLine = (chunk: string) => chunk.startsWith('{"level":');

/**
 * Captures this process's stdout and stderr. The functions' JSON log lines are kept out of the
 * test output (the suite stays quiet) and go to test-results/logs/<test file>.log on restore; any
 * other output (a test's own figures) still reaches the console.
 */
export function captureOutput(): OutputCapture {
  const chunks: string[] = [];
  const original = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const tee =
    (write: typeof process.stdout.write) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      const text = String(chunk);
      chunks.push(text);
      if (!isLogLine(text)) return write(chunk as string, ...(rest as []));
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = tee(original.out);
  process.stderr.write = tee(original.err);
  const logFile = join(process.cwd(), 'test-results', 'logs', `${basename(expect.getState().testPath ?? 'captured')}.log`);
  return {
    text: () => chunks.join(''),
    restore() {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
      const logs = chunks.filter(isLogLine).join('');
      if (logs) {
        mkdirSync(join(process.cwd(), 'test-results', 'logs'), { recursive: true });
        appendFileSync(logFile, logs);
      }
    },
  };
}
