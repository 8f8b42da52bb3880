/**
 * `npm run ops -- <command>`: the operator CLI (docs/behaviour.md "Local stack and operator CLI").
 * The command table is shared/ops/commands.ts, each group's commands in shared/ops/commands/.
 * Exit codes: 0 done, 1 failed, 2 usage error.
 * Env: OPS_STACK_FILE (instead of ${LOCAL_DATA_DIR:-.local}/stack.json), OPS_DEBUG (stack traces).
 */
import { resetConfig } from '../shared/config';
import { AppError } from '../shared/errors';
import { parseInvocation, UsageError } from '../shared/ops/cli';
import { commands } from '../shared/ops/commands';
import { selectTarget, type Target, TargetError } from '../shared/ops/target';

// The SDK's own switch for its NodeVersionSupportWarning, read when a client is created.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// stdout carries the result alone (scripts parse the --json object): anything else the shared
// modules print, such as a log line, goes to stderr.
const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const print = (text: string) => writeStdout(`${text}\n`);
const printError = (text: string) => process.stderr.write(`${text}\n`);

/** The target's environment, as its functions see it; the shared modules parse it on first use. */
function useEnvironment(environment: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH']);

function describe(error: unknown, target: Target | undefined): string {
  if (error instanceof AppError) return `${error.message} (${error.code})`;
  if (error instanceof TargetError) return error.message;
  const err = error as Error & { code?: string };
  if (target?.kind === 'local' && (CONNECTION_ERRORS.has(err.code ?? '') || err.name === 'TimeoutError')) {
    return `cannot reach the local stack's emulators (${err.code ?? err.name}); is npm start running? (stack file ${target.source})`;
  }
  if (target?.kind === 'local' && err.name === 'ResourceNotFoundException') {
    return `the table ${target.tableName} does not exist; is npm start running? (stack file ${target.source})`;
  }
  return err.message || String(error);
}

/** What --json prints on stdout for a failure (docs/behaviour.md "Local stack and operator CLI"). */
function errorCode(error: unknown): string {
  if (error instanceof AppError) return error.code;
  if (error instanceof UsageError) return 'USAGE_ERROR';
  if (error instanceof TargetError) return 'STACK_UNAVAILABLE';
  return 'INTERNAL_ERROR';
}

async function main(argv: string[]): Promise<number> {
  // Known before parsing, so that even a usage error answers --json in JSON.
  const json = argv.includes('--json');
  const fail = (error: unknown, message: string) => {
    if (json) print(JSON.stringify({ error: { code: errorCode(error), message } }));
  };
  let invocation: ReturnType<typeof parseInvocation>;
  try {
    invocation = parseInvocation(commands, argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    fail(error, error.message);
    printError(`error: ${error.message}\n\n${error.usage}`);
    return 2;
  }
  if (invocation.kind === 'help') {
    print(invocation.text);
    return 0;
  }

  const { command, global, flags, args, usage } = invocation;
  let target: Target | undefined;
  try {
    target = await selectTarget(global.stage, process.env);
    useEnvironment(target.environment);
    const result = await command.run({ flags, args, target });
    print(global.json ? JSON.stringify(result) : command.render(result));
    return 0;
  } catch (error) {
    // A combination of flags that only the command itself can judge.
    if (error instanceof UsageError) {
      fail(error, error.message);
      printError(`error: ${error.message}\n\n${error.usage ?? usage}`);
      return 2;
    }
    fail(error, error instanceof AppError ? error.message : describe(error, target));
    printError(`error: ${describe(error, target)}`);
    if (process.env.OPS_DEBUG) printError(String((error as Error).stack));
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printError(`error: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  },
);
