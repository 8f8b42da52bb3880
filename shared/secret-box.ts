/**
 * Secrets the service must use in clear (callback and webhook signing secrets) are kept on the
 * table sealed with AES-256-GCM. The key comes from SECRET_BOX_KEY (base64, 32 bytes: the local
 * stack's key file) or, in the stack, from the Secrets Manager secret named by
 * SECRET_BOX_KEY_SECRET_ARN, read on first use and cached per container.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
let cachedKey: Promise<Buffer> | undefined;

async function loadKey(): Promise<Buffer> {
  const direct = process.env.SECRET_BOX_KEY;
  if (direct) {
    const key = Buffer.from(direct, 'base64');
    if (key.length !== 32) throw new Error('SECRET_BOX_KEY must be 32 bytes in base64');
    return key;
  }
  const secretArn = process.env.SECRET_BOX_KEY_SECRET_ARN;
  if (!secretArn) throw new Error('Missing SECRET_BOX_KEY or SECRET_BOX_KEY_SECRET_ARN');
  // Imported on first use: only the functions that seal or open secrets load this client.
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const { SecretString } = await new SecretsManagerClient({ maxAttempts: 3 }).send(new GetSecretValueCommand({ SecretId: secretArn }));
  if (!SecretString) throw new Error('The secret-box key secret is empty');
  // The generated secret is random text; its SHA-256 is the 32-byte key.
  return createHash('sha256').update(SecretString, 'utf8').digest();
}

function key(): Promise<Buffer> {
  cachedKey ??= loadKey().catch((error: unknown) => {
    cachedKey = undefined;
    throw error;
  });
  return cachedKey;
}

export async function sealSecret(plaintext: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(), iv);
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join(':');
}

export async function openSecret(sealed: string): Promise<string> {
  const [version, iv, tag, data] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || !data) throw new Error('Not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', await key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** A new key for SECRET_BOX_KEY (the local stack keeps one in its data folder). */
export function newSecretBoxKey(): string {
  return randomBytes(32).toString('base64');
}
