import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, kindOfKey, presentedKey } from '../../shared/auth/api-keys';

describe('API keys', () => {
  it('generates keys of each kind with 32 random bytes after the prefix', () => {
    const sync = generateApiKey('sync');
    const payment = generateApiKey('payment');
    expect(sync).toMatch(/^svc_sync_[A-Za-z0-9_-]{43}$/);
    expect(payment).toMatch(/^svc_pay_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey('sync')).not.toBe(sync);
  });

  it('hashes with SHA-256 (hex) and recognises kinds by prefix and form', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(kindOfKey(generateApiKey('sync'))).toBe('sync');
    expect(kindOfKey(generateApiKey('payment'))).toBe('payment');
    expect(kindOfKey('svc_sync_tooshort')).toBeUndefined();
    expect(kindOfKey(`svc_other_${'a'.repeat(43)}`)).toBeUndefined();
    expect(kindOfKey(`svc_sync_${'a'.repeat(42)}!`)).toBeUndefined();
  });

  it('reads Bearer and x-api-key, Authorization first', () => {
    expect(presentedKey({ authorization: 'Bearer k1' })).toEqual({ key: 'k1', header: 'authorization' });
    expect(presentedKey({ authorization: 'bearer   k1 ' })).toEqual({ key: 'k1', header: 'authorization' });
    expect(presentedKey({ 'x-api-key': 'k2' })).toEqual({ key: 'k2', header: 'x-api-key' });
    expect(presentedKey({ authorization: 'Bearer k1', 'x-api-key': 'k2' })?.key).toBe('k1');
    expect(presentedKey({})).toBeUndefined();
    expect(presentedKey({ authorization: '  ' })).toBeUndefined();
  });
});
