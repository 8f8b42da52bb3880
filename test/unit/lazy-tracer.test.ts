/**
 * shared/observability.ts in Lambda: the X-Ray tracer is not loaded at init, nor during an
 * instance's first invocation; it loads once that invocation has answered, wraps the SDK clients
 * made before it, and traces every later invocation (without a second ColdStart annotation).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Observability = typeof import('../../shared/observability');

/** An SDK client, and whether the X-Ray SDK's middleware is on its stack. */
const sdkClient = () => new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const xrayOn = (client: DynamoDBClient) => client.middlewareStack.identify().some((name) => /XRay/i.test(name));

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
/**
 * Until the tracer has loaded (an import of Powertools Tracer and the X-Ray SDK: 50 ms was not
 * always enough with the whole suite on two cores, where a run met it undefined), or 10 s.
 */
async function loaded(observability: Observability): Promise<void> {
  for (const deadline = Date.now() + 10_000; !observability.tracer && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the X-Ray tracer in Lambda', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'true');
    // Without a trace header Powertools Tracer leaves segments alone (it traces nothing here).
    vi.stubEnv('_X_AMZN_TRACE_ID', '');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('loads after the first response, wraps the clients made before it, and traces from the next invocation', async () => {
    const observability: Observability = await import('../../shared/observability');
    const early = sdkClient();
    expect(observability.traced(early)).toBe(early);
    expect([observability.tracer, xrayOn(early)]).toEqual([undefined, false]);

    const [middleware] = observability.tracing();
    const first = { event: {}, context: {}, response: undefined, error: undefined, internal: {} };
    await middleware!.before!(first as never);
    expect(observability.tracer).toBeUndefined();
    await middleware!.after!(first as never);
    // Not yet: the load waits until the response is on its way.
    expect(observability.tracer).toBeUndefined();
    await loaded(observability);

    const tracer = observability.tracer!;
    expect(tracer).toBeDefined();
    expect(xrayOn(early)).toBe(true);
    // A client made now is wrapped at once.
    const late = sdkClient();
    expect(xrayOn(late)).toBe(false);
    observability.traced(late);
    expect(xrayOn(late)).toBe(true);
    // The instance's cold start was the first invocation: the tracer does not report another.
    expect((tracer as unknown as { coldStart: boolean }).coldStart).toBe(false);
  });

  it('loads after the first invocation of a handler without the middleware too, even a failed one', async () => {
    const observability: Observability = await import('../../shared/observability');
    const handler = observability.tracingAfterFirstResponse(async () => {
      throw new Error('boom');
    });
    await expect(handler()).rejects.toThrow('boom');
    expect(observability.tracer).toBeUndefined();
    await loaded(observability);
    expect(observability.tracer).toBeDefined();
  });

  it('is never loaded where tracing is off', async () => {
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'false');
    const observability: Observability = await import('../../shared/observability');
    const handler = observability.tracingAfterFirstResponse(async () => 'ok');
    expect(handler).not.toBe(undefined);
    await handler();
    await settle();
    expect([observability.tracer, observability.tracing()]).toEqual([undefined, []]);
  });
});
