/**
 * The local runtime gives each invocation its own Lambda context (infra/local/invocation-scope.ts),
 * as Lambda gives each instance its own: two invocations running at once in the local stack's one
 * process each log with their own function name and request id, whichever set the shared Logger's
 * context last. Without the scopes, both lines named the second invocation's function.
 */
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { installInvocationScopes, inInvocationScope } from '../../infra/local/invocation-scope';
import { lambdaContext } from '../../infra/local/lambda-runtime';
import { captureOutput } from '../support/output-capture';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
});

/** A handler that sets the Logger's context, lets the other invocation run, then logs (a warning: the tests log at WARN). */
async function logsAfterAWait(logger: typeof import('../../shared/observability').logger, context: Context, message: string) {
  logger.addContext(context);
  await sleep(30);
  logger.warn(message);
}

async function twoAtOnce() {
  const { logger } = await import('../../shared/observability');
  const first = lambdaContext('SweepDeliveries', 60_000);
  const second = lambdaContext('VerifyPaymentOrder', 29_000);
  const output = captureOutput();
  try {
    await Promise.all([
      inInvocationScope(first.awsRequestId, () => logsAfterAWait(logger, first, 'from the sweeper')),
      // Sets its context while the first waits: the first logs after that.
      inInvocationScope(second.awsRequestId, async () => {
        await sleep(5);
        await logsAfterAWait(logger, second, 'from verify');
      }),
    ]);
  } finally {
    output.restore();
  }
  const lines = output
    .text()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { first, second, lineOf: (message: string) => lines.find((line) => line.message === message) };
}

describe('local invocation scopes', () => {
  it("keeps each invocation's function name and request id on its own log lines", async () => {
    installInvocationScopes();
    const { first, second, lineOf } = await twoAtOnce();
    expect(lineOf('from the sweeper')).toMatchObject({ function_name: 'SweepDeliveries', function_request_id: first.awsRequestId });
    expect(lineOf('from verify')).toMatchObject({ function_name: 'VerifyPaymentOrder', function_request_id: second.awsRequestId });
  });

  it('without them, the last context set is on every line (the mistake the scopes prevent)', async () => {
    installInvocationScopes();
    delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
    const { lineOf } = await twoAtOnce();
    expect(lineOf('from the sweeper')).toMatchObject({ function_name: 'VerifyPaymentOrder' });
  });
});
