/**
 * Order references and the URLs built from them. A reference is derived from the client and the
 * partner's reference with a keyed HMAC: concurrent creates of one partner reference compute the
 * same order reference (and so open one provider checkout), while nobody without the stage's key
 * can compute, guess or probe another order's reference.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { orderReferenceKey } from '../../secrets/order-reference-key';

const REF_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export async function orderReferenceFor(clientId: string, reference: string): Promise<string> {
  const digest = createHmac('sha256', await orderReferenceKey()).update(`${clientId}\u0000${reference}`).digest();
  // 32 divides 256: every character is uniform. 12 characters carry 60 bits.
  return `PO-${Array.from(digest.subarray(0, 12), (byte) => REF_ALPHABET[byte % REF_ALPHABET.length]).join('')}`;
}

/**
 * The URL the provider sends the payer back to: the order's verify, with the attempt's return
 * secret, which only that checkout's redirect carries (the table keeps its hash).
 */
export function providerReturnUrl(baseUrl: string, orderReference: string, returnSecret: string): string {
  return `${baseUrl}/api/v1/payments/payment-orders/verify?reference=${encodeURIComponent(orderReference)}&return=${encodeURIComponent(returnSecret)}`;
}

/**
 * An attempt's return secret (an HMAC-SHA-256 of the order reference and attempt under the
 * stage's order-reference key, base64url) and the hash the order keeps of it. Keyed, so nobody
 * without the key can compute it; the same for every concurrent create of one attempt, so their
 * provider calls are the same request (Stripe answers a repeated idempotency key only for the
 * same parameters) and open one checkout.
 */
export async function returnSecretOf(orderReference: string, attempt: number): Promise<{ secret: string; hash: string }> {
  const secret = createHmac('sha256', await orderReferenceKey()).update(`return-secret\u0000${orderReference}\u0000${attempt}`, 'utf8').digest('base64url');
  return { secret, hash: returnSecretHash(secret) };
}

const returnSecretHash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('base64url');

/** Whether a request's return secret is the one whose hash the attempt keeps (in constant time). */
export function isReturnSecretOf(hash: string | undefined, secret: string | undefined): boolean {
  if (!hash || !secret) return false;
  const given = Buffer.from(returnSecretHash(secret));
  const kept = Buffer.from(hash);
  return given.length === kept.length && timingSafeEqual(given, kept);
}
