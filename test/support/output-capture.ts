/** Everything this process writes to stdout and stderr while capturing: to look for secrets in logs. */
export interface OutputCapture {
  readonly text: () => string;
  restore(): void;
}

/**
 * Records what this process writes, and passes it on: to the writers of quiet-logs.ts, which
 * send the functions' log lines to test-results/logs/ and the rest to the console.
 */
export function captureOutput(): OutputCapture {
  const chunks: string[] = [];
  const original = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const tee =
    (write: typeof process.stdout.write) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(String(chunk));
      return write(chunk as string, ...(rest as []));
    }) as typeof process.stdout.write;
  process.stdout.write = tee(original.out);
  process.stderr.write = tee(original.err);
  return {
    text: () => chunks.join(''),
    restore() {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
    },
  };
}
