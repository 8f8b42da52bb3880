/**
 * At most MAX_CONFIRM_EMAILS_PER_HOUR "Confirm your booking" e-mails an hour to one address
 * (docs/reliability.md "Only the guest holds a guest's booking"): the pay-at-the-hotel form sends the
 * hotel's e-mail to any address typed into it. The times of the address's last e-mails are one
 * item, written in the pending booking's own transaction under a version condition, so two
 * bookings racing for a 4th e-mail cannot both win, and a refused booking counts nothing.
 *
 * The address is kept only as a keyed hash (HMAC-SHA-256 under the order-reference key), of the
 * address as compared (trimmed, lower case).
 */
import { createHmac } from 'node:crypto';
import { errors } from '../../errors';
import { orderReferenceKey } from '../../secrets/order-reference-key';
import { confirmEmailsToPutItem, getConfirmEmailsTo } from '../../store/email-store';
import type { TransactItem } from '../../store/transactions';

export const MAX_CONFIRM_EMAILS_PER_HOUR = 3;
const HOUR_MS = 3_600_000;

async function addressHash(address: string): Promise<string> {
  return createHmac('sha256', await orderReferenceKey())
    .update(`guest-confirm-emails\u0000${address.trim().toLowerCase()}`, 'utf8')
    .digest('base64url')
    .slice(0, 32);
}

/**
 * The write that records one more "Confirm your booking" e-mail to `address` at `now`, to commit
 * with the e-mail; 429 RATE_LIMITED (path `email`, with Retry-After: until the oldest of the
 * hour's e-mails is an hour old) when the address had MAX_CONFIRM_EMAILS_PER_HOUR in the hour.
 */
export async function confirmEmailItem(address: string, now: Date): Promise<TransactItem> {
  const hash = await addressHash(address);
  const read = await getConfirmEmailsTo(hash);
  const recent = read.sentAt.filter((at) => Date.parse(at) > now.getTime() - HOUR_MS);
  if (recent.length >= MAX_CONFIRM_EMAILS_PER_HOUR) {
    const oldest = Math.min(...recent.map((at) => Date.parse(at)));
    throw errors.tooManyConfirmEmails(MAX_CONFIRM_EMAILS_PER_HOUR, Math.max(1, Math.ceil((oldest + HOUR_MS - now.getTime()) / 1000)));
  }
  return confirmEmailsToPutItem(hash, [...recent, now.toISOString()], read.version, new Date(now.getTime() + HOUR_MS).toISOString());
}
