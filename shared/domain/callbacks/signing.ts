/**
 * The two signatures of every callback and webhook (docs/behaviour.md "Receivers in control"):
 * X-Service-Signature, lowercase hex HMAC-SHA256 of the exact body bytes keyed with the secret as
 * shown (the spec), and Standard Webhooks' `webhook-signature`, `v1,` + base64 HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes a `whsec_` secret encodes.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { standardWebhookSignature, verifySignature } from '../../receiver-kit';

export { standardWebhookKey } from '../../receiver-kit';

export function signCallbackBody(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The receiver side, as integrators run it: the receiver kit's constant-time check. */
export function verifyCallbackSignature(secret: string, body: string | Buffer, signature: string): boolean {
  return verifySignature(body, signature, secret);
}

/**
 * The `webhook-signature` header: one `v1,<base64>` per valid secret, space-separated, in the
 * order given (the newest first).
 */
export function signStandardWebhook(secrets: readonly string[], deliveryId: string, timestamp: number, body: string | Buffer): string {
  return secrets.map((secret) => standardWebhookSignature(secret, deliveryId, timestamp, body)).join(' ');
}

/**
 * A new signing secret: `whsec_` + standard base64 (with its padding) of 32 random bytes, the
 * form the Standard Webhooks and Svix libraries take as it is.
 */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
