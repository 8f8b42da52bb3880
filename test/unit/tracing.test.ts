/**
 * Traces hold no secrets (docs/reliability.md "Only the guest holds a guest's booking"): the handlers'
 * tracer middleware (shared/observability.ts `tracing`) never records a response, whatever it
 * carries (session cookies, one-time secrets, a guest's token in a Location header), and the
 * tracer the stack configures (TRACER_ENVIRONMENT on every function, test/infra/stack.test.ts)
 * records an error's flag without its message. Nothing else in the code traces a handler or a
 * method with Powertools' defaults.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACER_ENVIRONMENT } from '../../definitions/service-defaults';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { HANDLER_TRACING } from '../../shared/observability';

const ROOT = resolve(__dirname, '../..');

/** A tracer as the middleware sees it in Lambda (tracing on, a segment open), recording what it is given. */
function recordingTracer() {
  const subsegment = { close: vi.fn() };
  const segment = { addNewSubsegment: vi.fn(() => subsegment) };
  return {
    isTracingEnabled: () => true,
    getSegment: () => segment,
    setSegment: vi.fn(),
    annotateColdStart: vi.fn(),
    addServiceNameAnnotation: vi.fn(),
    addResponseAsMetadata: vi.fn(),
    addErrorAsMetadata: vi.fn(),
    subsegment,
  };
}

describe('the handler tracing middleware', () => {
  it('records no response, and still opens and closes the handler subsegment', async () => {
    const tracer = recordingTracer();
    // As shared/observability.ts makes it once the tracer is loaded (after an instance's first response).
    const middleware = captureLambdaHandler(tracer as unknown as Tracer, HANDLER_TRACING);
    const request = {
      event: {},
      context: {},
      internal: {},
      response: { statusCode: 303, headers: { Location: '/book/c/confirmation/secret-token' }, multiValueHeaders: { 'Set-Cookie': ['id=token'] } },
      error: undefined,
    };
    await middleware!.before!(request as never);
    await middleware!.after!(request as never);
    expect(tracer.addResponseAsMetadata).not.toHaveBeenCalled();
    expect(tracer.subsegment.close).toHaveBeenCalledTimes(1);
  });
});

describe('the tracer as the stack configures it', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('marks an error without its message or stack', () => {
    Object.assign(process.env, TRACER_ENVIRONMENT, { POWERTOOLS_TRACE_ENABLED: 'true', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' });
    const tracer = new Tracer({ serviceName: 'unit' });
    const subsegment = { addErrorFlag: vi.fn(), addError: vi.fn(), addMetadata: vi.fn() };
    vi.spyOn(tracer, 'getSegment').mockReturnValue(subsegment as never);
    tracer.addErrorAsMetadata(new Error('password=hunter2'));
    expect(subsegment.addErrorFlag).toHaveBeenCalledTimes(1);
    expect(subsegment.addError).not.toHaveBeenCalled();
    // The response option too: a method's result is not kept either.
    tracer.addResponseAsMetadata({ secret: 'x' }, 'handler');
    expect(subsegment.addMetadata).not.toHaveBeenCalled();
  });

  it('is the only way code traces a handler or a method', () => {
    const files = ['functions', 'shared'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.tsx?$/.test(f))
        .map((f) => join(dir, f)),
    );
    const tracingElsewhere = files.filter(
      (file) => file !== join('shared', 'observability.ts') && /captureLambdaHandler|captureMethod|captureAsyncFunc|captureFunc\b/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(tracingElsewhere).toEqual([]);
  });
});
