/**
 * A paid room-booking order becomes a confirmed service booking (docs/behaviour.md "Payment orders",
 * mirroring), planned here so that it commits in the same transaction that marks the order paid.
 */
import { bookingConfirmationEmail } from '../../guest/emails';
import { languageOr } from '../../i18n/languages';
import { translator } from '../../i18n/translator';
import { nameBasedId } from '../../ids';
import { addDays, MAX_STAY_NIGHTS, nightsBetween } from '../../schemas/common';
import { majorAmount } from '../../schemas/payments';
import { getClient } from '../../store/api-key-store';
import type { EmailRecord } from '../../store/email-store';
import { getEndpoint } from '../../store/endpoint-store';
import type { BookingSync, PaymentOrderRecord } from '../../store/payment-store';
import { getRoom } from '../../store/service-booking-store';
import { clientSettingsOf, timeZoneOf } from '../client-settings';
import { stayTotal, toMinorUnits } from '../bookings/rates';
import { revenueMinor, stayPrice } from '../bookings/stay-price';
import { chosenPlan, roomStayPlans } from '../rates/room-rates';
import { type BookingPlan, planServiceBooking } from '../bookings/service-bookings';
import { emailEnabled, newGuestEmail } from '../guest-email/outbox';
import { isGuestPageOrder } from '../../schemas/payments';
import { confirmationTerms } from '../guest-booking/confirmation-terms';

export interface MirroredBooking {
  plan: Pick<BookingPlan, 'items' | 'deliveries' | 'result'>;
  bookingSync: BookingSync;
}

/**
 * The id of the one booking an order of the client makes when paid, however often it is settled:
 * known before payment, so a guest's checkout can hold its room for exactly that booking.
 */
export function paidOrderBookingId(clientId: string, orderReference: string): string {
  return nameBasedId(clientId, 'order-booking', orderReference);
}

/**
 * The rate check (docs/behaviour.md "Payment orders", "Rates and restrictions per date"): the
 * stay's total in the client's currency on the rate plan the order's context names, else on the
 * cheapest bookable plan of the room's category, else the room's price x nights; and whether the
 * order paid less than that, or in another currency. An order that names no known room has no
 * rate to fall below, unless it paid in another currency.
 */
async function rateCheck(order: PaymentOrderRecord, checkIn: string, checkOut: string) {
  const roomId = order.context?.service_room_id;
  const [client, room] = await Promise.all([getClient(order.client_id), roomId ? getRoom(order.client_id, roomId) : undefined]);
  const currency = client?.currency ?? order.currency;
  const nights = Math.min(nightsBetween(checkIn, checkOut), MAX_STAY_NIGHTS);
  const plan = room ? chosenPlan(await roomStayPlans(order.client_id, room, checkIn, addDays(checkIn, nights)), order.context?.external_rate_plan_id) : undefined;
  const rate_total = plan ? stayTotal(plan.total, 1, currency) : room ? stayTotal(room.price, nights, currency) : null;
  // Room revenue against room revenue: the order's without the taxes it says it carries, the rate's without the client's taxes.
  const rateRevenue = rate_total === null || !client ? rate_total : stayPrice(rate_total, clientSettingsOf(client), currency).revenue;
  const below_rate = order.currency !== currency || (rateRevenue !== null && revenueMinor(order) < toMinorUnits(rateRevenue, currency));
  return { rate: { rate_total, below_rate }, manual: below_rate && client !== undefined && clientSettingsOf(client).below_rate_orders === 'manual' };
}

/**
 * The booking a paid order makes, or undefined when the order is not a room booking with dates.
 * A room held for this order's booking (a guest's checkout, docs/behaviour.md "Guest booking and the reception QR code") is its
 * own: locked if the room is otherwise free, even after the hold expired; taken by someone else
 * meanwhile, the booking is recorded for manual assignment. Paid below the room's rate (or in
 * another currency), the booking says `below_rate`, and the client's `below_rate_orders` setting
 * decides: `lock` as any paid booking, `manual` recorded for manual assignment.
 */
export async function planPaidBooking(order: PaymentOrderRecord, now: Date): Promise<MirroredBooking | undefined> {
  const context = order.context;
  if (context?.type !== 'room_booking' || !context.check_in_date || !context.check_out_date) return undefined;
  const { rate, manual } = await rateCheck(order, context.check_in_date, context.check_out_date);
  const plan = await planServiceBooking(
    order.client_id,
    {
      origin: 'payment',
      roomId: context.service_room_id,
      requireRoom: false,
      guest_name: order.customer.name ?? order.customer.email,
      guest_email: order.customer.email,
      guest_phone: order.customer.phone,
      guests: context.guests ?? 1,
      check_in_date: context.check_in_date,
      check_out_date: context.check_out_date,
      // The room revenue (reports): what was paid less its taxes.
      total_amount: majorAmount(revenueMinor(order), order.currency),
      ...(order.context?.taxes_minor ? { taxes_amount: majorAmount(order.context.taxes_minor, order.currency) } : {}),
      payment_status: 'paid',
      payment_method: order.provider,
      ...(order.language ? { language: order.language } : {}),
      gateway_reference: order.provider_reference,
      paymentOrderReference: order.order_reference,
      // One booking per order, however often the order is settled.
      bookingId: paidOrderBookingId(order.client_id, order.order_reference),
      rate,
      ...(manual ? { manualReason: 'below_rate' as const } : {}),
    },
    await getEndpoint(order.client_id, 'callback'),
    now,
  );
  const { booking, room, room_assignment } = plan.result;
  return {
    plan,
    bookingSync: {
      status: 'synced',
      booking_id: booking.id,
      booking_reference: booking.booking_reference ?? null,
      confirmation_code: booking.confirmation_code ?? null,
      room_id: room?.id ?? null,
      room_assignment,
      below_rate: rate.below_rate,
      room_assignment_reason: booking.room_assignment_reason ?? null,
    },
  };
}

/**
 * The confirmation e-mail of a guest's paid booking (docs/behaviour.md "Guest booking and the reception QR code": every
 * confirmed guest booking gets one), to commit with it; undefined for a partner's order (its
 * guest hears from the partner) and in a stage that sends no e-mail. Its link is the order's
 * return URL: the guest's confirmation page.
 */
export async function paidGuestBookingEmail(order: PaymentOrderRecord, mirrored: MirroredBooking, now: Date): Promise<EmailRecord | undefined> {
  if (!isGuestPageOrder(order) || !emailEnabled()) return undefined;
  const { booking, room } = mirrored.plan.result;
  const chosen = room ?? (order.context?.service_room_id ? await getRoom(order.client_id, order.context.service_room_id) : undefined);
  const client = await getClient(order.client_id);
  const hotel = client?.name ?? '';
  const settings = client ? clientSettingsOf(client) : undefined;
  const { check_in_time: checkInTime, address } = settings ?? { check_in_time: null, address: null };
  const taxes = order.context?.taxes_minor ? majorAmount(order.context.taxes_minor, order.currency) : undefined;
  const words = await translator(languageOr(order.language, client?.language), client ? timeZoneOf(client) : 'UTC');
  return newGuestEmail({
    clientId: order.client_id,
    bookingId: booking.id,
    kind: 'booking_confirmation',
    to: order.customer.email,
    fromName: hotel,
    ...(settings ? { contact: { of: settings, words } } : {}),
    message: bookingConfirmationEmail(words, {
      hotel,
      guestName: booking.guest_name,
      checkIn: booking.check_in_date,
      checkOut: booking.check_out_date,
      guests: booking.guests,
      roomType: chosen?.room_type ?? '',
      // A room taken meanwhile: the booking awaits one from the hotel.
      roomNumber: room?.room_number ?? null,
      total: majorAmount(order.amount_minor, order.currency),
      currency: order.currency,
      bookingReference: booking.booking_reference ?? '',
      confirmationCode: booking.confirmation_code ?? '',
      paid: true,
      link: order.success_url,
      checkInTime,
      address,
      ...(settings
        ? confirmationTerms(
            { ...settings, check_in_time: settings.check_in_time ?? undefined, cancellation_policy: settings.cancellation_policy ?? undefined },
            { check_in_date: booking.check_in_date, ...(taxes ? { taxes, taxes_included: settings.taxes_included === true, tax_percent: settings.tax_percent } : {}) },
          )
        : {}),
    }),
    now,
  });
}
