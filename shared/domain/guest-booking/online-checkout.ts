/**
 * A guest's booking paid online: the chosen room held for HOLD_MINUTES (checkout-holds.ts) and the
 * client's payment order made by the service itself (no key) on the client's provider, whose
 * checkout the guest is sent to; the payment then confirms the booking through the order's
 * mirroring (mirror-paid-booking.ts). Also the record a confirmation token leads to, for either
 * way of paying.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../../config';
import { errors } from '../../errors';
import { logger } from '../../observability';
import { nightsBetween } from '../../schemas/common';
import { GUEST_ORDER_PREFIX, minorUnits } from '../../schemas/payments';
import type { GuestBookingRecord } from '../../store/guest-booking-store';
import type { CheckoutLine } from '../../payments/provider';
import type { RoomRecord } from '../../store/room-store';
import { toMinorUnits } from '../bookings/rates';
import type { StayPrice } from '../bookings/stay-price';
import { getGuestBooking } from '../../store/guest-booking-store';
import { createPaymentOrder } from '../payments/create-payment-order';
import { paidOrderBookingId } from '../payments/mirror-paid-booking';
import { orderReferenceFor } from '../payments/order-references';
import { checkoutSettingsOf, providerFor } from '../payments/providers';
import { type BookingInput, checkBookingInput, type GuestDetails, type StayQuery } from './booking-input';
import { guestRecordItems, heldByTwin, HOLD_MINUTES, holdOneOf, holdRoomForCheckout, releaseCheckoutHold } from './checkout-holds';
import { type GuestClient, guestBookingClient } from './guest-client';
import { choiceOf, roomChoice } from './room-choice';
import { sourceHash } from './source-limit';
import { submitIdentity, tokenHash } from './tokens';
import { confirmationUrl } from './urls';
import { languageOr } from '../../i18n/languages';
import { type Translate, translator } from '../../i18n/translator';

/**
 * Holds the room for HOLD_MINUTES from now and creates the client's payment order (context.type
 * room_booking, service_room_id, guests, dates; amount = total in minor units; customer = guest;
 * success_url and cancel_url = `${baseUrl}/book/${clientId}/confirmation/${token}`) on the
 * client's provider; returns the provider's checkout URL and the confirmation token.
 * Refusals: 404 NOT_FOUND (unknown client or room); 400 VALIDATION_ERROR (details paths name,
 * email, phone, attempt when it is not a UUID, plus the stay's) for bad input; 409
 * ROOM_NOT_AVAILABLE when the room is booked or held by someone else (or inactive, or too small
 * for the guests); 422 PROVIDER_NOT_CONFIGURED
 * when the client cannot take online payments (no provider, or its currency is not supported);
 * 400 INVALID_AMOUNT for a room without a price; 503 SERVICE_UNAVAILABLE when concurrent
 * bookings of the room kept winning. Nothing is held when it refuses; the hold is released when
 * the order cannot be created.
 *
 * A repeat of one attempt with the same choices, however concurrent, is the same checkout: the
 * order's partner reference, its booking, the hold and the token all follow from the attempt's
 * identity, so the repeat finds the room held for its own booking (and keeps that hold), gets
 * the existing order back from createPaymentOrder, and answers the same checkout URL and token.
 */
export async function startCheckout(clientId: string, input: BookingInput, baseUrl: string, now: Date): Promise<{ checkout_url: string; token: string }> {
  const client = await guestBookingClient(clientId);
  const { stay, guest, attempt } = checkBookingInput(input, now, client.booking_horizon_days, client.time_zone);
  if (!config().supportedCurrencies.includes(client.currency)) throw errors.onlinePaymentUnavailable(client.currency);
  const { identity, token } = await submitIdentity(clientId, 'online', { attempt, roomId: choiceOf(input), stay, guest });
  // A repeat of this submit finds its booking's room first: held for it already, nothing is written.
  const before = await getGuestBooking(tokenHash(token));
  const [chosen, settings] = await Promise.all([roomChoice(client, input, stay, now, before?.room_id), checkoutSettingsOf(clientId)]);
  const nights = nightsBetween(stay.check_in, stay.check_out);
  // Fixed now, for the whole hold: the chosen plan's total (or price x nights without plans), with the hotel's taxes.
  const { price, plan } = chosen;
  const amountMinor = toMinorUnits(price.total, client.currency);
  if (amountMinor < 1) throw errors.roomHasNoPrice(chosen.rooms[0]!.room_number);

  // The partner reference of an order the service makes for itself; the order reference (keyed
  // HMAC) and the booking its payment makes follow from it, so the hold can name that booking.
  const reference = `${GUEST_ORDER_PREFIX}${identity ?? randomUUID()}`;
  const orderReference = await orderReferenceFor(clientId, reference);
  const bookingId = paidOrderBookingId(clientId, orderReference);
  // The language the pages spoke: the checkout, the booking and its e-mails speak it.
  const t = await translator(languageOr(input.language, client.language), client.time_zone);
  const figures = { bookingId, orderReference, stay, guest, price, currency: client.currency, language: t.language, ...(chosen.room_type ? { roomType: chosen.room_type } : {}) };
  // Held as long as the checkout can be paid: HOLD_MINUTES, or the provider's shortest checkout
  // when that is later (the session is created to end exactly then).
  const holdEnds = providerFor(settings.provider).checkoutEnd(new Date(now.getTime() + HOLD_MINUTES * 60_000), now);
  const source = input.source ? await sourceHash(clientId, input.source) : undefined;
  const hold = (candidate: RoomRecord) =>
    holdRoomForCheckout(
      {
        clientId,
        room: candidate,
        bookingId,
        check_in_date: stay.check_in,
        check_out_date: stay.check_out,
        guests: stay.guests,
        expiresAt: holdEnds.toISOString(),
        ...(source ? { source } : {}),
      },
      now,
      guestRecordItems(tokenHash(token), guestBookingRecord(clientId, { ...figures, room: candidate }, now)),
    );
  const { room, held } = await holdOneOf(chosen.rooms, hold).catch((error) => heldByTwin(error, chosen.rooms, clientId));

  const returnUrl = confirmationUrl(baseUrl, clientId, token);
  try {
    const created = await createPaymentOrder(
      { clientId, origins: [] },
      {
        reference,
        amount_minor: amountMinor,
        currency: client.currency,
        customer: { name: guest.name, email: guest.email, ...(guest.phone ? { phone: guest.phone } : {}) },
        context: {
          type: 'room_booking',
          check_in_date: stay.check_in,
          check_out_date: stay.check_out,
          guests: stay.guests,
          service_room_id: room.id,
          ...(plan ? { external_rate_plan_id: plan.external_rate_plan_id } : {}),
          ...(price.taxes > 0 ? { taxes_minor: toMinorUnits(price.taxes, client.currency) } : {}),
        },
        success_url: returnUrl,
        cancel_url: returnUrl,
      },
      {
        baseUrl,
        allowHttp: config().isLocal,
        // What the guest sees on the provider's page: the hotel and the stay, never our reference.
        checkout: { expiresAt: holdEnds, ...checkoutLines(t, client, room, stay, nights, price), language: t.language },
      },
      now,
    );
    return { checkout_url: created.body.checkout_url, token };
  } catch (error) {
    // A repeat leaves the hold to the submit that made it, whose checkout may be open.
    if (!held) throw error;
    logger.warn('the guest checkout could not be opened; releasing its room hold', { client_id: clientId, room_id: room.id, order_reference: orderReference });
    await releaseCheckoutHold(clientId, room.id, bookingId, now);
    throw error;
  }
}

/**
 * What the guest sees on the provider's page: the hotel and the stay (never our reference), as
 * one line, or the room and its taxes as two where taxes are added (their sum is the amount).
 */
function checkoutLines(t: Translate, client: GuestClient, room: RoomRecord, stay: StayQuery, nights: number, price: StayPrice): { description: string; lines?: CheckoutLine[] } {
  const description = t('checkout.description', { hotel: client.name, number: room.room_number, nights, checkIn: t.day(stay.check_in), checkOut: t.day(stay.check_out) });
  const percent = t.count(price.percent);
  if (price.taxes <= 0) return { description };
  if (price.included) return { description: `${description} (${t('price.taxesIncluded', { percent })}: ${t.money(price.taxes, client.currency)})` };
  return {
    description,
    lines: [
      { name: description, amountMinor: toMinorUnits(price.room, client.currency) },
      { name: t('price.taxes', { percent }), amountMinor: toMinorUnits(price.taxes, client.currency) },
    ],
  };
}

/** What a confirmation token leads to: paid online (with the order that makes the booking) or at the property. */
export function guestBookingRecord(
  clientId: string,
  b: { bookingId: string; orderReference?: string; room: { id: string; room_number: string }; roomType?: string; stay: StayQuery; guest: GuestDetails; price: StayPrice; currency: string; language: string },
  now: Date,
): GuestBookingRecord {
  return {
    client_id: clientId,
    booking_id: b.bookingId,
    ...(b.orderReference ? { order_reference: b.orderReference, payment: 'online' as const } : { payment: 'at_property' as const }),
    room_id: b.room.id,
    room_number: b.room.room_number,
    ...(b.roomType !== undefined ? { room_type: b.roomType } : {}),
    check_in_date: b.stay.check_in,
    check_out_date: b.stay.check_out,
    guests: b.stay.guests,
    guest_name: b.guest.name,
    language: b.language,
    total: b.price.total,
    ...(b.price.taxes > 0 ? { taxes: b.price.taxes, taxes_included: b.price.included, tax_percent: b.price.percent } : {}),
    currency: b.currency,
    created_at: now.toISOString(),
  };
}
