/** shared/config.ts: the environment parsed once, failing loudly, never falling back to "local". */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig, tracingPossible } from '../../shared/config';

const minimal = { STAGE: 'dev', TABLE_NAME: 'hotel-integration' };

describe('configuration', () => {
  it('refuses a missing STAGE or TABLE_NAME, naming each, instead of assuming the local stack', () => {
    expect(() => parseConfig({})).toThrow(/STAGE.*TABLE_NAME|TABLE_NAME.*STAGE/);
    expect(() => parseConfig({ TABLE_NAME: 't' })).toThrow(/Invalid configuration: STAGE/);
  });

  it('is local only for the stage named local; the sandbox is off unless set', () => {
    expect(parseConfig(minimal)).toMatchObject({ stage: 'dev', isLocal: false, sandboxPayments: false });
    expect(parseConfig({ ...minimal, STAGE: 'local', SANDBOX_PAYMENTS: 'true' })).toMatchObject({ isLocal: true, sandboxPayments: true });
    expect(() => parseConfig({ ...minimal, SANDBOX_PAYMENTS: 'yes' })).toThrow(/SANDBOX_PAYMENTS/);
  });

  it("takes the sandbox checkout's own origin as a URL (a function URL ends with a slash), and refuses anything else", () => {
    expect(parseConfig(minimal).sandboxBaseUrl).toBeUndefined();
    expect(parseConfig({ ...minimal, SANDBOX_BASE_URL: 'https://abc123.lambda-url.eu-west-1.on.aws/' }).sandboxBaseUrl).toBe('https://abc123.lambda-url.eu-west-1.on.aws');
    expect(parseConfig({ ...minimal, SANDBOX_BASE_URL: 'http://127.0.0.1:3001' }).sandboxBaseUrl).toBe('http://127.0.0.1:3001');
    expect(() => parseConfig({ ...minimal, SANDBOX_BASE_URL: '127.0.0.1:3001' })).toThrow(/SANDBOX_BASE_URL/);
    expect(() => parseConfig({ ...minimal, SANDBOX_BASE_URL: 'ftp://sandbox.example' })).toThrow(/SANDBOX_BASE_URL/);
  });

  it("derives the user pool's issuer from its id, and refuses cognito-local's http issuer or endpoint outside the local stack", () => {
    const pool = { USER_POOL_ID: 'eu-west-1_AbC123', USER_POOL_CLIENT_ID: 'client1' };
    expect(parseConfig(minimal).userPool).toBeUndefined();
    expect(parseConfig({ ...minimal, ...pool }).userPool).toEqual({
      userPoolId: 'eu-west-1_AbC123',
      clientId: 'client1',
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
      region: 'eu-west-1',
      endpoint: undefined,
    });
    const local = { USER_POOL_ID: 'local_operators', USER_POOL_CLIENT_ID: 'c', COGNITO_ISSUER: 'http://127.0.0.1:9229/local_operators', COGNITO_ENDPOINT: 'http://127.0.0.1:9229' };
    expect(parseConfig({ ...minimal, ...local, STAGE: 'local' }).userPool).toMatchObject({ issuer: local.COGNITO_ISSUER, endpoint: local.COGNITO_ENDPOINT });
    expect(() => parseConfig({ ...minimal, ...local })).toThrow(/COGNITO_ISSUER .* is not https/);
    expect(() => parseConfig({ ...minimal, ...pool, COGNITO_ENDPOINT: 'http://127.0.0.1:9229' })).toThrow(/COGNITO_ENDPOINT/);
  });

  it('parses lists with their defaults and refuses malformed ones', () => {
    expect(parseConfig(minimal)).toMatchObject({
      supportedCurrencies: ['USD', 'EUR', 'GBP', 'NGN', 'GHS', 'KES', 'ZAR', 'JPY'],
      callbackRetryDelaysSeconds: [60, 300, 1800, 7200, 21600],
    });
    expect(parseConfig({ ...minimal, SUPPORTED_CURRENCIES: 'USD, KWD', CALLBACK_RETRY_DELAYS_SECONDS: '0,5' })).toMatchObject({
      supportedCurrencies: ['USD', 'KWD'],
      callbackRetryDelaysSeconds: [0, 5],
    });
    expect(() => parseConfig({ ...minimal, SUPPORTED_CURRENCIES: 'usd' })).toThrow(/SUPPORTED_CURRENCIES/);
    expect(() => parseConfig({ ...minimal, CALLBACK_RETRY_DELAYS_SECONDS: '60,soon' })).toThrow(/CALLBACK_RETRY_DELAYS_SECONDS/);
  });

  it('lets the X-Ray tracer load only where Powertools Tracer would trace (in Lambda, unless turned off)', async () => {
    const lambda = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' };
    expect(tracingPossible(lambda)).toBe(true);
    expect(tracingPossible({ ...lambda, POWERTOOLS_TRACE_ENABLED: 'true' })).toBe(true);
    expect(tracingPossible({ ...lambda, POWERTOOLS_TRACE_ENABLED: 'FALSE' })).toBe(false);
    expect(tracingPossible({ ...lambda, AWS_SAM_LOCAL: 'true' })).toBe(false);
    expect(tracingPossible({ AWS_EXECUTION_ENV: 'AWS_Lambda_amplify-mock' })).toBe(false);
    expect(tracingPossible({})).toBe(false);
    // The tests run with POWERTOOLS_TRACE_ENABLED=false: no tracer, clients left as they are.
    const { tracer, traced, tracing } = await import('../../shared/observability');
    const client = {};
    expect([tracer, traced(client), tracing()]).toEqual([undefined, client, []]);
  });

  it('is the only reader of process.env in shared/', () => {
    const root = fileURLToPath(new URL('../../shared', import.meta.url));
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
      });
    const readers = files(root)
      .filter((file) => !file.endsWith('/config.ts'))
      .filter((file) => /process\.env\b(?!\.\s*\*)/.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    expect(readers).toEqual([]);
  });
});
