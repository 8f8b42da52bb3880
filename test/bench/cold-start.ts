/**
 * Cold start: every function bundled as the CDK construct bundles it (same esbuild options and
 * lazy packages, from infra/bundling.ts), its size, and the time a fresh `node` process takes to
 * import it, against a baseline bundle that only creates a DynamoDB document client. Imports run
 * one at a time, interleaved round by round in a shuffled order, so machine noise hits every
 * bundle alike.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, importsPackage, lazyPackageFile, lazyPackageJson, lazyPackageOptions, lazyPackages } from '../../infra/bundling';
import { routes } from '../../definitions/routes';
import { bytes, median, ms, percentile, ratio, round, x } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

/** 300 KB, read strictly as 300,000 bytes (index.mjs, as deployed; its source map is a separate file). */
const MAX_BUNDLE_BYTES = 300_000;
/** The largest bundle's import against the floor's, measured in the same run (CONTRACT.md "Room to grow"). */
const MAX_IMPORT_RATIO = 1.05;
/** Pairs (largest bundle, floor) imported back to back for that ratio, beside the rounds of every bundle. */
const PAIRED_RUNS = 40;
const BASELINE = 'baseline (DynamoDB document client only)';
/** The floor as CONTRACT.md "Room to grow" defines it (test/bench/fixtures/floor-handler.ts): the X-Ray SDK loaded at init. */
const FLOOR = 'floor (document client + Powertools Logger, Metrics, Tracer with X-Ray at init + middy)';
/** Ways to lower the floor that keep traces, measured beside it (test/bench/fixtures/floor-*-handler.ts). */
const FLOOR_VARIANTS = [
  { name: 'floor, X-Ray SDK after the first response (what every function carries now)', fixture: 'floor-lazy-xray-handler.ts', dir: 'floor-lazy-xray' },
  { name: "floor, Tracer with captureHTTPsRequests: false (at init, no http/https patching)", fixture: 'floor-tracer-no-http-handler.ts', dir: 'floor-tracer-no-http' },
  { name: "floor without Powertools Tracer (AWS's active tracing alone)", fixture: 'floor-no-tracer-handler.ts', dir: 'floor-no-tracer' },
] as const;
const FIXTURES = new Set<string>([BASELINE, FLOOR, ...FLOOR_VARIANTS.map((v) => v.name)]);

/** The environment the stack gives a function in Lambda (infra/constructs/service-function.ts), with placeholders. */
function lambdaLikeEnv(name: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // No NODE_OPTIONS: the stack sets none (it used to set --enable-source-maps; see service-function.ts).
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    POWERTOOLS_SERVICE_NAME: 'hotel-integration-api',
    POWERTOOLS_METRICS_NAMESPACE: 'HotelIntegration',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    STAGE: 'bench',
    TABLE_NAME: 'hotel-integration-bench',
    CALLBACK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-callbacks',
    CALLBACK_RETRY_DELAYS_SECONDS: '60,300',
    SUPPORTED_CURRENCIES: 'USD,EUR',
  };
}

function importOnce(bundle: string, name: string, timer: string): Promise<{ ms: number; cpu_ms: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [timer, bundle], { env: lambdaLikeEnv(name), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`importing ${name} failed (exit ${code}): ${err.slice(0, 1000)}`));
      try {
        resolve(JSON.parse(out) as { ms: number; cpu_ms: number });
      } catch {
        reject(new Error(`importing ${name} printed no timing: ${out.slice(0, 200)} ${err.slice(0, 500)}`));
      }
    });
  });
}

/** Packages a bundle imports at load time but leaves external (the AWS SDK), sorted. */
function externalImports(metafile: Metafile, outfile: string): string[] {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(outfile.split('/').pop()!))?.[1];
  const external = (output?.imports ?? []).filter((i) => i.external && i.kind === 'import-statement' && !isBuiltin(i.path));
  return [...new Set(external.map((i) => i.path))].sort();
}

/** Bytes per top-level package (or source folder) in a bundle's output, largest first. */
function largestInputs(metafile: Metafile, outfile: string, count = 3): { input: string; bytes: number }[] {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(outfile.split('/').pop()!))?.[1];
  if (!output) return [];
  const byGroup = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    const group = match ? match[1]! : path.split('/').slice(0, 2).join('/');
    byGroup.set(group, (byGroup.get(group) ?? 0) + bytesInOutput);
  }
  return [...byGroup.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([input, n]) => ({ input, bytes: n }));
}

function shuffle<T>(values: T[]): T[] {
  const a = [...values];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

export async function coldStart(config: BenchConfig): Promise<Section> {
  const started = performance.now();
  const loadAtStart = loadavg().map((l) => round(l));
  const { repoRoot, log } = config;
  const outDir = join(config.workDir, 'bundles');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });

  // Every function file: the route handlers, the authorizer, the sender and the sweeper.
  const functionNames = readdirSync(join(repoRoot, 'functions'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
  const missing = routes.map((r) => r.handler).filter((h) => !functionNames.includes(h));
  if (missing.length) throw new Error(`route handlers without a file: ${missing.join(', ')}`);

  const entries = [
    { name: BASELINE, entry: join(repoRoot, 'test/bench/fixtures/baseline-handler.ts'), outfile: join(outDir, 'baseline/index.mjs') },
    { name: FLOOR, entry: join(repoRoot, 'test/bench/fixtures/floor-handler.ts'), outfile: join(outDir, 'floor/index.mjs') },
    ...FLOOR_VARIANTS.map((v) => ({ name: v.name, entry: join(repoRoot, 'test/bench/fixtures', v.fixture), outfile: join(outDir, v.dir, 'index.mjs') })),
    ...functionNames.map((name) => ({ name, entry: join(repoRoot, 'functions', `${name}.ts`), outfile: join(outDir, name, 'index.mjs') })),
  ];
  log(`bundling ${entries.length} entries`);
  const bundles = await Promise.all(
    entries.map(async (e) => {
      const result = await build({ ...esbuildOptions(e.entry, e.outfile, repoRoot), metafile: true, logLevel: 'warning' });
      // As the construct's afterBundling hook does: the lazy packages this bundle imports, beside it.
      const lazy = await Promise.all(
        lazyPackages
          .filter((name) => importsPackage(readFileSync(e.outfile, 'utf8'), name))
          .map(async (name) => {
            const options = lazyPackageOptions(name, dirname(e.outfile), repoRoot);
            await build({ ...options, logLevel: 'warning' });
            const pkg = lazyPackageJson(dirname(e.outfile), name);
            writeFileSync(pkg.path, pkg.content);
            return { name, bytes: statSync(lazyPackageFile(dirname(e.outfile), name)).size };
          }),
      );
      return {
        ...e,
        bytes: statSync(e.outfile).size,
        lazy,
        largest: largestInputs(result.metafile!, e.outfile),
        externals: externalImports(result.metafile!, e.outfile),
      };
    }),
  );

  // What a bundle's import costs is its own code plus the packages it leaves external (the AWS
  // SDK, loaded from node_modules as Lambda loads it from the runtime). A stub per distinct set
  // of externals, importing only those, tells the two apart.
  const stubs = new Map<string, { name: string; outfile: string }>();
  for (const b of bundles) {
    const key = b.externals.join(' ');
    if (stubs.has(key)) continue;
    const outfile = join(outDir, 'externals', `stub-${stubs.size}.mjs`);
    mkdirSync(join(outDir, 'externals'), { recursive: true });
    writeFileSync(
      outfile,
      `${b.externals.map((m, i) => `import * as m${i} from ${JSON.stringify(m)};`).join('\n')}\nexport const handler = async () => [${b.externals.map((_, i) => `m${i}`).join(', ')}].length;\n`,
    );
    stubs.set(key, { name: `externals only: ${key || 'none'}`, outfile });
  }

  const timer = join(repoRoot, 'test/bench/fixtures/import-timer.mjs');
  const runs = config.quick ? 3 : 15;
  const timed = [...bundles, ...stubs.values()];
  const times = new Map<string, number[]>(timed.map((b) => [b.name, []]));
  const cpuTimes = new Map<string, number[]>(timed.map((b) => [b.name, []]));
  // Round 0 warms the file cache and is discarded.
  for (let round = 0; round <= runs; round++) {
    for (const item of shuffle(timed)) {
      const t = await importOnce(item.outfile, item.name, timer);
      if (round > 0) {
        times.get(item.name)!.push(t.ms);
        cpuTimes.get(item.name)!.push(t.cpu_ms);
      }
    }
    if (round === 0 || round === runs || round % 5 === 0) log(`import round ${round}/${runs}`);
  }

  // The target's two imports again, back to back: the largest bundle and the floor, a pair at a
  // time in alternating order (ABBA), so that load coming and going on the machine (other work,
  // other engineers) hits both of a pair alike. The target's ratio is the median of the pairs'
  // ratios; the rounds above, seconds apart within a round, give the rest of the table.
  const largestEntry = bundles.filter((b) => !FIXTURES.has(b.name)).reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const floorEntry = bundles.find((b) => b.name === FLOOR)!;
  const pairs = config.quick ? 3 : PAIRED_RUNS;
  const pairRatios: number[] = [];
  const pairCpuRatios: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const bundleFirst = pair % 4 === 1 || pair % 4 === 2;
    const first = await importOnce((bundleFirst ? largestEntry : floorEntry).outfile, bundleFirst ? largestEntry.name : FLOOR, timer);
    const second = await importOnce((bundleFirst ? floorEntry : largestEntry).outfile, bundleFirst ? FLOOR : largestEntry.name, timer);
    const [b, f] = bundleFirst ? [first, second] : [second, first];
    pairRatios.push(b.ms / f.ms);
    pairCpuRatios.push(b.cpu_ms / f.cpu_ms);
  }
  log(`paired imports of ${largestEntry.name} and the floor: ${pairs}`);

  const baselineMedian = median(times.get(BASELINE)!);
  const floorMedian = median(times.get(FLOOR)!);
  const baselineCpu = median(cpuTimes.get(BASELINE)!);
  const baseline = bundles.find((b) => b.name === BASELINE)!;
  const baselineExternals = median(times.get(stubs.get(baseline.externals.join(' '))!.name)!);
  const rows: Row[] = [
    {
      figure: `${BASELINE}: size / import`,
      value: `${bytes(baseline.bytes)} / ${ms(baselineMedian)}`,
      baseline: '-',
      ratio: '1.00x',
      target: 'reference',
    },
  ];
  const results = bundles.map((b) => {
    const samples = times.get(b.name)!;
    const med = median(samples);
    const stub = stubs.get(b.externals.join(' '))!;
    const externalsMs = median(times.get(stub.name)!);
    return {
      name: b.name,
      bytes: b.bytes,
      lazy_packages: b.lazy,
      largest_inputs: b.largest,
      externals: b.externals,
      externals_only_import_ms: round(externalsMs),
      own_code_import_ms: round(med - externalsMs),
      import_ms: { median: round(med), p90: round(percentile(samples, 90)), samples: samples.map((s) => round(s)) },
      import_ratio: round(ratio(med, baselineMedian), 3),
      import_ratio_to_floor: round(ratio(med, floorMedian), 3),
      import_cpu_ms: { median: round(median(cpuTimes.get(b.name)!)), samples: cpuTimes.get(b.name)!.map((s) => round(s)) },
      import_cpu_ratio: round(ratio(median(cpuTimes.get(b.name)!), baselineCpu), 3),
    };
  });
  const functions = results.filter((r) => !FIXTURES.has(r.name));
  const floor = results.find((r) => r.name === FLOOR)!;
  const variants = FLOOR_VARIANTS.map((v) => results.find((r) => r.name === v.name)!);
  const lazyFloor = variants[0]!;
  const largestBundle = functions.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const slowest = functions.reduce((a, b) => (b.import_ratio > a.import_ratio ? b : a));
  if (largestBundle.name !== largestEntry.name) throw new Error(`largest bundle: ${largestBundle.name} or ${largestEntry.name}?`);
  const pairedRatio = round(median(pairRatios), 3);
  const pairedCpuRatio = round(median(pairCpuRatios), 3);
  rows.push({
    figure: `Largest bundle (${largestBundle.name}, ${bytes(largestBundle.bytes)}): import against the floor's, median of ${pairs} pairs imported back to back (p10 to p90 of the pairs)`,
    value: `${x(pairedRatio)} (${x(round(percentile(pairRatios, 10), 3))} to ${x(round(percentile(pairRatios, 90), 3))}); CPU time ${x(pairedCpuRatio)} (${x(round(percentile(pairCpuRatios, 10), 3))} to ${x(round(percentile(pairCpuRatios, 90), 3))})`,
    baseline: 'the floor',
    ratio: x(pairedRatio),
    target: `<= ${MAX_IMPORT_RATIO}x the floor`,
    met: pairedRatio <= MAX_IMPORT_RATIO,
  });
  rows.push({
    figure: `Largest bundle (${largestBundle.name}): import (median of ${runs} rounds) against the floor's (median of ${runs} rounds)`,
    value: `${ms(largestBundle.import_ms.median)} (p90 ${ms(largestBundle.import_ms.p90)}); ${x(largestBundle.import_ratio)} the baseline`,
    baseline: ms(floorMedian),
    ratio: x(largestBundle.import_ratio_to_floor),
  });
  rows.push({
    figure: `Largest bundle (${largestBundle.name}): import against the floor as the functions carry it now (${lazyFloor.name})`,
    value: ms(largestBundle.import_ms.median),
    baseline: ms(lazyFloor.import_ms.median),
    ratio: x(round(ratio(largestBundle.import_ms.median, lazyFloor.import_ms.median), 3)),
  });
  rows.push({
    figure: `Largest bundle (${largestBundle.name}): CPU time of the import (median of ${runs}; less disturbed by other load)`,
    value: ms(largestBundle.import_cpu_ms.median),
    baseline: ms(baselineCpu),
    ratio: x(largestBundle.import_cpu_ratio),
  });
  rows.push({
    figure: `Largest bundle (${largestBundle.name}): CPU time of the import against the floor's`,
    value: ms(largestBundle.import_cpu_ms.median),
    baseline: ms(floor.import_cpu_ms.median),
    ratio: x(round(ratio(largestBundle.import_cpu_ms.median, floor.import_cpu_ms.median), 3)),
  });
  rows.push({
    figure: `${FLOOR}: size / import (median of ${runs}); CPU time`,
    value: `${bytes(floor.bytes)} / ${ms(floor.import_ms.median)} (p90 ${ms(floor.import_ms.p90)}); CPU ${ms(floor.import_cpu_ms.median)} (${x(floor.import_cpu_ratio)})`,
    baseline: ms(baselineMedian),
    ratio: x(floor.import_ratio),
  });
  for (const v of variants) {
    rows.push({
      figure: `${v.name}: size / import (median of ${runs}); CPU time`,
      value: `${bytes(v.bytes)} / ${ms(v.import_ms.median)} (p90 ${ms(v.import_ms.p90)}); CPU ${ms(v.import_cpu_ms.median)}`,
      baseline: ms(floorMedian),
      ratio: `${x(v.import_ratio_to_floor)} the floor, ${x(v.import_ratio)} the baseline`,
    });
  }
  rows.push({
    figure: `Slowest import (${slowest.name}, ${bytes(slowest.bytes)})`,
    value: `${ms(slowest.import_ms.median)} (p90 ${ms(slowest.import_ms.p90)})`,
    baseline: ms(baselineMedian),
    ratio: x(slowest.import_ratio),
  });
  for (const r of functions) {
    rows.push({
      figure: `${r.name}: bundle size`,
      value: `${bytes(r.bytes)} (${r.bytes.toLocaleString('en-US')} B)`,
      baseline: '-',
      ratio: `${Math.round((100 * r.bytes) / MAX_BUNDLE_BYTES)}% of 300 KB`,
      target: '<= 300 KB (300,000 B)',
      met: r.bytes <= MAX_BUNDLE_BYTES,
    });
    for (const lazy of r.lazy_packages) {
      rows.push({
        figure: `${r.name}: loaded on first use, beside the bundle`,
        value: `${lazy.name}: ${bytes(lazy.bytes)} (node_modules/${lazy.name}/index.mjs)`,
      });
    }
    rows.push({
      figure: `${r.name}: import (median of ${runs})`,
      value: `${ms(r.import_ms.median)} (p90 ${ms(r.import_ms.p90)})`,
      baseline: ms(baselineMedian),
      ratio: x(r.import_ratio),
    });
    const extra = r.externals.filter((m) => !baseline.externals.includes(m)).map((m) => m.replace('@aws-sdk/', ''));
    rows.push({
      figure: `${r.name}: import split: external SDK packages / own bundle`,
      value: `${ms(r.externals_only_import_ms)} / ${ms(r.own_code_import_ms)}${extra.length ? ` (also loads ${extra.join(', ')})` : ''}`,
      baseline: `${ms(baselineExternals)} / ${ms(baselineMedian - baselineExternals)}`,
    });
  }
  const largest = [...functions]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map((r) => `${r.name}: ${r.largest_inputs.map((i) => `${i.input} ${bytes(i.bytes)}`).join(', ')}`);
  return {
    id: 'cold-start',
    title: 'Cold start',
    method:
      `Each of the ${functionNames.length} functions (functions/*.ts) bundled with esbuild using the construct's options ` +
      '(infra/bundling.ts: minified ESM, node24, source map without sources, createRequire banner, AWS SDK clients external), size of index.mjs; ' +
      `lazy packages (${lazyPackages.join(', ')}) are left out of index.mjs and bundled beside it, as the construct's afterBundling hook does, and imported on first use; ` +
      `import time = median of ${runs} fresh \`node\` processes each timing \`await import(bundle)\` with performance.now() (and its CPU time with process.cpuUsage()) ` +
      "(Node's startup excluded), in the environment the stack gives the functions (no NODE_OPTIONS: source maps ship beside the bundle but are not loaded at start). " +
      'Baseline: a bundle that only creates a DynamoDB document client, bundled the same way; floor: the baseline with Powertools Logger, Metrics, Tracer (X-Ray SDK at init) and middy, and three ways to lower it beside it. ' +
      'Targets: every bundle at most 300 KB; the largest bundle\'s import at most 1.05x the floor\'s. ' +
      'Runs are interleaved (every bundle once per round, in a shuffled order; a first round is discarded); ' +
      `then the largest bundle and the floor are imported ${pairs} times more, a pair back to back (alternating which goes first), and the target's ratio is the median of the pairs' ratios.`,
    rows,
    notes: [
      `Load average when the section started: ${loadAtStart.join(', ')} (1, 5, 15 min) on ${cpus().length} CPUs; wall times are only comparable on an otherwise idle machine.`,
      `Largest inputs of the largest bundles: ${largest.join('; ')}.`,
      'Import split: the "external SDK packages" time is a stub importing exactly the @aws-sdk/* packages the bundle leaves external ' +
        '(loaded from node_modules, as Lambda loads them from the runtime); the rest is the bundle\'s own code.',
      ...[...stubs.values()].map((s) => `${s.name}: ${ms(median(times.get(s.name)!))}`),
    ],
    data: {
      externals_only: [...stubs.values()].map((s) => ({ name: s.name, import_ms: round(median(times.get(s.name)!)) })),
      runs,
      largest_against_floor_pairs: { pairs, median_ratio: pairedRatio, median_cpu_ratio: pairedCpuRatio, ratios: pairRatios.map((r) => round(r, 3)), cpu_ratios: pairCpuRatios.map((r) => round(r, 3)) },
      baseline_import_ms: round(baselineMedian),
      baseline_import_cpu_ms: round(baselineCpu),
      load_average_at_start: loadAtStart,
      bundles: results,
    },
    seconds: (performance.now() - started) / 1000,
  };
}
