import { defineConfig } from 'vitest/config';

// `env` below reaches the test workers only; the global setup runs in this process and loads the
// SDK too, which would print its Node-version warning once into the test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local and one SQS emulator for the whole run; each file makes its own data.
    globalSetup: ['test/support/global-setup.ts'],
    // The functions' log lines go to test-results/logs/<file>.log, not the test output.
    setupFiles: ['test/support/quiet-logs.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: {
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  },
});
