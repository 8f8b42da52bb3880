import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.ts';

// `env` below reaches the test workers only; the global setup runs in this process and loads the
// SDK too, which would print its Node-version warning once into the test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Four projects; `npm test` (`vitest run`) runs them all, `npm run test:<name>` one of them.
// - unit: no emulator, no child process; `npm run test:unit` takes seconds.
// - infra: the CDK template tests (synth), no emulator.
// - integration: test/integration and test/dashboard against the run's emulators (global setup),
//   each file with its own table, queues, key files and ports, so files run side by side.
// - browser: headless Chromium against the same emulators.
// The groups run one after another (`sequence.groupOrder`): unit, infra, then integration and
// browser together, the browser files after all the integration files (test/support/sequencer.ts),
// so they take the workers the last integration files leave free. The machine has two cores and
// the suite is bound by them, so more workers than cores only help where files wait: integration
// (sweeps, retries, child processes) and browser (a page waits on the service between steps) run
// four; the CDK synth keeps a core busy and gets two. Measured in full runs on 2 cores:
// integration 312-340 s with three workers, 307 s with four; browser 84-91 s with two, 72-78 s
// with three or four. Unit files beside integration files failed a CPU-timing test: they keep
// their own group.
const shared = {
  // The functions' log lines go to test-results/logs/<file>.log, not the test output.
  setupFiles: ['test/support/quiet-logs.ts'],
  pool: 'forks' as const,
  // A larger young generation for the workers: the SDK calls and JSON of the integration files
  // allocate fast, and fewer scavenges took 3-5% less CPU and time (three integration files,
  // twice each way: 104 and 105 CPU-s with V8's default, 101 and 99 with 32 MB).
  execArgv: ['--max-semi-space-size=32'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  env: {
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  },
};

// unit, infra and integration files share their worker processes (test/support/per-file.ts
// undoes what a file leaves behind): a worker loads the dependencies (the CDK, the AWS SDK) once,
// not a process started and loaded again per file. Measured alone on 2 cores: infra 112 s -> 47 s;
// unit 27 s -> 19 s (34 -> 18 CPU-s); integration's imports 18 s summed over its 67 files. The
// browser files gained nothing measurable (Chromium and its waits dominate) and keep a process
// each.
const sharedWorkers = { isolate: false, setupFiles: ['test/support/per-file.ts', ...shared.setupFiles] };

// One DynamoDB Local, SQS emulator, cognito-local and SES emulator for the whole run, shared by
// the projects that need them: test/support/global-setup.ts starts them once per run, in the
// background while the unit and template files run, and each file of these projects waits for
// them in its setup file (emulators-ready.ts).
const emulators = { globalSetup: ['test/support/global-setup.ts'] };
const awaitsEmulators = (setupFiles: string[]) => ['test/support/emulators-ready.ts', ...setupFiles];

export default defineConfig({
  // The guest catalogues, one module a language (tsconfig.json's paths; infra/bundling.ts LAZY_CATALOGUES).
  resolve: { alias: [{ find: /^guest-messages\/(\w+)$/, replacement: fileURLToPath(new URL('./shared/i18n/messages/$1.ts', import.meta.url)) }] },
  test: {
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { extends: true, test: { ...shared, ...sharedWorkers, name: 'unit', include: ['test/unit/**/*.test.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { ...shared, ...sharedWorkers, name: 'infra', include: ['test/infra/**/*.test.ts'], maxWorkers: 2, testTimeout: 120_000, sequence: { groupOrder: 1 } } },
      { extends: true, test: { ...shared, ...sharedWorkers, ...emulators, setupFiles: awaitsEmulators(sharedWorkers.setupFiles), name: 'integration', include: ['test/integration/**/*.test.ts', 'test/dashboard/**/*.test.ts'], maxWorkers: 4, sequence: { groupOrder: 2 } } },
      { extends: true, test: { ...shared, ...emulators, setupFiles: awaitsEmulators(shared.setupFiles), name: 'browser', include: ['test/browser/**/*.test.ts'], maxWorkers: 4, testTimeout: 90_000, sequence: { groupOrder: 2 } } },
    ],
  },
});
