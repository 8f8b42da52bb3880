/**
 * Secrets the service must use in clear (callback and webhook signing secrets) are kept on the
 * table sealed under an encryption context naming the client and the event kind (docs/behaviour.md
 * "Payment safety in deployed stages"). A sealed secret opens only under the same context, so
 * one client's sealed secret copied onto another client's record does not open.
 *
 * Two implementations behind one interface, chosen from the configuration:
 * - SECRETS_KMS_KEY_ARN (deployed stages): KMS Encrypt/Decrypt with the customer-managed key,
 *   the context as the KMS encryption context (kms-sealer.ts);
 * - SECRETS_KEY_FILE (the local stack and tests): AES-256-GCM under a key file, the canonical
 *   context as additional authenticated data (local-sealer.ts).
 *
 * Format: `v2:<scheme>:<scheme's fields>`. v1 was the retired AES secret box keyed by a Secrets
 * Manager secret; such values are refused with a message that says to set the endpoint again.
 */
import { config } from '../config';
import { kmsSealer } from './kms-sealer';
import { localSealer } from './local-sealer';
import { SEALED_SECRET_KINDS, type Sealer, type SealingContext, SecretCannotBeOpenedError } from './sealer';

export { type SealingContext, SecretCannotBeOpenedError } from './sealer';

export const SEALED_FORMAT_VERSION = 'v2';

/** Exactly the context's keys: an extra property would change the context and the value would not open. */
function contextOf(context: SealingContext): SealingContext {
  if (!context.client_id || !SEALED_SECRET_KINDS.includes(context.kind)) {
    throw new Error('A sealing context needs a client_id and a kind of callback or webhook');
  }
  return { client_id: context.client_id, kind: context.kind };
}

function sealer(): Sealer {
  const { sealedSecrets, isLocal } = config();
  const { kmsKeyArn, keyFile } = sealedSecrets;
  if (kmsKeyArn && keyFile) throw new Error('Set only one of SECRETS_KMS_KEY_ARN and SECRETS_KEY_FILE');
  if (kmsKeyArn) return kmsSealer(kmsKeyArn);
  if (keyFile) {
    // A key file in a deployed stage would quietly weaken the protection the stack promises.
    if (!isLocal) throw new Error('SECRETS_KEY_FILE is for the local stack only; a deployed stage seals with SECRETS_KMS_KEY_ARN');
    return localSealer(keyFile);
  }
  throw new Error('Sealed secrets are not configured: set SECRETS_KMS_KEY_ARN (deployed stages) or SECRETS_KEY_FILE (local stack)');
}

export async function sealSecret(plaintext: string, context: SealingContext): Promise<string> {
  const chosen = sealer();
  return `${SEALED_FORMAT_VERSION}:${chosen.scheme}:${await chosen.seal(plaintext, contextOf(context))}`;
}

/** Throws SecretCannotBeOpenedError when the value cannot open under this context; other errors are faults (retry). */
export async function openSecret(sealed: string, context: SealingContext): Promise<string> {
  const bound = contextOf(context);
  const chosen = sealer();
  const [version, scheme] = sealed.split(':', 2);
  if (version === 'v1') {
    throw new SecretCannotBeOpenedError('it was sealed by the retired secret box (v1) and must be set again');
  }
  if (version !== SEALED_FORMAT_VERSION || !scheme) throw new SecretCannotBeOpenedError('it is not a sealed secret');
  if (scheme !== chosen.scheme) {
    // The stored scheme is not echoed: the message goes into delivery records.
    throw new SecretCannotBeOpenedError(`it was not sealed with this stack's ${chosen.scheme} scheme`);
  }
  return chosen.open(sealed.slice(`${version}:${scheme}:`.length), bound);
}
