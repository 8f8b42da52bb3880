/**
 * The guest booking's secrets and what makes two submits the same booking: the confirmation
 * token of a booking's page (random, or an HMAC of the form's attempt under the stage's
 * order-reference key), the "Confirm your booking" e-mail link's secret and the token it leads
 * to, and the SHA-256 the table keeps of a token instead of the token itself.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { orderReferenceKey } from '../../secrets/order-reference-key';
import type { GuestBookingRecord } from '../../store/guest-booking-store';
import type { GuestDetails, StayQuery } from './booking-input';

/** Client, room and attempt ids are UUIDs the service minted: anything else is answered without a read. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** 32 random bytes, base64url without padding. */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newToken = () => randomBytes(32).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');

/** A keyed HMAC-SHA-256 (base64url) under the stage's order-reference key. */
const hmac = async (message: string) => createHmac('sha256', await orderReferenceKey()).update(message, 'utf8').digest('base64url');

/**
 * What makes two submits the same booking: the form's attempt id and every choice on it (the
 * hotel, room, stay and the guest's details as checked). A double click or a browser's resubmit
 * of one form gives the same identity, so it lands on the same order or booking; the guest going
 * back and changing anything gives another. 32 hex characters of a SHA-256.
 */
export function attemptIdentity(clientId: string, attempt: string, roomId: string, stay: StayQuery, guest: GuestDetails): string {
  const choices = [clientId, attempt, roomId, stay.check_in, stay.check_out, stay.guests, guest.name, guest.email, guest.phone ?? null];
  return createHash('sha256').update(JSON.stringify(choices), 'utf8').digest('hex').slice(0, 32);
}

/**
 * A submit's identity and confirmation token. With the form's attempt id, both are the same for
 * every submit of it: the identity as attemptIdentity, the token an HMAC of it under the stage's
 * order-reference key (32 bytes, base64url, as a random token), so only the guest who got it can
 * use it, and nobody can derive it from the attempt or the order's reference. Without one (a form
 * rendered before the field existed): no identity and a random token.
 */
export async function submitIdentity(
  clientId: string,
  payment: GuestBookingRecord['payment'],
  choices: { attempt?: string; roomId: string; stay: StayQuery; guest: GuestDetails },
): Promise<{ identity?: string; token: string }> {
  if (!choices.attempt) return { token: newToken() };
  const identity = attemptIdentity(clientId, choices.attempt, choices.roomId, choices.stay, choices.guest);
  const token = await hmac(`guest-confirmation\u0000${payment}\u0000${identity}`);
  return { identity, token };
}

/**
 * The e-mail link's secret of a booking paid at the hotel: for a form with an attempt id, an HMAC
 * of the attempt's identity (a repeated submit of the form is the same booking, with the same
 * link); else 32 random bytes.
 */
export const linkSecretOf = async (identity: string | undefined) => (identity ? hmac(`guest-email-link\u0000${identity}`) : newToken());

/**
 * The booking page's token of an e-mail link's secret: the link leads to its booking with no
 * record of its own, and neither the token nor anything in the table leads to the link.
 */
export const tokenOfLink = (secret: string) => hmac(`guest-confirmation\u0000at_property\u0000${secret}`);
