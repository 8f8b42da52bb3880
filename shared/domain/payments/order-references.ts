/**
 * Order references and the URLs built from them. A reference is derived from the client and the
 * partner's reference with a keyed HMAC: concurrent creates of one partner reference compute the
 * same order reference (and so open one provider checkout), while nobody without the stage's key
 * can compute, guess or probe another order's reference.
 */
import { createHmac } from 'node:crypto';
import { orderReferenceKey } from '../../secrets/order-reference-key';

const REF_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export async function orderReferenceFor(clientId: string, reference: string): Promise<string> {
  const digest = createHmac('sha256', await orderReferenceKey()).update(`${clientId}\u0000${reference}`).digest();
  // 32 divides 256: every character is uniform. 12 characters carry 60 bits.
  return `PO-${Array.from(digest.subarray(0, 12), (byte) => REF_ALPHABET[byte % REF_ALPHABET.length]).join('')}`;
}

export function providerReturnUrl(baseUrl: string, orderReference: string): string {
  return `${baseUrl}/api/v1/payments/payment-orders/verify?reference=${encodeURIComponent(orderReference)}`;
}
