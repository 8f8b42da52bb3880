/** shared/config.ts: the environment parsed once, failing loudly, never falling back to "local". */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config';

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
