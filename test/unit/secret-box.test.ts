import { beforeEach, describe, expect, it } from 'vitest';
import { newSecretBoxKey, openSecret, sealSecret } from '../../shared/secret-box';

describe('secret box', () => {
  beforeEach(() => {
    process.env.SECRET_BOX_KEY = newSecretBoxKey();
  });

  it('seals a secret so that it reads back and does not show', async () => {
    const secret = 'whsec_example_secret_value_1234567890';
    const sealed = await sealSecret(secret);
    expect(sealed).not.toContain(secret);
    expect(sealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(await sealSecret(secret)).not.toBe(sealed);
    expect(await openSecret(sealed)).toBe(secret);
  });

  it('refuses a tampered value', async () => {
    const sealed = await sealSecret('whsec_example');
    const [version, iv, tag, data] = sealed.split(':');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    await expect(openSecret([version, iv, tag, flipped.toString('base64url')].join(':'))).rejects.toThrow();
    await expect(openSecret('whsec_example')).rejects.toThrow('Not a sealed secret');
  });
});
