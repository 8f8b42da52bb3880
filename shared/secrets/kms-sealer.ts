/**
 * Sealing with the stage's customer-managed KMS key: a direct Encrypt of the secret (a signing
 * secret is far below Encrypt's 4 KB limit, so a data key would add a call and code, not
 * safety) under the encryption context, and Decrypt with the same context and the key named
 * (KeyId), so a value sealed for another client or kind, or under another key, is refused by KMS.
 * Rotation needs nothing here: the ciphertext names its key material version.
 *
 * Fields: `<KMS ciphertext blob, base64url>`.
 *
 * The client is imported on first use: only the functions that seal or open secrets load it.
 */
import type { KMSClient } from '@aws-sdk/client-kms';
import { serviceClient } from '../observability';
import { type Sealer, SecretCannotBeOpenedError } from './sealer';

let client: Promise<{ kms: KMSClient; sdk: typeof import('@aws-sdk/client-kms') }> | undefined;

function kms() {
  client ??= import('@aws-sdk/client-kms').then((sdk) => ({
    sdk,
    // Fail fast: the sender retries the message; a stuck call would hold the whole batch.
    kms: serviceClient(new sdk.KMSClient({ maxAttempts: 3, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 } })),
  }));
  return client;
}

/** KMS says the ciphertext will never decrypt under this context and key; anything else (throttling, timeouts, access) may pass. */
const CANNOT_OPEN = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

export function kmsSealer(keyArn: string): Sealer {
  return {
    scheme: 'kms',
    async seal(plaintext, context) {
      const { kms: api, sdk } = await kms();
      const { CiphertextBlob } = await api.send(
        new sdk.EncryptCommand({ KeyId: keyArn, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: { ...context } }),
      );
      if (!CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
      return Buffer.from(CiphertextBlob).toString('base64url');
    },
    async open(fields, context) {
      if (!/^[A-Za-z0-9_-]+$/.test(fields)) throw new SecretCannotBeOpenedError('it is not a sealed secret');
      const { kms: api, sdk } = await kms();
      try {
        const { Plaintext } = await api.send(
          new sdk.DecryptCommand({ KeyId: keyArn, CiphertextBlob: Buffer.from(fields, 'base64url'), EncryptionContext: { ...context } }),
        );
        if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext');
        return Buffer.from(Plaintext).toString('utf8');
      } catch (error) {
        if (CANNOT_OPEN.has((error as Error).name)) {
          throw new SecretCannotBeOpenedError('KMS refused it: sealed for another client or kind, under another key, or altered');
        }
        throw error;
      }
    },
  };
}
