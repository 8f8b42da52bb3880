/**
 * `npm run bench`: starts DynamoDB Local (in memory) and the SQS emulator on free ports, serves
 * the local stack in this process, runs every benchmark, prints the table, writes BENCHMARKS.md
 * and bench-results.json, and stops everything, also on failure.
 *
 *   BENCH_QUICK=1           smaller counts and 3 s load runs, to develop fast
 *   BENCH_LOAD_SECONDS=n    duration of each load run (default 20)
 *   BENCH_CONNECTIONS=n     load concurrency (default 10)
 *   BENCH_ONLY=a,b          run only these benchmarks (ids below)
 * Quick and partial runs write their BENCHMARKS.md and bench-results.json to .bench/ instead of
 * the repository root. The "Reading" section of the root BENCHMARKS.md is kept across runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldStart } from './cold-start';
import { consoleTable, machine, markdown, previousReading, targetsSummary } from './lib/report';
import { type BenchStack, startBenchStack } from './lib/stack';
import type { BenchConfig, Section } from './lib/types';

// The SDK warns once about Node 20; the warning is noise in the bench output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
const config: BenchConfig = {
  quick,
  repoRoot,
  workDir: join(repoRoot, '.bench'),
  loadSeconds: Number(process.env.BENCH_LOAD_SECONDS ?? (quick ? 3 : 20)),
  loadConnections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  log: (line) => console.log(`[${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${line}`),
};
const startedAt = performance.now();

type Bench = { id: string; title: string; needsStack: boolean; run: (config: BenchConfig, stack: BenchStack) => Promise<Section> };

const benches: Bench[] = [
  { id: 'cold-start', title: 'Cold start', needsStack: false, run: (c) => coldStart(c) },
  { id: 'availability', title: 'Availability cost vs history', needsStack: true, run: async (c, s) => (await import('./availability')).availability(c, s) },
  { id: 'sync', title: 'Sync throughput', needsStack: true, run: async (c, s) => (await import('./sync-throughput')).syncThroughput(c, s) },
  { id: 'overhead', title: 'Overhead of the stack', needsStack: true, run: async (c, s) => (await import('./overhead')).overhead(c, s) },
  { id: 'load', title: 'Load', needsStack: true, run: async (c, s) => (await import('./load')).load(c, s) },
  { id: 'callbacks', title: 'Callback pipeline', needsStack: true, run: async (c, s) => (await import('./callbacks')).callbacks(c, s) },
  { id: 'drain', title: 'Callback backlog drain', needsStack: true, run: async (c, s) => (await import('./callback-drain')).callbackDrain(c, s) },
  { id: 'replay', title: 'Replay of a backlog', needsStack: true, run: async (c, s) => (await import('./replay')).replay(c, s) },
  { id: 'retry-all', title: 'Retry all failed (operator CLI)', needsStack: true, run: async (c, s) => (await import('./replay')).retryAll(c, s) },
  { id: 'dashboard-retry-all', title: 'Retry all failed (dashboard)', needsStack: true, run: async (c, s) => (await import('./replay')).dashboardRetryAll(c, s) },
  { id: 'guest-booking', title: 'Guest booking page', needsStack: true, run: async (c, s) => (await import('./guest-booking')).guestBooking(c, s) },
  { id: 'rates', title: 'Rates per date', needsStack: true, run: async (c, s) => (await import('./rates')).rates(c, s) },
  { id: 'reports', title: 'Reports cost vs history', needsStack: true, run: async (c, s) => (await import('./reports')).reports(c, s) },
];

async function main(): Promise<number> {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
  const selected = only ? benches.filter((b) => only.includes(b.id)) : benches;
  if (only && selected.length !== only.length) throw new Error(`BENCH_ONLY: known ids are ${benches.map((b) => b.id).join(', ')}`);
  mkdirSync(config.workDir, { recursive: true });

  const running: { stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    while (running.length) await running.pop()!.stop().catch((error) => console.error('stopping failed:', error));
  };
  const onSignal = (signal: string) => {
    console.error(`\n${signal}: stopping the emulators`);
    void stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const sections: Section[] = [];
  let failed = false;
  try {
    let stack: BenchStack | undefined;
    for (const bench of selected) {
      if (bench.needsStack && !stack) {
        config.log('starting DynamoDB Local, the SQS emulator and the local stack');
        stack = await startBenchStack(config.workDir, running);
        config.log(`local stack at ${stack.url}`);
      }
      config.log(`== ${bench.title}`);
      const t = performance.now();
      try {
        sections.push(await bench.run(config, stack!));
      } catch (error) {
        failed = true;
        console.error(`${bench.title} failed:`, error);
        sections.push({
          id: bench.id,
          title: bench.title,
          method: 'The benchmark failed; see the run output.',
          rows: [{ figure: 'benchmark ran', value: `failed: ${(error as Error).message.slice(0, 200)}`, target: 'completes', met: false }],
          notes: [],
          data: { error: String((error as Error).stack ?? error) },
          seconds: (performance.now() - t) / 1000,
        });
      }
      config.log(`${bench.title}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    await stopAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const totalSeconds = (performance.now() - startedAt) / 1000;
  const info = machine();
  console.log(consoleTable(sections));
  const { met, missed } = targetsSummary(sections);
  console.log(`\n${met.length} of ${met.length + missed.length} targets met; total ${totalSeconds.toFixed(0)} s on ${info.cpus} × ${info.cpu_model}`);

  // A partial or quick run does not replace the committed results.
  const outDir = only || quick ? config.workDir : repoRoot;
  const mdPath = join(outDir, 'BENCHMARKS.md');
  const reading = previousReading(join(repoRoot, 'BENCHMARKS.md'));
  writeFileSync(mdPath, markdown({ sections, machine: info, totalSeconds, quick, reading, command: quick ? 'BENCH_QUICK=1 npm run bench' : 'npm run bench' }));
  writeFileSync(
    join(outDir, 'bench-results.json'),
    `${JSON.stringify(
      {
        machine: info,
        quick,
        total_seconds: Math.round(totalSeconds * 10) / 10,
        settings: { load_seconds: config.loadSeconds, load_connections: config.loadConnections },
        targets: { met: met.length, missed: missed.map((r) => `${r.section}: ${r.figure}`) },
        benchmarks: Object.fromEntries(sections.map((s) => [s.id, { title: s.title, seconds: Math.round(s.seconds * 10) / 10, rows: s.rows, notes: s.notes, data: s.data }])),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`wrote ${mdPath} and ${join(outDir, 'bench-results.json')}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
