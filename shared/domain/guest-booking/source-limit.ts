/**
 * At most MAX_OPEN_HOLDS_PER_SOURCE open checkout holds per source address per client
 * (docs/behaviour.md "Guest booking and the reception QR code", Abuse): one address cannot hold every
 * room of a hotel. The source's holds are one item (`GUESTSOURCE#`), written in the hold's own
 * transaction under a version condition, so two tabs racing for a 4th hold cannot both win.
 *
 * A hold counts while it is open: not expired, and still on its room's hold item (a checkout that
 * was paid, cancelled, failed or expired left it). So at most three room hold items are read,
 * however many holds the address ever opened.
 *
 * The address is kept only as a keyed hash (HMAC-SHA-256 under the order-reference key): the
 * table never holds a guest's IP address. IPv6 addresses count per /64 (../../net/source-block.ts).
 */
import { createHmac } from 'node:crypto';
import { errors } from '../../errors';
import { sourceBlock } from '../../net/source-block';
import { orderReferenceKey } from '../../secrets/order-reference-key';
import { getSourceHolds, type SourceHold, sourceHoldsPutItem } from '../../store/guest-booking-store';
import { getRoomHolds } from '../../store/service-booking-store';
import type { TransactItem } from '../../store/transactions';
import { holdExpired } from '../bookings/service-bookings';

export const MAX_OPEN_HOLDS_PER_SOURCE = 3;

/** The keyed hash a source address is kept as. */
export async function sourceHash(clientId: string, address: string): Promise<string> {
  return createHmac('sha256', await orderReferenceKey())
    .update(`guest-source\u0000${clientId}\u0000${sourceBlock(address)}`, 'utf8')
    .digest('base64url')
    .slice(0, 32);
}

/** Still holding its room at `now`. */
async function stillOpen(clientId: string, hold: SourceHold, now: Date): Promise<boolean> {
  if (hold.expires_at <= now.toISOString()) return false;
  const room = await getRoomHolds(clientId, hold.room_id);
  return room.holds.some((h) => h.booking_id === hold.booking_id && h.expires_at !== undefined && !holdExpired(h, now));
}

/**
 * The write that records one more open hold for the source, to commit with the hold; 429
 * RATE_LIMITED (with Retry-After: until its first hold ends) when the source has
 * MAX_OPEN_HOLDS_PER_SOURCE open already. A hold of the same booking (a repeated submit) is not
 * counted twice.
 */
export async function sourceHoldItem(
  clientId: string,
  source: string,
  hold: { bookingId: string; roomId: string; expiresAt: string },
  now: Date,
): Promise<TransactItem> {
  const read = await getSourceHolds(clientId, source);
  const others = read.holds.filter((h) => h.booking_id !== hold.bookingId);
  const open = (await Promise.all(others.map(async (h) => ((await stillOpen(clientId, h, now)) ? h : undefined)))).filter((h) => h !== undefined);
  if (open.length >= MAX_OPEN_HOLDS_PER_SOURCE) {
    const firstEnd = Math.min(...open.map((h) => Date.parse(h.expires_at)));
    const seconds = Math.max(1, Math.ceil((firstEnd - now.getTime()) / 1000));
    throw errors.tooManyOpenHolds(open.length, seconds);
  }
  return sourceHoldsPutItem(clientId, source, [...open, { booking_id: hold.bookingId, room_id: hold.roomId, expires_at: hold.expiresAt }], read.version);
}
