/** X-Service-Signature: lowercase hex HMAC-SHA256 of the exact body bytes, no prefix. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function signCallbackBody(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Constant-time comparison of a received signature with the expected one. */
export function verifyCallbackSignature(secret: string, body: string | Buffer, signature: string): boolean {
  const expected = Buffer.from(signCallbackBody(secret, body), 'utf8');
  const received = Buffer.from(signature.trim().toLowerCase(), 'utf8');
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** A new signing secret: 32 random bytes, prefixed so it is recognisable in a config file. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
