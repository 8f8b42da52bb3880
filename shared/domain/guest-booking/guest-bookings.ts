/**
 * The guest booking page's use cases (docs/behaviour.md "Guest booking and the reception QR code"):
 * a walk-in or web guest searches a client's free rooms, books one and pays on the client's
 * provider checkout (a payment order of the client, made by the service itself, no key), or pays
 * at the property where the client allows it. Every business rule is here; the pages only render.
 *
 * The chosen room is held for HOLD_MINUTES from the moment the checkout opens (checkout-holds.ts):
 * not offered to anyone else meanwhile, freed by expiry (or at once when the checkout is
 * cancelled or fails); the payment then confirms the booking through the order's mirroring
 * (mirror-paid-booking.ts), locked to the room, or recorded for manual assignment when the room
 * was taken after the hold expired.
 *
 * DynamoDB access of each function (declare the union for the function serving the pages,
 * `guestBookingTableAccess` in ./table-access.ts; docs/data-model.md patterns 33 to 36):
 * - guestBookingClient: GetItem (the client's profile).
 * - checkStay: none.
 * - searchRooms: GetItem (client); Query on the table (rooms, categories (twice: availability's,
 *   and their descriptions and amenities), open checkout holds); Query gsi1 (the client's active
 *   stays).
 * - startCheckout: GetItem (client, provider settings, room, room hold, order-reference guard);
 *   Query gsi2 (the room's active stays); PutItem (transaction: room hold, checkout-hold marker,
 *   guest booking; the sandbox session; transaction: order, reference guard, first attempt);
 *   when the order cannot be created, PutItem and UpdateItem (transaction releasing the hold).
 *   A repeated submit of a form finds its own hold and writes none; its order is the existing one.
 *   Also the order-reference key (`orderReferenceKey`: order references, and the tokens of
 *   forms with an attempt id) and, for Stripe, `stripeSecretKey`.
 * - Pay at the hotel (bookPayAtProperty, confirmPayAtProperty): ./pay-at-property.ts lists theirs.
 * - guestBookingOf, guestBookingPage: GetItem (guest booking, booking, order, and the room when
 *   the booking was given another room than the one chosen). The page's "Try again" reads the
 *   room's availability as searchRooms does.
 * - setPayAtProperty: UpdateItem (the client's profile, in its configuration partition; a profile
 *   only at its legacy key is copied there first: GetItem, PutItem).
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { config } from '../../config';
import { AppError, type ErrorDetail, errors } from '../../errors';
import { logger } from '../../observability';
import { addDays, email as emailSchema, isCalendarDate, nightsBetween, phone as phoneSchema } from '../../schemas/common';
import { clientSettingsOf, DEFAULT_BOOKING_HORIZON_DAYS, DEFAULT_TIME_ZONE, timeZoneOf } from '../client-settings';
import { hotelClock } from '../hotel-time';
import { minorUnits } from '../../schemas/payments';
import { orderReferenceKey } from '../../secrets/order-reference-key';
import { getClient } from '../../store/api-key-store';
import { getGuestBooking, type GuestBookingRecord, guestBookingPutItem, putPayAtProperty } from '../../store/guest-booking-store';
import { getOrder } from '../../store/payment-store';
import { getBooking, listCategories, type RoomRecord } from '../../store/property-store';
import { getRoom } from '../../store/service-booking-store';
import { stayTotal } from '../bookings/rates';
import { createPaymentOrder } from '../payments/create-payment-order';
import { paidOrderBookingId } from '../payments/mirror-paid-booking';
import { orderReferenceFor } from '../payments/order-references';
import { checkoutSettingsOf } from '../payments/providers';
import { byRoomNumber, findAvailableRooms } from '../property-sync/availability';
import { emailEnabled } from '../guest-email/outbox';
import { holdRoomForCheckout, releaseCheckoutHold } from './checkout-holds';
import { sourceHash } from './source-limit';

/**
 * As long as the checkout can be paid: Stripe's shortest Checkout Session `expires_at` (30
 * minutes after creation). The session is created to expire at the hold's end, the sandbox's too.
 */
export const HOLD_MINUTES = 30;
export const MAX_GUEST_NIGHTS = 30;
/** Guests in one booking: the API's count limit (docs/behaviour.md "Conventions"). */
const MAX_GUESTS = 10_000;
const MAX_NAME_LENGTH = 200;

export interface StayQuery {
  check_in: string;
  check_out: string;
  guests: number;
}

export interface GuestDetails {
  name: string;
  email: string;
  phone?: string;
}

export interface GuestClient {
  client_id: string;
  name: string;
  currency: string;
  pay_at_property: boolean;
  /** Check-in at most this many days after today (client setting, default 365). */
  booking_horizon_days: number;
  /** The hotel's time zone (client setting, default UTC): its today is the date there. */
  time_zone: string;
  /**
   * What the pages tell guests, where the hotel has said it (client settings; absent: not said):
   * whether its prices include taxes, its cancellation policy, its check-in time ("HH:MM") and
   * its address.
   */
  taxes_included?: boolean;
  cancellation_policy?: string;
  check_in_time?: string;
  address?: string;
}

export interface GuestBookingView {
  /**
   * Paid online: `awaiting_payment` until the order is paid (`confirmed`) or its checkout ends
   * (`payment_failed`). Paid at the hotel: `awaiting_confirmation` until the guest confirms with
   * the e-mail's link (`confirmed`), or its hold ends first (`cancelled`).
   */
  state: 'confirmed' | 'awaiting_payment' | 'payment_failed' | 'awaiting_confirmation' | 'cancelled';
  booking_reference: string | null;
  confirmation_code: string | null;
  room_number: string | null;
  check_in: string;
  check_out: string;
  guests: number;
  guest_name: string;
  total: number;
  currency: string;
  payment_status: 'paid' | 'unpaid';
  /** `awaiting_confirmation`: until when the e-mail's link confirms it (the room's hold ends then). */
  confirm_by?: string;
}

/** Client ids are UUIDs the service minted: anything else is answered without a read. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** 32 random bytes, base64url without padding. */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', `No ${what}`);

export const newToken = () => randomBytes(32).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');

export { stayTotal };

/** The settings the pages tell guests, each only where the hotel has set it. */
function toldToGuests(client: Parameters<typeof clientSettingsOf>[0]): Pick<GuestClient, 'taxes_included' | 'cancellation_policy' | 'check_in_time' | 'address'> {
  const { taxes_included, cancellation_policy, check_in_time, address } = clientSettingsOf(client);
  return {
    ...(taxes_included === null ? {} : { taxes_included }),
    ...(cancellation_policy?.trim() ? { cancellation_policy: cancellation_policy.trim() } : {}),
    ...(check_in_time ? { check_in_time } : {}),
    ...(address?.trim() ? { address: address.trim() } : {}),
  };
}

/** The client whose booking page this is; 404 AppError NOT_FOUND for an unknown or malformed client id. */
export async function guestBookingClient(clientId: string): Promise<GuestClient> {
  if (!UUID.test(clientId)) throw notFound('such hotel');
  const client = await getClient(clientId);
  if (!client) throw notFound('such hotel');
  return {
    client_id: client.client_id,
    name: client.name,
    currency: client.currency,
    ...toldToGuests(client),
    // Paying at the hotel is confirmed by e-mail: a stage that sends none cannot offer it.
    pay_at_property: client.pay_at_property === true && emailEnabled(),
    booking_horizon_days: clientSettingsOf(client).booking_horizon_days,
    time_zone: timeZoneOf(client),
  };
}

// ---- input rules

/**
 * The messages read as a sentence after the field's label ("Check-in cannot be in the past"), or
 * are one of their own ("Enter your name"): the pages put the label in front of the former.
 * A browser's date picker sends `YYYY-MM-DD`; one without sends what was typed.
 */
const REAL_DATE = 'must be a real date, written year-month-day, like 2026-11-28';

function stayProblems(
  input: { check_in?: string; check_out?: string; guests?: string | number },
  now: Date,
  horizonDays: number,
  timeZone: string,
): { details: ErrorDetail[]; stay?: StayQuery } {
  const details: ErrorDetail[] = [];
  // The hotel's date now, where it is: a New York hotel at 20:00 still takes bookings for tonight.
  const { today } = hotelClock(timeZone, now);
  const lastCheckIn = addDays(today, horizonDays);
  const checkIn = typeof input.check_in === 'string' ? input.check_in.trim() : '';
  const checkOut = typeof input.check_out === 'string' ? input.check_out.trim() : '';

  const inValid = isCalendarDate(checkIn);
  if (!checkIn) details.push({ path: 'check_in', message: 'Enter the check-in date' });
  else if (!inValid) details.push({ path: 'check_in', message: REAL_DATE });
  else if (checkIn < today) details.push({ path: 'check_in', message: 'cannot be in the past' });
  else if (checkIn > lastCheckIn) details.push({ path: 'check_in', message: `can be at most ${horizonDays} days from today (${lastCheckIn} at the latest)` });

  const outValid = isCalendarDate(checkOut);
  if (!checkOut) details.push({ path: 'check_out', message: 'Enter the check-out date' });
  else if (!outValid) details.push({ path: 'check_out', message: REAL_DATE });
  else if (inValid) {
    const nights = nightsBetween(checkIn, checkOut);
    if (nights < 1) details.push({ path: 'check_out', message: 'must be after the check-in date' });
    else if (nights > MAX_GUEST_NIGHTS) details.push({ path: 'check_out', message: `must be at most ${MAX_GUEST_NIGHTS} nights after check-in` });
  }

  let guests: number | undefined;
  const raw = input.guests;
  if (typeof raw === 'number') guests = raw;
  else if (typeof raw === 'string' && /^\s*\d{1,6}\s*$/.test(raw)) guests = Number(raw.trim());
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) details.push({ path: 'guests', message: 'Enter the number of guests' });
  else if (guests === undefined || !Number.isInteger(guests) || guests < 1) details.push({ path: 'guests', message: 'must be a whole number of at least 1' });
  else if (guests > MAX_GUESTS) details.push({ path: 'guests', message: `must be at most ${MAX_GUESTS}` });

  return details.length ? { details } : { details, stay: { check_in: checkIn, check_out: checkOut, guests: guests! } };
}

function invalid(details: ErrorDetail[]): AppError {
  return errors.validation(details, details.map((d) => `${d.path}: ${d.message}`).join('; '));
}

/**
 * The contract's rules on the raw form values; 400 AppError VALIDATION_ERROR with details paths
 * `check_in`, `check_out`, `guests` (dates not real, check-in before today (the date of `now` in
 * the hotel's `timeZone`), check-in more than `horizonDays` after that today (the client's
 * booking horizon), check-out not after check-in, more than 30 nights, guests not a whole
 * number >= 1), ALL problems at once.
 * Surrounding spaces are ignored; guests may be a number or its digits.
 */
export function checkStay(
  input: { check_in?: string; check_out?: string; guests?: string | number },
  now: Date,
  horizonDays = DEFAULT_BOOKING_HORIZON_DAYS,
  timeZone = DEFAULT_TIME_ZONE,
): StayQuery {
  const { details, stay } = stayProblems(input, now, horizonDays, timeZone);
  if (!stay) throw invalid(details);
  return stay;
}

/** The guest's details as typed: name required, e-mail checked, phone optional in E.164 (spaces, dashes, dots and brackets ignored). */
function guestProblems(input: Partial<Record<keyof GuestDetails, unknown>> | undefined): { details: ErrorDetail[]; guest?: GuestDetails } {
  const details: ErrorDetail[] = [];
  const name = typeof input?.name === 'string' ? input.name.trim() : '';
  const email = typeof input?.email === 'string' ? input.email.trim() : '';
  const rawPhone = typeof input?.phone === 'string' ? input.phone.trim() : '';
  const phone = rawPhone.replace(/[\s().-]/g, '');

  if (!name) details.push({ path: 'name', message: 'Enter your name' });
  else if (name.length > MAX_NAME_LENGTH) details.push({ path: 'name', message: `must be at most ${MAX_NAME_LENGTH} characters` });
  if (!email) details.push({ path: 'email', message: 'Enter your e-mail address' });
  else if (!emailSchema.safeParse(email).success) details.push({ path: 'email', message: 'Enter an e-mail address in the right format, like name@example.com' });
  if (input?.phone !== undefined && typeof input.phone !== 'string') details.push({ path: 'phone', message: 'must be a phone number' });
  else if (phone && !phoneSchema.safeParse(phone).success) {
    details.push({ path: 'phone', message: 'Enter a phone number in international format, like +44 20 7946 0958' });
  }
  return details.length ? { details } : { details, guest: { name, email, ...(phone ? { phone } : {}) } };
}

export interface BookingInput {
  room_id: string;
  stay: StayQuery;
  guest: GuestDetails;
  /**
   * The booking form's attempt id (`newBookingAttempt`, one per rendering of the form). Absent
   * (a form rendered before it existed): every submit is a booking of its own.
   */
  attempt?: string;
  /**
   * The guest's source address (the page's caller): its open holds are counted, at most
   * MAX_OPEN_HOLDS_PER_SOURCE per client (source-limit.ts). Absent: not counted (operator tools).
   */
  source?: string;
}

/** A new attempt id for a rendering of the guest-details form. */
export const newBookingAttempt = randomUUID;

/** The stay's, the guest's and the attempt's rules together: every problem at once. */
export function checkBookingInput(input: BookingInput, now: Date, horizonDays: number, timeZone: string): { stay: StayQuery; guest: GuestDetails; attempt?: string } {
  const stay = stayProblems(input?.stay ?? {}, now, horizonDays, timeZone);
  const guest = guestProblems(input?.guest);
  const attempt = typeof input?.attempt === 'string' ? input.attempt.trim().toLowerCase() : undefined;
  const attemptDetails: ErrorDetail[] =
    input?.attempt === undefined || (attempt && UUID.test(attempt))
      ? []
      : [{ path: 'attempt', message: 'This form could not be read. Please check your details and press the button again.' }];
  if (!stay.stay || !guest.guest || attemptDetails.length) throw invalid([...stay.details, ...guest.details, ...attemptDetails]);
  return { stay: stay.stay, guest: guest.guest, attempt };
}

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
async function submitIdentity(
  clientId: string,
  payment: GuestBookingRecord['payment'],
  choices: { attempt?: string; roomId: string; stay: StayQuery; guest: GuestDetails },
): Promise<{ identity?: string; token: string }> {
  if (!choices.attempt) return { token: newToken() };
  const identity = attemptIdentity(clientId, choices.attempt, choices.roomId, choices.stay, choices.guest);
  const token = createHmac('sha256', await orderReferenceKey()).update(`guest-confirmation\u0000${payment}\u0000${identity}`, 'utf8').digest('base64url');
  return { identity, token };
}

/** The client's room the guest chose; 404 for an unknown room, another client's, or a malformed id. */
export async function chosenRoom(clientId: string, roomId: unknown): Promise<RoomRecord> {
  const room = typeof roomId === 'string' && UUID.test(roomId) ? await getRoom(clientId, roomId) : undefined;
  if (!room) throw notFound('such room');
  return room;
}

// ---- search

/** A category of the rooms free for a stay, with what the PMS syncs of it (absent: nothing synced). */
export interface OfferedCategory {
  name: string;
  description?: string;
  amenities?: string[];
  rooms: { room_id: string; room_number: string; room_type: string; price: number; max_occupancy: number; total: number }[];
}

/**
 * Available rooms for the stay grouped by category (category name, or the room type for rooms
 * without a synced category; with the category's description and amenities as the PMS synced
 * them), each with the stay's total = price x nights in the client currency; rooms held by another guest's open checkout are NOT offered. The availability rules
 * of the API (findAvailableRooms). Categories by their cheapest room, then name; rooms by price,
 * then natural room number. 404 for an unknown client; the stay's rules as checkStay.
 */
export async function searchRooms(
  clientId: string,
  stay: StayQuery,
  now: Date,
): Promise<{
  nights: number;
  currency: string;
  categories: OfferedCategory[];
}> {
  const client = await guestBookingClient(clientId);
  const query = checkStay(stay, now, client.booking_horizon_days, client.time_zone);
  const [available, synced] = await Promise.all([
    findAvailableRooms(clientId, { check_in_date: query.check_in, check_out_date: query.check_out, guests: query.guests }, now),
    listCategories(clientId),
  ]);
  // What the PMS says of each category (description, amenities), by its source and id.
  const about = new Map(synced.map((c) => [`${c.external_source}\u0000${c.external_category_id}`, c]));
  const nights = nightsBetween(query.check_in, query.check_out);
  const groups = new Map<string, OfferedCategory>();
  for (const room of available.available_rooms) {
    const name = room.category?.name ?? room.room_type;
    const category = room.category ? about.get(`${room.external_source ?? ''}\u0000${room.category.external_category_id}`) : undefined;
    const description = category?.description?.trim();
    const amenities = (category?.amenities ?? []).map((a) => a.trim()).filter(Boolean);
    const group = groups.get(name) ?? { name, ...(description ? { description } : {}), ...(amenities.length ? { amenities } : {}), rooms: [] };
    group.rooms.push({
      room_id: room.id,
      room_number: room.room_number,
      room_type: room.room_type,
      price: room.price,
      max_occupancy: room.max_occupancy,
      total: stayTotal(room.price, nights, client.currency),
    });
    groups.set(name, group);
  }
  const categories = [...groups.values()];
  for (const group of categories) group.rooms.sort((a, b) => a.price - b.price || byRoomNumber(a, b));
  categories.sort((a, b) => a.rooms[0]!.price - b.rooms[0]!.price || a.name.localeCompare(b.name));
  return { nights, currency: client.currency, categories };
}

// ---- booking

const confirmationUrl = (baseUrl: string, clientId: string, token: string) => `${baseUrl.replace(/\/$/, '')}/book/${clientId}/confirmation/${token}`;

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
  if (!config().supportedCurrencies.includes(client.currency)) {
    throw new AppError(422, 'PROVIDER_NOT_CONFIGURED', `Online payment in ${client.currency} is not available`);
  }
  const [room] = await Promise.all([chosenRoom(clientId, input.room_id), checkoutSettingsOf(clientId)]);
  const nights = nightsBetween(stay.check_in, stay.check_out);
  const total = stayTotal(room.price, nights, client.currency);
  const amountMinor = Math.round(total * 10 ** minorUnits(client.currency));
  if (amountMinor < 1) throw new AppError(400, 'INVALID_AMOUNT', `Room ${room.room_number} has no price to pay online`);

  const { identity, token } = await submitIdentity(clientId, 'online', { attempt, roomId: room.id, stay, guest });
  // The partner reference of an order the service makes for itself; the order reference (keyed
  // HMAC) and the booking its payment makes follow from it, so the hold can name that booking.
  const reference = `guest:${identity ?? randomUUID()}`;
  const orderReference = await orderReferenceFor(clientId, reference);
  const bookingId = paidOrderBookingId(clientId, orderReference);
  const record = guestBookingRecord(clientId, { bookingId, orderReference, room, stay, guest, total, currency: client.currency }, now);
  const holdEnds = new Date(now.getTime() + HOLD_MINUTES * 60_000);
  const source = input.source ? await sourceHash(clientId, input.source) : undefined;
  const held = await holdRoomForCheckout(
    {
      clientId,
      room,
      bookingId,
      check_in_date: stay.check_in,
      check_out_date: stay.check_out,
      guests: stay.guests,
      expiresAt: holdEnds.toISOString(),
      ...(source ? { source } : {}),
    },
    now,
    [guestBookingPutItem(tokenHash(token), record)],
  );

  const returnUrl = confirmationUrl(baseUrl, clientId, token);
  try {
    const created = await createPaymentOrder(
      { clientId, origins: [] },
      {
        reference,
        amount_minor: amountMinor,
        currency: client.currency,
        customer: { name: guest.name, email: guest.email, ...(guest.phone ? { phone: guest.phone } : {}) },
        context: { type: 'room_booking', check_in_date: stay.check_in, check_out_date: stay.check_out, guests: stay.guests, service_room_id: room.id },
        success_url: returnUrl,
        cancel_url: returnUrl,
      },
      {
        baseUrl,
        allowHttp: config().isLocal,
        // What the guest sees on the provider's page: the hotel and the stay, never our reference.
        checkout: { expiresAt: holdEnds, description: `${client.name}: room ${room.room_number}, ${nights} ${nights === 1 ? 'night' : 'nights'}, ${stay.check_in} to ${stay.check_out}` },
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

/** What a confirmation token leads to: paid online (with the order that makes the booking) or at the property. */
export function guestBookingRecord(
  clientId: string,
  b: { bookingId: string; orderReference?: string; room: { id: string; room_number: string }; stay: StayQuery; guest: GuestDetails; total: number; currency: string },
  now: Date,
): GuestBookingRecord {
  return {
    client_id: clientId,
    booking_id: b.bookingId,
    ...(b.orderReference ? { order_reference: b.orderReference, payment: 'online' as const } : { payment: 'at_property' as const }),
    room_id: b.room.id,
    room_number: b.room.room_number,
    check_in_date: b.stay.check_in,
    check_out_date: b.stay.check_out,
    guests: b.stay.guests,
    guest_name: b.guest.name,
    total: b.total,
    currency: b.currency,
    created_at: now.toISOString(),
  };
}

// ---- confirmation

/**
 * The booking behind a confirmation token of that client; undefined for an unknown token or
 * another client's. The token (256 random bits, or an attempt's keyed HMAC, base64url) is the
 * only way to it: the table keeps only its SHA-256. `confirmed` once the booking exists (paid,
 * or pay at the property), with the room it got (null while a paid booking awaits manual
 * assignment); `awaiting_payment` while the order is processing (the provider still reports the
 * checkout open); `payment_failed` when it was cancelled, failed or expired.
 */
export async function guestBookingOf(clientId: string, token: string, now = new Date()): Promise<GuestBookingView | undefined> {
  return (await guestBookingPage(clientId, token, now))?.view;
}

/** What the guest's page of a token shows beyond its view. */
export interface GuestBookingPage {
  view: GuestBookingView;
  /** The room the guest chose (the view's room is the one booked, if any). */
  chosen_room_number: string;
  /** The guest's e-mail address as given, where the confirmation goes. */
  email: string | null;
  /**
   * Until when the chosen room was held for this booking: paid online, HOLD_MINUTES from the
   * checkout's opening (a declined or cancelled checkout released it earlier: the room is free
   * for anyone, the guest's first); paid at the hotel, until its link could confirm it.
   */
  held_until: string | null;
  /**
   * `payment_failed` before `held_until`: "Try again" opens a new checkout for the same room,
   * stay and guest (a new attempt of the booking form, with the same choices; refused as any
   * other when the room was taken meanwhile).
   */
  try_again?: { room_id: string; stay: StayQuery; guest: GuestDetails };
}

/** guestBookingOf with what the page shows beyond the view (the same reads). */
export async function guestBookingPage(clientId: string, token: string, now = new Date()): Promise<GuestBookingPage | undefined> {
  if (typeof token !== 'string' || !TOKEN.test(token) || !UUID.test(clientId)) return undefined;
  const record = await getGuestBooking(tokenHash(token));
  if (!record || record.client_id !== clientId) return undefined;
  const [booking, order] = await Promise.all([
    getBooking(clientId, record.booking_id),
    record.order_reference ? getOrder(record.order_reference) : Promise.resolve(undefined),
  ]);
  const stay: StayQuery = { check_in: record.check_in_date, check_out: record.check_out_date, guests: record.guests };
  const view = {
    ...stay,
    guest_name: record.guest_name,
    total: record.total,
    currency: record.currency,
  };
  const heldUntil =
    record.payment === 'at_property' ? (record.hold_expires_at ?? null) : new Date(Date.parse(record.created_at) + HOLD_MINUTES * 60_000).toISOString();
  const page = (v: GuestBookingView, extra: Partial<GuestBookingPage> = {}): GuestBookingPage => ({
    view: v,
    chosen_room_number: record.room_number,
    email: record.guest_email ?? order?.customer.email ?? booking?.guest_email ?? null,
    held_until: heldUntil,
    ...extra,
  });
  if (booking) {
    let roomNumber: string | null = null;
    if (booking.room_id) roomNumber = booking.room_id === record.room_id ? record.room_number : ((await getRoom(clientId, booking.room_id))?.room_number ?? null);
    return page({
      state: 'confirmed',
      booking_reference: booking.booking_reference ?? null,
      confirmation_code: booking.confirmation_code ?? null,
      room_number: roomNumber,
      ...view,
      payment_status: booking.payment_status === 'paid' ? 'paid' : 'unpaid',
    });
  }
  if (record.payment === 'at_property') {
    // Not confirmed by its e-mail's link (yet): decided here, at read time, by the hold's end.
    const open = record.status === 'pending' && record.hold_expires_at !== undefined && record.hold_expires_at > now.toISOString();
    return page({
      state: open ? 'awaiting_confirmation' : 'cancelled',
      booking_reference: null,
      confirmation_code: null,
      room_number: record.room_number,
      ...view,
      payment_status: 'unpaid',
      ...(open ? { confirm_by: record.hold_expires_at } : {}),
    });
  }
  // No order: its creation failed after the hold, and the token was never handed out.
  if (!order || order.client_id !== clientId) return undefined;
  const state = order.status === 'processing' || order.status === 'paid' ? 'awaiting_payment' : 'payment_failed';
  const { customer } = order;
  return page(
    { state, booking_reference: null, confirmation_code: null, room_number: null, ...view, payment_status: 'unpaid' },
    state === 'payment_failed' && heldUntil && heldUntil > now.toISOString()
      ? { try_again: { room_id: record.room_id, stay, guest: { name: record.guest_name, email: customer.email, ...(customer.phone ? { phone: customer.phone } : {}) } } }
      : {},
  );
}

/**
 * The dashboard setting; audit is the caller's. 404 NOT_FOUND for an unknown client; 409
 * EMAIL_NOT_CONFIGURED to turn it on in a stage that sends no e-mail (deployed without
 * `-c senderEmail`): such a booking is confirmed by a link sent by e-mail.
 */
export async function setPayAtProperty(clientId: string, enabled: boolean): Promise<void> {
  if (enabled && !emailEnabled()) {
    throw new AppError(409, 'EMAIL_NOT_CONFIGURED', 'Pay at the hotel needs e-mail to guests, and this stage sends none (it was deployed without a sender address)');
  }
  if (!UUID.test(clientId) || !(await putPayAtProperty(clientId, enabled))) throw notFound('such hotel');
}
