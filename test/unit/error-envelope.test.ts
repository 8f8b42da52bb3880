import { describe, expect, it } from 'vitest';
import { formatPath, isTransient } from '../../shared/http/error-envelope';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name, ...extra });

describe('error envelope helpers', () => {
  it('formats zod paths as the contract shows them', () => {
    expect(formatPath(['rooms', 3, 'price'])).toBe('rooms[3].price');
    expect(formatPath(['external_source'])).toBe('external_source');
    expect(formatPath([])).toBe('(root)');
  });

  it('treats throttling, timeouts and refused connections as transient, not other errors', () => {
    expect(isTransient(named('ProvisionedThroughputExceededException'))).toBe(true);
    expect(isTransient(named('ThrottlingException'))).toBe(true);
    expect(isTransient(named('TimeoutError'))).toBe(true);
    expect(isTransient(named('Error', { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransient(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'None' }, { Code: 'ThrottlingError' }] }))).toBe(true);
    expect(isTransient(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] }))).toBe(false);
    expect(isTransient(named('ValidationException'))).toBe(false);
    expect(isTransient(named('IdempotencyPersistenceLayerError', { cause: named('ThrottlingException') }))).toBe(true);
    expect(isTransient('not an error')).toBe(false);
  });
});
