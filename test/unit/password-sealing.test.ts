/**
 * The pending authenticator key sealed under the operator's password
 * (shared/secrets/password-sealing.ts): it opens with that password for that operator only, and
 * the sealed value says nothing of the key.
 */
import { describe, expect, it } from 'vitest';
import { openWithPassword, sealWithPassword } from '../../shared/secrets/password-sealing';

const KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('sealWithPassword', () => {
  it('opens with the password it was sealed under, for the operator it was sealed for', async () => {
    const sealed = await sealWithPassword(KEY, 'Correct-horse-42', 'uuid-1');
    expect(sealed).toMatch(/^p1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(KEY);
    expect(await openWithPassword(sealed, 'Correct-horse-42', 'uuid-1')).toBe(KEY);
  });

  it('does not open with another password, for another operator, altered, or in another format', async () => {
    const sealed = await sealWithPassword(KEY, 'Correct-horse-42', 'uuid-1');
    expect(await openWithPassword(sealed, 'Correct-horse-43', 'uuid-1')).toBeUndefined();
    expect(await openWithPassword(sealed, 'Correct-horse-42', 'uuid-2')).toBeUndefined();
    const parts = sealed.split(':');
    const ciphertext = Buffer.from(parts[4]!, 'base64url');
    ciphertext[0] = ciphertext[0]! ^ 1;
    parts[4] = ciphertext.toString('base64url');
    expect(await openWithPassword(parts.join(':'), 'Correct-horse-42', 'uuid-1')).toBeUndefined();
    expect(await openWithPassword(KEY, 'Correct-horse-42', 'uuid-1')).toBeUndefined();
  });

  it('seals the same key differently each time (a fresh salt and IV)', async () => {
    const [a, b] = await Promise.all([sealWithPassword(KEY, 'pw', 'u'), sealWithPassword(KEY, 'pw', 'u')]);
    expect(a).not.toBe(b);
  });
});
