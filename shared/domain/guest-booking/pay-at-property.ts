/**
 * Pay at the hotel (docs/behaviour.md "Guest booking and the reception QR code"): the booking stays
 * pending, its room held for HOLD_MINUTES like an open checkout's, until the guest opens the link
 * of the "Confirm your booking" e-mail and presses its button. Only then is it a booking
 * (confirmed, unpaid) that the PMS hears of (`booking.confirmed`, its delivery written with it)
 * and the guest gets its confirmation e-mail. Unconfirmed when its hold ends, it is cancelled:
 * no booking and no delivery were ever written, so nothing reaches the PMS.
 *
 * Two secrets: the confirmation token of the booking's page, which the guest's browser has from
 * the form, and the e-mail link's secret, which only the e-mail carries, so confirming shows the
 * guest reads that address. The token is an HMAC of the link's secret under the stage's
 * order-reference key: the link leads to its booking with no record of its own, and neither the
 * token nor anything in the table leads to the link.
 *
 * DynamoDB access (guestBookingTableAccess):
 * - bookPayAtProperty: GetItem (client, room, the guest booking of a repeated form, room hold,
 *   the source address's holds and their rooms' holds, the e-mail address's recent "Confirm
 *   your booking" e-mails); Query gsi2 (the room's active stays); PutItem (transaction: room
 *   hold, checkout-hold marker, the source's holds, guest booking, the e-mail and its address's
 *   count); UpdateItem (the e-mail once tried); the order-reference key.
 * - payAtPropertyLink: GetItem (guest booking, booking).
 * - confirmPayAtProperty: GetItem (client, callback endpoint, guest booking, booking, room, room
 *   hold); Query gsi2; PutItem and UpdateItem (transaction: booking, booking-client pointer, room
 *   hold, delivery, the guest booking's status, the confirmation e-mail); UpdateItem (the
 *   delivery once enqueued, the e-mail once tried) and SQS SendMessage (`enqueuesCallbacks`).
 */
import { AppError, errors } from '../../errors';
import { bookingConfirmationEmail, confirmYourBookingEmail } from '../../guest/emails';
import { nameBasedId, newId } from '../../ids';
import { getEndpoint } from '../../store/endpoint-store';
import { getGuestBooking, type GuestBookingRecord, guestBookingConfirmItem } from '../../store/guest-booking-store';
import { isConditionFailure } from '../../store/items';
import { getBooking } from '../../store/booking-store';
import { transactWrite } from '../../store/transactions';
import type { EmailRecord } from '../../store/email-store';
import type { RoomRecord } from '../../store/room-store';
import { type BookingPlan, dispatchAll, planServiceBooking } from '../bookings/service-bookings';
import { guestEmailItem, newGuestEmail, sendCommittedEmails } from '../guest-email/outbox';
import { withConcurrencyRetry } from '../property-sync/results';
import { type BookingInput, checkBookingInput } from './booking-input';
import { guestBookingPage, type GuestBookingView } from './booking-views';
import { guestRecordItems, heldByTwin, HOLD_MINUTES, holdOneOf, holdRoomForCheckout } from './checkout-holds';
import { confirmEmailItem } from './confirm-email-limit';
import { guestBookingClient } from './guest-client';
import { choiceOf, roomChoice } from './room-choice';
import { confirmationTerms } from './confirmation-terms';
import { stayTotal } from '../bookings/rates';
import { guestBookingRecord } from './online-checkout';
import { sourceHash } from './source-limit';
import { attemptIdentity, linkSecretOf, TOKEN, tokenHash, tokenOfLink, UUID } from './tokens';
import { confirmationUrl, confirmLinkUrl } from './urls';
import { languageOr } from '../../i18n/languages';
import { translator } from '../../i18n/translator';

/**
 * A booking to pay at the hotel (only where the client enabled it and the stage sends e-mail,
 * else 403 AppError PAY_AT_PROPERTY_DISABLED): holds the room for HOLD_MINUTES, writes the
 * pending booking's record and the "Confirm your booking" e-mail with it, then sends the e-mail.
 * Returns the booking page's token (it shows "Check your e-mail to confirm" meanwhile). Refusals
 * as startCheckout's: 404, 400 VALIDATION_ERROR, 409 ROOM_NOT_AVAILABLE (booked, or held by
 * another guest), 429 RATE_LIMITED (the guest's source address holds too many rooms already, or
 * the e-mail address was sent 3 "Confirm your booking" e-mails in the last hour: path `email`). A repeat of one attempt with the same choices, however concurrent, is the same
 * booking: it answers the same token and writes nothing, whatever became of the booking.
 */
export async function bookPayAtProperty(clientId: string, input: BookingInput, baseUrl: string, now: Date): Promise<{ token: string }> {
  const client = await guestBookingClient(clientId);
  if (!client.pay_at_property) throw errors.payAtPropertyDisabled();
  const { stay, guest, attempt } = checkBookingInput(input, now, client.booking_horizon_days, client.time_zone);
  const identity = attempt ? attemptIdentity(clientId, attempt, choiceOf(input), stay, guest) : undefined;
  const secret = await linkSecretOf(identity);
  const token = await tokenOfLink(secret);
  // A repeat (a double click, a resubmit) is the booking its first submit made: no search, no write.
  if (identity && (await getGuestBooking(tokenHash(token)))) return { token };
  const chosen = await roomChoice(client, input, stay, now);
  const { price } = chosen;

  const bookingId = identity ? nameBasedId(clientId, 'guest-booking', identity) : newId();
  // The language the pages spoke: the booking and its e-mails speak it.
  const t = await translator(languageOr(input.language, client.language), client.time_zone);
  // Its hold counts toward the guest's open holds, as a checkout's does (source-limit.ts).
  const source = input.source ? await sourceHash(clientId, input.source) : undefined;
  const holdEnds = new Date(now.getTime() + HOLD_MINUTES * 60_000).toISOString();
  // The record and the e-mail name the room the hold takes: made for each room tried.
  const made = (room: RoomRecord) => {
    const record: GuestBookingRecord = {
      ...guestBookingRecord(clientId, { bookingId, room, ...(chosen.room_type ? { roomType: chosen.room_type } : {}), stay, guest, price, currency: client.currency, language: t.language }, now),
      status: 'pending',
      hold_expires_at: holdEnds,
      guest_email: guest.email,
      ...(guest.phone ? { guest_phone: guest.phone } : {}),
    };
    const email = newGuestEmail({
      clientId,
      bookingId,
      kind: 'confirm_booking',
      to: guest.email,
      fromName: client.name,
      contact: { of: client, words: t },
      message: confirmYourBookingEmail(t, {
        hotel: client.name,
        guestName: guest.name,
        checkIn: stay.check_in,
        checkOut: stay.check_out,
        guests: stay.guests,
        roomType: room.room_type,
        roomNumber: room.room_number,
        total: price.total,
        currency: client.currency,
        link: confirmLinkUrl(baseUrl, clientId, secret),
        confirmBy: holdEnds,
      }),
      now,
      sendBefore: holdEnds,
    });
    return { record, email };
  };
  const emails = new Map<string, EmailRecord>();
  const { room, held } = await holdOneOf(chosen.rooms, (candidate) => {
    const { record, email } = made(candidate);
    emails.set(candidate.id, email);
    const recordItems = guestRecordItems(tokenHash(token), record);
    return holdRoomForCheckout(
      { clientId, room: candidate, bookingId, check_in_date: stay.check_in, check_out_date: stay.check_out, guests: stay.guests, expiresAt: holdEnds, ...(source ? { source } : {}) },
      now,
      async () => [...(await recordItems()), guestEmailItem(email), await confirmEmailItem(guest.email, now)],
    );
  }).catch((error) => heldByTwin(error, chosen.rooms, clientId));
  // Not held here: a concurrent twin of this submit wrote the hold, the record and the e-mail, and it sends it.
  if (held) await sendCommittedEmails([emails.get(room.id)!]);
  return { token };
}

/**
 * What an e-mail link leads to: the booking page's token and the booking as its page shows it;
 * undefined for an unknown or malformed link, or another client's.
 */
export async function payAtPropertyLink(clientId: string, secret: string, now: Date): Promise<{ token: string; view: GuestBookingView; language?: string } | undefined> {
  if (typeof secret !== 'string' || !TOKEN.test(secret) || !UUID.test(clientId)) return undefined;
  const token = await tokenOfLink(secret);
  const page = await guestBookingPage(clientId, token, now);
  return page ? { token, view: page.view, ...(page.language ? { language: page.language } : {}) } : undefined;
}

export type PayAtPropertyOutcome = 'confirmed' | 'ended' | 'room_taken';

/**
 * The guest confirmed with the e-mail's link (the button of its page, a POST). Before the hold
 * ends: the booking is written, confirmed and unpaid (origin `reception`, payment_method
 * `pay_at_property`, total_amount = the stay's total), with its booking.confirmed delivery and
 * the confirmation e-mail, in one transaction with the pending record's change; then the delivery
 * is queued and the e-mail sent. `ended`: the hold had ended, the booking is cancelled;
 * `room_taken`: the room cannot be booked after all (made inactive, or a PMS booking overlaps).
 * Confirming again, however concurrent, is `confirmed` and writes nothing. Undefined for an
 * unknown link or another client's.
 */
export async function confirmPayAtProperty(
  clientId: string,
  secret: string,
  baseUrl: string,
  now: Date,
): Promise<{ token: string; outcome: PayAtPropertyOutcome } | undefined> {
  if (typeof secret !== 'string' || !TOKEN.test(secret) || !UUID.test(clientId)) return undefined;
  const token = await tokenOfLink(secret);
  const hash = tokenHash(token);
  const [client, endpoint] = await Promise.all([guestBookingClient(clientId), getEndpoint(clientId, 'callback')]);
  let committed: { plan: BookingPlan; email: ReturnType<typeof newGuestEmail> } | undefined;
  let outcome: PayAtPropertyOutcome | undefined;
  let bookingId: string | undefined;
  try {
    outcome = await withConcurrencyRetry(async () => {
      const record = await getGuestBooking(hash);
      if (!record || record.client_id !== clientId || record.payment !== 'at_property') return undefined;
      bookingId = record.booking_id;
      if (record.status !== 'pending' || (await getBooking(clientId, record.booking_id))) return 'confirmed';
      if (!record.hold_expires_at || record.hold_expires_at <= now.toISOString()) return 'ended';
      const plan = await planServiceBooking(
        clientId,
        {
          origin: 'reception',
          roomId: record.room_id,
          requireRoom: true,
          guest_name: record.guest_name,
          guest_email: record.guest_email,
          guest_phone: record.guest_phone,
          ...(record.language ? { language: record.language } : {}),
          guests: record.guests,
          check_in_date: record.check_in_date,
          check_out_date: record.check_out_date,
          // The room revenue (reports): what the guest pays less its taxes.
          total_amount: stayTotal(record.total - (record.taxes ?? 0), 1, record.currency),
          ...(record.taxes ? { taxes_amount: record.taxes } : {}),
          payment_status: 'unpaid',
          payment_method: 'pay_at_property',
          bookingId: record.booking_id,
        },
        endpoint,
        now,
      );
      const { booking, room } = plan.result;
      const words = await translator(languageOr(record.language, client.language), client.time_zone);
      const email = newGuestEmail({
        clientId,
        bookingId: booking.id,
        kind: 'booking_confirmation',
        to: record.guest_email ?? '',
        fromName: client.name,
        contact: { of: client, words },
        message: bookingConfirmationEmail(words, {
          hotel: client.name,
          guestName: record.guest_name,
          checkIn: record.check_in_date,
          checkOut: record.check_out_date,
          guests: record.guests,
          roomType: room?.room_type ?? '',
          roomNumber: room?.room_number ?? record.room_number,
          total: record.total,
          currency: record.currency,
          bookingReference: booking.booking_reference ?? '',
          confirmationCode: booking.confirmation_code ?? '',
          paid: false,
          link: confirmationUrl(baseUrl, clientId, token),
          checkInTime: client.check_in_time,
          address: client.address,
          ...confirmationTerms(client, record),
        }),
        now,
      });
      await transactWrite([...plan.items, guestBookingConfirmItem(hash, record.booking_id, now.toISOString()), guestEmailItem(email)]);
      committed = { plan, email };
      return 'confirmed';
    }, 10);
  } catch (error) {
    // A concurrent confirmation committed between this one's reads: the room is taken by this very booking.
    if (error instanceof AppError && error.status === 409) outcome = bookingId && (await getBooking(clientId, bookingId)) ? 'confirmed' : 'room_taken';
    else if (isConditionFailure(error)) throw errors.serviceUnavailable();
    else throw error;
  }
  if (!outcome) return undefined;
  if (committed) {
    await dispatchAll(committed.plan.deliveries);
    await sendCommittedEmails([committed.email]);
  }
  return { token, outcome };
}
