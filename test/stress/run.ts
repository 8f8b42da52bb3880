/**
 * `npm run stress`: the reliability suites of `npm test` at full size, one Vitest process per
 * suite in turn, the same test files with bigger counts from their environment variables:
 *
 *   bad-input            10,000 or more malformed requests (FC_RUNS per route, a time budget that does not cut them)
 *   paid-order-race      1,000 paid orders racing for 50 rooms (RACE_ORDERS, RACE_ROOMS)
 *   crash                the local stack SIGKILLed 20 times in a mixed workload (CRASH_KILLS, CRASH_SEED)
 *   crash-service        the same with only the service's process killed, the emulators alive (CRASH_MODES=service)
 *   availability-model   200 random command sequences against the model (MODEL_RUNS, MODEL_SEED)
 *
 * Each suite's output goes to .stress/<suite>.log; its figures (test/support/figures.ts) are read
 * from test-results/figures/<suite>.json and checked against the full-size targets. The summary
 * table (seed, counts, outcome, duration, date and machine) is printed and written to
 * .stress/summary.md. Exits non-zero when a suite failed, is missing, or fell short of a target.
 *
 *   STRESS_ONLY=a,b     run only these suites
 *   any variable above  given in the environment, it is used as is (seeds too: a failing seed reproduces)
 *   CRASH_SEED, MODEL_SEED default to a random seed, printed and in the summary
 *
 * The figures each suite records for the checks: bad-input `total_requests`, `server_errors`,
 * `stored_data_unchanged.differences`; paid-order-race `orders`, `rooms`, `locked`, `manual`,
 * `double_bookings`, `server_errors`; crash `kills`, `violations`; availability-model `runs`,
 * `passed`; all `seed`.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routes } from '../../definitions/routes';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(repoRoot, '.stress');
const figuresDir = join(repoRoot, 'test-results', 'figures');
const MIN = 60_000;

type Figures = Record<string, any>;

interface Suite {
  name: string;
  file: string;
  /** Full-size settings; a variable already in the environment wins. */
  env: Record<string, string>;
  /** Whole suite, after which its Vitest process group is killed. */
  timeoutMs: number;
  /** The figures that make the summary's "counts" column. */
  counts(f: Figures): string;
  /** What falls short of the full-size targets; empty when all are met. */
  shortfalls(f: Figures): string[];
}

const randomSeed = () => String(Math.floor(Math.random() * 2 ** 31));
const n = (value: unknown) => (typeof value === 'number' ? value.toLocaleString('en-US') : String(value ?? '?'));
/** A shortfall unless `value` is a number at least `min`. */
const atLeast = (what: string, value: unknown, min: number) => (typeof value === 'number' && value >= min ? [] : [`${what} ${n(value)} < ${n(min)}`]);
/** A shortfall unless `value` is exactly 0. */
const none = (what: string, value: unknown) => (value === 0 ? [] : [`${what}: ${n(value)}`]);

const BAD_INPUT_TARGET = 10_000;

const suites: Suite[] = [
  {
    name: 'bad-input',
    file: 'test/integration/bad-input.test.ts',
    // A margin over 10,000 across the fuzzed routes (every route of the route table).
    env: { FC_RUNS: String(Math.ceil(11_000 / routes.length)), FC_TIME_MS: String(10 * MIN) },
    timeoutMs: 60 * MIN,
    counts: (f) => `${n(f.total_requests)} malformed requests over ${n(f.routes)} routes (${n(f.runs_per_route)} per route); ${n(f.server_errors)} × 5xx; slowest ${n(f.slowest_ms)} ms; ${n(f.stored_data_unchanged?.items_compared)} stored items compared, ${n(f.stored_data_unchanged?.differences)} differences`,
    shortfalls: (f) => [
      ...atLeast('malformed requests', f.total_requests, BAD_INPUT_TARGET),
      ...none('5xx answers', f.server_errors),
      ...none('stored items changed', f.stored_data_unchanged?.differences),
      ...(f.routes_interrupted?.length ? [`time budget cut routes short: ${f.routes_interrupted.join(', ')}`] : []),
    ],
  },
  {
    name: 'paid-order-race',
    file: 'test/integration/paid-order-race.test.ts',
    env: { RACE_ORDERS: '1000', RACE_ROOMS: '50' },
    timeoutMs: 45 * MIN,
    counts: (f) =>
      `${n(f.orders)} paid orders for ${n(f.rooms)} rooms: ${n(f.locked)} locked (at most ${n(f.most_lockable)} possible), ${n(f.manual)} manual; ${n(f.double_bookings)} double bookings; ${n(f.server_errors)} × 5xx; race ${n(Math.round((f.race_ms ?? 0) / 1000))} s`,
    shortfalls: (f) => [
      ...atLeast('orders', f.orders, 1000),
      ...atLeast('rooms', f.rooms, 50),
      ...none('double bookings', f.double_bookings),
      ...none('5xx answers', f.server_errors),
      ...(f.locked + f.manual === f.orders ? [] : [`${n(f.orders - f.locked - f.manual)} orders neither locked nor manual`]),
      ...(f.bookings_stored === f.orders ? [] : [`${n(f.bookings_stored)} bookings stored for ${n(f.orders)} orders`]),
    ],
  },
  {
    name: 'crash',
    file: 'test/integration/crash.test.ts',
    env: { CRASH_KILLS: '20', CRASH_SEED: randomSeed(), CRASH_MODES: 'stack' },
    timeoutMs: 90 * MIN,
    counts: (f) =>
      figureLine(f, ['kills', 'restarts', 'requests', 'acknowledged_writes', 'paid', 'orders_lost_and_created_again', 'locked', 'manual', 'deliveries', 'callbacks_received', 'duplicates', 'violations']),
    // Every broken invariant (a lost write, order, booking or callback among them) is a violation.
    shortfalls: (f) => [...atLeast('kills', f.kills, 20), ...none('violations', f.losses ?? f.violations)],
  },
  {
    // Only the service's process killed, the emulators left running: nothing acknowledged may be lost.
    name: 'crash-service',
    file: 'test/integration/crash.test.ts',
    env: { CRASH_KILLS: '20', CRASH_SEED: randomSeed(), CRASH_MODES: 'service' },
    timeoutMs: 90 * MIN,
    counts: (f) => figureLine(f, ['kills', 'restarts', 'requests', 'acknowledged_writes', 'paid', 'orders_lost_and_created_again', 'locked', 'manual', 'deliveries', 'duplicates', 'violations']),
    shortfalls: (f) => [...atLeast('kills', f.kills, 20), ...none('violations', f.violations), ...none('lost orders', f.orders_lost_and_created_again)],
  },
  {
    name: 'availability-model',
    file: 'test/integration/availability-model.test.ts',
    env: { MODEL_RUNS: '200', MODEL_SEED: randomSeed() },
    timeoutMs: 90 * MIN,
    counts: (f) => figureLine(f, ['runs', 'max_commands', 'commands_executed', 'availability_checks_compared', 'passed']),
    shortfalls: (f) => [...atLeast('runs', f.runs, 200), ...(f.passed === false ? ['the property failed'] : [])],
  },
];

/** Some of the figures a suite recorded, as `key value` pairs (a missing one as `?`). */
function figureLine(f: Figures, keys: string[]): string {
  return keys.map((k) => `${k} ${n(f[k])}`).join('; ');
}

interface Outcome {
  suite: Suite;
  outcome: 'passed' | 'failed' | 'short' | 'missing' | 'timed out';
  seconds: number;
  seed: string;
  counts: string;
  notes: string[];
}

function machine() {
  return {
    date: new Date().toISOString(),
    cpus: os.availableParallelism(),
    cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
    memory_gib: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    load_average: os.loadavg().map((l) => l.toFixed(2)).join(' '),
  };
}

/** Runs one suite's Vitest process, its output to `logPath`; resolves with its exit code, or 'timed out'. */
function runVitest(suite: Suite, env: NodeJS.ProcessEnv, logPath: string): Promise<number | 'timed out'> {
  const log = createWriteStream(logPath);
  // Per-test and per-hook timeouts far above what a full-size run takes on a busy machine: the suite's own bound is timeoutMs.
  const args = ['vitest', 'run', suite.file, `--testTimeout=${suite.timeoutMs}`, `--hookTimeout=${10 * MIN}`];
  log.write(`$ ${Object.entries(suite.env).map(([k]) => `${k}=${env[k]}`).join(' ')} npx ${args.join(' ')}\n\n`);
  const child = spawn('npx', args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // The whole group: Vitest, its workers and the emulators they started.
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  }, suite.timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      log.end(`\n[exit ${code ?? signal}]\n`);
      resolve(timedOut ? 'timed out' : (code ?? 1));
    });
  });
}

async function runSuite(suite: Suite): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  for (const [k, v] of Object.entries(suite.env)) env[k] ??= v;
  const seedVar = Object.keys(suite.env).find((k) => k.endsWith('_SEED'));
  const base = { suite, seconds: 0, seed: seedVar ? env[seedVar]! : 'fixed', counts: '', notes: [] as string[] };
  if (!existsSync(join(repoRoot, suite.file))) {
    return { ...base, outcome: 'missing', notes: [`${suite.file} does not exist: nothing to run`] };
  }
  const figuresPath = join(figuresDir, `${suite.name}.json`);
  // A figures file left by an earlier run must not pass for this one.
  rmSync(figuresPath, { force: true });
  const logPath = join(outDir, `${suite.name}.log`);
  console.log(`${suite.name}: ${Object.keys(suite.env).map((k) => `${k}=${env[k]}`).join(' ')} (log: ${logPath})`);
  const started = performance.now();
  const exit = await runVitest(suite, env, logPath);
  const seconds = Math.round((performance.now() - started) / 1000);

  let figures: Figures | undefined;
  if (existsSync(figuresPath)) {
    figures = JSON.parse(readFileSync(figuresPath, 'utf8')) as Figures;
    writeFileSync(join(outDir, `${suite.name}.figures.json`), `${JSON.stringify(figures, null, 2)}\n`);
  }
  const seed = figures?.seed !== undefined ? String(figures.seed) : base.seed;
  const shortfalls = figures ? suite.shortfalls(figures) : ['no figures recorded'];
  const outcome: Outcome['outcome'] = exit === 'timed out' ? 'timed out' : exit !== 0 ? 'failed' : shortfalls.length ? 'short' : 'passed';
  const notes = [...(exit === 'timed out' ? [`killed after ${suite.timeoutMs / MIN} min`] : exit !== 0 ? [`vitest exited ${exit}: see ${logPath}`] : []), ...shortfalls];
  return { ...base, outcome, seconds, seed, counts: figures ? suite.counts(figures) : '', notes };
}

function summary(outcomes: Outcome[], host: ReturnType<typeof machine>): string {
  const escape = (s: string) => s.replaceAll('|', '\\|');
  const rows = outcomes.map((o) => `| ${o.suite.name} | ${o.seed} | ${escape([o.counts, ...o.notes].filter(Boolean).join('; '))} | ${o.outcome} | ${o.seconds} s |`);
  return [
    '# `npm run stress`',
    '',
    `Date: ${host.date}. Machine: ${host.cpus} CPUs (\`nproc\`, ${host.cpu_model}), ${host.memory_gib} GiB memory, ${host.os}, Node ${host.node}; load average ${host.load_average} at the start.`,
    '',
    '| Suite | Seed | Counts | Outcome | Duration |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function main(): Promise<number> {
  const only = process.env.STRESS_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
  const selected = only ? suites.filter((s) => only.includes(s.name)) : suites;
  if (only && selected.length !== only.length) {
    console.error(`STRESS_ONLY: known suites are ${suites.map((s) => s.name).join(', ')}`);
    return 2;
  }
  mkdirSync(outDir, { recursive: true });
  const host = machine();
  console.log(`npm run stress: ${selected.map((s) => s.name).join(', ')} on ${host.cpus} CPUs, ${host.memory_gib} GiB, Node ${host.node}, load ${host.load_average}`);

  const outcomes: Outcome[] = [];
  for (const suite of selected) {
    const outcome = await runSuite(suite);
    outcomes.push(outcome);
    console.log(`${suite.name}: ${outcome.outcome} in ${outcome.seconds} s${outcome.notes.length ? ` (${outcome.notes.join('; ')})` : ''}`);
  }
  const text = summary(outcomes, host);
  writeFileSync(join(outDir, 'summary.md'), text);
  console.log(`\n${text}\nWritten to ${join(outDir, 'summary.md')}`);
  return outcomes.every((o) => o.outcome === 'passed') ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
