/** X-Service-Signature: lowercase hex HMAC-SHA256 of the exact body bytes, no prefix. */
import { createHmac, randomBytes } from 'node:crypto';
import { verifySignature } from '../../receiver-kit';

export function signCallbackBody(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The receiver side, as integrators run it: the receiver kit's constant-time check. */
export function verifyCallbackSignature(secret: string, body: string | Buffer, signature: string): boolean {
  return verifySignature(body, signature, secret);
}

/** A new signing secret: 32 random bytes, prefixed so it is recognisable in a config file. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
