/**
 * The key order references are derived with (docs/behaviour.md "Payment safety in deployed
 * stages": references cannot be derived from public data), and the guest booking page's
 * confirmation tokens of a form's attempt (shared/domain/guest-booking/). In the stack it is a
 * generated Secrets Manager secret readable by the order-creating functions only
 * (ORDER_REFERENCE_KEY_SECRET_ARN); locally a key file in LOCAL_DATA_DIR
 * (ORDER_REFERENCE_KEY_FILE). Read on first use and kept for the container's life.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { config } from '../config';
import { errors } from '../errors';
import { isTransient } from '../http/error-envelope';
import { logger, serviceClient } from '../observability';

let cached: Promise<Buffer> | undefined;

async function load(): Promise<Buffer> {
  const source = config().orderReferenceKey;
  let text: string | undefined;
  if (source.file) {
    text = await readFile(source.file, 'utf8');
  } else if (source.secretArn) {
    // Imported on first use: only the functions that create orders load this client.
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const client = serviceClient(new SecretsManagerClient({ maxAttempts: 3 }));
    try {
      ({ SecretString: text } = await client.send(new GetSecretValueCommand({ SecretId: source.secretArn })));
    } catch (error) {
      if (isTransient(error)) {
        logger.warn('Secrets Manager unavailable while reading the order reference key', { error: (error as Error).name });
        throw errors.serviceUnavailable();
      }
      throw error;
    } finally {
      client.destroy();
    }
  } else {
    throw new Error('The order reference key is not configured: set ORDER_REFERENCE_KEY_FILE or ORDER_REFERENCE_KEY_SECRET_ARN');
  }
  if (!text?.trim()) throw new Error('The order reference key is empty');
  // The stored value is random text; its SHA-256 is the 32-byte HMAC key.
  return createHash('sha256').update(text.trim(), 'utf8').digest();
}

export function orderReferenceKey(): Promise<Buffer> {
  cached ??= load().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
