/**
 * Sealed signing secrets (shared/secrets/sealed-secrets.ts). The local key-file implementation
 * for real; the KMS one with the client's send stubbed (no emulator speaks KMS), to check what
 * it asks KMS and how it reads KMS's answers.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ensureKeyFile } from '../../infra/local/key-files';
import { openSecret, sealSecret, SecretCannotBeOpenedError, type SealingContext } from '../../shared/secrets/sealed-secrets';
import { withEnv } from '../support/env';

const dir = mkdtempSync(join(tmpdir(), 'sealed-secrets-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const SECRET = 'whsec_example_secret_value_1234567890';
const A: SealingContext = { client_id: 'client-a', kind: 'callback' };
const keyFile = ensureKeyFile(join(dir, 'secrets.key'));
const base = { STAGE: 'local', TABLE_NAME: 'unit-test-table', AWS_REGION: 'us-east-1', SECRETS_KMS_KEY_ARN: undefined };
const local = <T>(run: () => Promise<T>, file = keyFile) => withEnv({ ...base, SECRETS_KEY_FILE: file }, run);

/** Flips one bit of the n-th field of a sealed value (`v2:local:iv:tag:data`). */
function flip(sealed: string, field: number): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[field]!, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  parts[field] = bytes.toString('base64url');
  return parts.join(':');
}

describe('local key file', () => {
  it('seals so the secret does not show, differently each time, and opens under the same context', () =>
    local(async () => {
      const sealed = await sealSecret(SECRET, A);
      expect(sealed).toMatch(/^v2:local:[\w-]+:[\w-]+:[\w-]+$/);
      expect(sealed).not.toContain(SECRET);
      expect(await sealSecret(SECRET, A)).not.toBe(sealed);
      expect(await openSecret(sealed, A)).toBe(SECRET);
      // The context's key order does not matter; only its values do.
      expect(await openSecret(sealed, { kind: 'callback', client_id: 'client-a' })).toBe(SECRET);
    }));

  it("refuses to open under another client's or another kind's context", () =>
    local(async () => {
      const sealed = await sealSecret(SECRET, A);
      await expect(openSecret(sealed, { ...A, client_id: 'client-b' })).rejects.toThrow(SecretCannotBeOpenedError);
      await expect(openSecret(sealed, { ...A, kind: 'webhook' })).rejects.toThrow(SecretCannotBeOpenedError);
    }));

  it('refuses an altered value, another key, and values that are not sealed secrets, without showing them', () =>
    local(async () => {
      const sealed = await sealSecret(SECRET, A);
      for (const field of [2, 3, 4]) await expect(openSecret(flip(sealed, field), A)).rejects.toThrow(SecretCannotBeOpenedError);
      await expect(openSecret(sealed.slice(0, -2), A)).rejects.toThrow(SecretCannotBeOpenedError);
      await expect(local(() => openSecret(sealed, A), ensureKeyFile(join(dir, 'other.key')))).rejects.toThrow(SecretCannotBeOpenedError);
      await expect(openSecret(SECRET, A)).rejects.toThrow(/not a sealed secret/);
      await expect(openSecret('v1:aXY:dGFn:ZGF0YQ', A)).rejects.toThrow(/retired secret box/);
      const error = (await openSecret(flip(sealed, 4), A).catch((e: unknown) => e)) as Error;
      expect(error.message).not.toContain(sealed.split(':')[4]);
    }));

  it('refuses a key file others can read, and a key file in a deployed stage', async () => {
    const open = ensureKeyFile(join(dir, 'open.key'));
    chmodSync(open, 0o644);
    if (process.platform !== 'win32') await expect(local(() => sealSecret(SECRET, A), open)).rejects.toThrow(/chmod 600/);
    await expect(withEnv({ ...base, STAGE: 'prod', SECRETS_KEY_FILE: keyFile }, () => sealSecret(SECRET, A))).rejects.toThrow(/local stack only/);
    await expect(withEnv({ ...base, SECRETS_KEY_FILE: undefined }, () => sealSecret(SECRET, A))).rejects.toThrow(/not configured/);
  });
});

describe('KMS', () => {
  const KEY_ARN = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  const kms = <T>(run: () => Promise<T>) => withEnv({ ...base, STAGE: 'prod', SECRETS_KEY_FILE: undefined, SECRETS_KMS_KEY_ARN: KEY_ARN }, run);
  const BLOB = Buffer.from('kms-ciphertext-blob');
  const send = () => vi.spyOn(KMSClient.prototype, 'send') as unknown as ReturnType<typeof vi.fn>;

  it('encrypts with the key under the encryption context {client_id, kind}', () =>
    kms(async () => {
      const spy = send().mockResolvedValue({ CiphertextBlob: BLOB });
      const sealed = await sealSecret(SECRET, { ...A, extra: 'dropped' } as SealingContext);
      expect(sealed).toBe(`v2:kms:${BLOB.toString('base64url')}`);
      const command = spy.mock.calls[0]![0] as EncryptCommand;
      expect(command).toBeInstanceOf(EncryptCommand);
      expect(command.input).toMatchObject({ KeyId: KEY_ARN, EncryptionContext: { client_id: 'client-a', kind: 'callback' } });
      expect(Object.keys(command.input.EncryptionContext!).sort()).toEqual(['client_id', 'kind']);
      expect(Buffer.from(command.input.Plaintext!).toString('utf8')).toBe(SECRET);
    }));

  it('decrypts naming the key and the same context', () =>
    kms(async () => {
      const spy = send().mockResolvedValue({ Plaintext: Buffer.from(SECRET) });
      expect(await openSecret(`v2:kms:${BLOB.toString('base64url')}`, A)).toBe(SECRET);
      const command = spy.mock.calls[0]![0] as DecryptCommand;
      expect(command).toBeInstanceOf(DecryptCommand);
      expect(command.input).toMatchObject({ KeyId: KEY_ARN, EncryptionContext: { client_id: 'client-a', kind: 'callback' } });
      expect(Buffer.from(command.input.CiphertextBlob!)).toEqual(BLOB);
    }));

  it.each(['InvalidCiphertextException', 'IncorrectKeyException'])('%s (another context, key or an altered value) cannot be opened', (name) =>
    kms(async () => {
      send().mockRejectedValue(Object.assign(new Error('KMS says no'), { name }));
      await expect(openSecret(`v2:kms:${BLOB.toString('base64url')}`, A)).rejects.toThrow(SecretCannotBeOpenedError);
    }),
  );

  it.each(['ThrottlingException', 'DependencyTimeoutException', 'KMSInternalException', 'TimeoutError'])('%s is a fault to retry, not a verdict', (name) =>
    kms(async () => {
      send().mockRejectedValue(Object.assign(new Error('try again'), { name }));
      const error = (await openSecret(`v2:kms:${BLOB.toString('base64url')}`, A).catch((e: unknown) => e)) as Error;
      expect(error).not.toBeInstanceOf(SecretCannotBeOpenedError);
      expect(error.name).toBe(name);
    }),
  );

  it('refuses a locally sealed value without asking KMS', async () => {
    const sealed = await local(() => sealSecret(SECRET, A));
    await kms(async () => {
      const spy = send();
      await expect(openSecret(sealed, A)).rejects.toThrow(/kms scheme/);
      expect(spy).not.toHaveBeenCalled();
    });
  });

  it('the sender opens each sealed secret once per container, and only for its own client and kind', () =>
    kms(async () => {
      const { signingSecretOf } = await import('../../shared/store/endpoint-store');
      const spy = send().mockResolvedValue({ Plaintext: Buffer.from(SECRET) });
      const endpoint = { ...A, url: 'https://a.example/hook', sealed_secret: `v2:kms:${BLOB.toString('base64url')}`, updated_at: '2027-01-01T00:00:00Z' };
      expect(await signingSecretOf(endpoint)).toBe(SECRET);
      expect(await signingSecretOf(endpoint)).toBe(SECRET);
      expect(spy).toHaveBeenCalledTimes(1);
      // The same sealed text on another client's record is not answered from the cache.
      spy.mockRejectedValue(Object.assign(new Error('no'), { name: 'InvalidCiphertextException' }));
      await expect(signingSecretOf({ ...endpoint, client_id: 'client-b' })).rejects.toThrow(SecretCannotBeOpenedError);
      expect(spy).toHaveBeenCalledTimes(2);
      // After the cache's lifetime, it asks KMS again.
      spy.mockResolvedValue({ Plaintext: Buffer.from(SECRET) });
      expect(await signingSecretOf(endpoint, Date.now() + 10 * 60_000)).toBe(SECRET);
      expect(spy).toHaveBeenCalledTimes(3);
    }));
});
