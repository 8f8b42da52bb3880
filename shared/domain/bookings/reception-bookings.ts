/**
 * A reception booking: a guest at the desk booked into a room free for the stay, confirmed at
 * once and paid at the property. The ops CLI's `bookings create` and the dashboard's "New
 * booking" both call these use cases with the input as a person typed it, and both show their
 * messages as they are: plain words, one per field, naming a room by its number.
 *
 * The rules: check-in a real date from the hotel's today (its own time zone) on, check-out after
 * it, at most MAX_STAY_NIGHTS nights; guests a whole number from 1; the guest's name; an e-mail
 * address or a phone number (one is enough; a phone in international format, spaces, dashes,
 * dots and brackets ignored); the total an amount in the client's currency, or none for the
 * room's price x nights.
 *
 * DynamoDB access: receptionDesk: GetItem (the client). freeRoomsForStay: the availability
 * reads (findAvailableRooms). createReceptionBooking: GetItem (client), then as
 * confirmServiceBooking (docs/data-model.md pattern 18); a refusal reads the room once more
 * (GetItem) to name it.
 */
import { AppError, type ErrorDetail, errors } from '../../errors';
import { email as emailSchema, guestNameProblem, isCalendarDate, MAX_STAY_NIGHTS, nightsBetween, phone as phoneSchema } from '../../schemas/common';
import { minorUnits } from '../../schemas/payments';
import { getClient } from '../../store/api-key-store';
import { getRoom } from '../../store/service-booking-store';
import { timeZoneOf } from '../client-settings';
import { localDate } from '../hotel-time';
import { findAvailableRooms } from '../property-sync/availability';
import { stayTotal } from './rates';
import { type ConfirmedBooking, confirmServiceBooking } from './service-bookings';

/** Guests in one booking: the API's count limit. */
const MAX_GUESTS = 10_000;
const MAX_NAME_LENGTH = 200;
/** The API's money limit. */
const MAX_TOTAL = 1_000_000_000;

/** What the desk needs to know of its hotel: the currency and the hotel's today. */
export interface ReceptionDesk {
  client_id: string;
  currency: string;
  time_zone: string;
  /** The hotel's date now, in its own time zone: the first possible check-in. */
  today: string;
}

/** The stay as typed (form values, CLI flags): strings or numbers, checked by receptionStay. */
export interface StayInput {
  check_in_date?: string;
  check_out_date?: string;
  guests?: string | number;
}

export interface ReceptionStay {
  check_in_date: string;
  check_out_date: string;
  guests: number;
  nights: number;
}

/** The guest's details as typed. */
export interface GuestInput {
  guest_name?: string;
  guest_email?: string;
  guest_phone?: string;
  /** Empty or absent: the room's price x nights. */
  total_amount?: string | number;
}

export interface ReceptionGuest {
  guest_name: string;
  guest_email?: string;
  /** E.164, as the API stores phone numbers. */
  guest_phone?: string;
  total_amount?: number;
}

/** A room free for the stay, as the desk chooses it. */
export interface FreeRoom {
  room_id: string;
  room_number: string;
  /** The synced category's name, else the room type. */
  category: string;
  /** Per night, in the client's currency (major units). */
  price: number;
  max_occupancy: number;
  /** Price x nights, or the total of `rate_plan` where the room's category has rate plans. */
  stay_total: number;
  /** What the form sends for this choice: the room id, with `~<external_rate_plan_id>` for a rate plan. */
  choice: string;
  /** The rate plan this choice books the room on (one choice per bookable plan). */
  rate_plan?: { external_rate_plan_id: string; name: string };
}

/** A room choice (`FreeRoom.choice`) as the room id and the rate plan chosen, if any. */
export function splitRoomChoice(choice: string): { roomId: string; ratePlanId?: string } {
  const at = choice.indexOf('~');
  return at < 0 ? { roomId: choice } : { roomId: choice.slice(0, at), ratePlanId: choice.slice(at + 1) };
}

/** Why a chosen room cannot be booked for the stay, with its number when it exists. */
export class RoomRefused extends AppError {
  constructor(
    readonly reason: 'unknown' | 'inactive' | 'too_small' | 'taken',
    readonly roomNumber: string | undefined,
    refusal: AppError,
    /** The room's price x nights, when it exists (the total a form offered for it). */
    readonly stayTotal?: number,
  ) {
    super(refusal.status, refusal.code, refusal.message, refusal.details);
  }
}

export async function receptionDesk(clientId: string, now = new Date()): Promise<ReceptionDesk> {
  const client = await getClient(clientId);
  if (!client) throw errors.clientNotFound(clientId);
  const timeZone = timeZoneOf(client);
  return { client_id: clientId, currency: client.currency, time_zone: timeZone, today: localDate(timeZone, now) };
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/** The stay's problems in plain words, all at once; the stay when there is none. */
export function receptionStay(input: StayInput, today: string): { stay?: ReceptionStay; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const checkIn = trimmed(input.check_in_date);
  const checkOut = trimmed(input.check_out_date);
  const inValid = isCalendarDate(checkIn);
  if (!checkIn) details.push({ path: 'check_in_date', message: 'Enter the check-in date' });
  else if (!inValid) details.push({ path: 'check_in_date', message: 'Enter a real check-in date, like 2027-03-01' });
  else if (checkIn < today) details.push({ path: 'check_in_date', message: `Check-in cannot be in the past: today at the hotel is ${today}` });

  const nights = nightsBetween(checkIn, checkOut);
  if (!checkOut) details.push({ path: 'check_out_date', message: 'Enter the check-out date' });
  else if (!isCalendarDate(checkOut)) details.push({ path: 'check_out_date', message: 'Enter a real check-out date, like 2027-03-03' });
  else if (inValid && nights < 1) details.push({ path: 'check_out_date', message: 'Check-out must be after check-in' });
  else if (inValid && nights > MAX_STAY_NIGHTS) details.push({ path: 'check_out_date', message: `A stay can be at most ${MAX_STAY_NIGHTS} nights` });

  const guestsText = trimmed(input.guests);
  const guests = /^\d{1,6}$/.test(guestsText) ? Number(guestsText) : Number.NaN;
  if (!guestsText) details.push({ path: 'guests', message: 'Enter the number of guests' });
  else if (!Number.isInteger(guests)) details.push({ path: 'guests', message: 'Enter the number of guests as a whole number, like 2' });
  else if (guests < 1) details.push({ path: 'guests', message: 'A booking is for at least 1 guest' });
  else if (guests > MAX_GUESTS) details.push({ path: 'guests', message: `A booking is for at most ${MAX_GUESTS} guests` });

  if (details.length) return { details };
  return { details, stay: { check_in_date: checkIn, check_out_date: checkOut, guests, nights } };
}

/** An amount as typed: digits with at most the currency's decimals ("240", "240.5", "240.50"). */
function amountOf(text: string, currency: string): number | undefined {
  const decimals = minorUnits(currency);
  const pattern = decimals > 0 ? new RegExp(`^\\d{1,10}(\\.\\d{1,${decimals}})?$`) : /^\d{1,10}$/;
  return pattern.test(text) ? Number(text) : undefined;
}

/** The guest's problems in plain words, all at once; the details (a phone in E.164) when there is none. */
export function receptionGuest(input: GuestInput, currency: string): { guest?: ReceptionGuest; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const name = trimmed(input.guest_name);
  const email = trimmed(input.guest_email);
  const rawPhone = trimmed(input.guest_phone);
  const phone = rawPhone.replace(/[\s().-]/g, '');
  const totalText = trimmed(input.total_amount);

  if (!name) details.push({ path: 'guest_name', message: "Enter the guest's name" });
  else if (name.length > MAX_NAME_LENGTH) details.push({ path: 'guest_name', message: `The name can be at most ${MAX_NAME_LENGTH} characters` });
  else if (guestNameProblem(name)) details.push({ path: 'guest_name', message: `The name ${guestNameProblem(name)}` });
  if (!email && !rawPhone) details.push({ path: 'guest_email', message: 'Enter an email address or a phone number' });
  if (email && !emailSchema.safeParse(email).success) details.push({ path: 'guest_email', message: 'Enter an email address in the correct format, like name@example.com' });
  if (rawPhone && !phoneSchema.safeParse(phone).success) details.push({ path: 'guest_phone', message: 'Enter a phone number in international format, like +44 20 7946 0958' });

  let total: number | undefined;
  if (totalText) {
    total = amountOf(totalText, currency);
    const example = (240).toFixed(minorUnits(currency));
    if (total === undefined) details.push({ path: 'total_amount', message: `Enter the total as an amount in ${currency}, like ${example}` });
    else if (total > MAX_TOTAL) details.push({ path: 'total_amount', message: `The total can be at most ${MAX_TOTAL} ${currency}` });
  }
  if (details.length) return { details };
  return {
    details,
    guest: { guest_name: name, ...(email ? { guest_email: email } : {}), ...(phone ? { guest_phone: phone } : {}), ...(total !== undefined ? { total_amount: total } : {}) },
  };
}

/** The active rooms free for the whole stay and large enough for its guests (the availability rules), by room number. */
export async function freeRoomsForStay(clientId: string, stay: ReceptionStay, currency: string, now = new Date()): Promise<FreeRoom[]> {
  const { available_rooms } = await findAvailableRooms(clientId, { check_in_date: stay.check_in_date, check_out_date: stay.check_out_date, guests: stay.guests }, now);
  return available_rooms.flatMap((room) => {
    const free = { room_id: room.id, room_number: room.room_number, category: room.category?.name ?? room.room_type, price: room.price, max_occupancy: room.max_occupancy };
    if (!room.rate_plans) return [{ ...free, stay_total: stayTotal(room.price, stay.nights, currency), choice: room.id }];
    // A room sold on rate plans: one choice per plan that takes the stay, cheapest first.
    return room.rate_plans
      .filter((plan) => plan.bookable)
      .map((plan) => ({
        ...free,
        stay_total: stayTotal(plan.total, 1, currency),
        choice: `${room.id}~${plan.external_rate_plan_id}`,
        rate_plan: { external_rate_plan_id: plan.external_rate_plan_id, name: plan.name },
      }));
  });
}

/**
 * Why the room cannot take the stay, named by its number: unknown, not in use, too small, or
 * (none of those) taken for some of the nights, by a booking or a guest's open checkout.
 */
export async function roomRefusal(clientId: string, choice: string, stay: ReceptionStay, currency: string): Promise<RoomRefused> {
  const { roomId } = splitRoomChoice(choice);
  const room = /^[A-Za-z0-9-]{1,128}$/.test(roomId) ? await getRoom(clientId, roomId) : undefined;
  if (!room) return new RoomRefused('unknown', undefined, errors.receptionRoomUnknown());
  const total = stayTotal(room.price, stay.nights, currency);
  if (!room.is_active) return new RoomRefused('inactive', room.room_number, errors.receptionRoomInactive(room.room_number), total);
  if (room.max_occupancy < stay.guests) {
    return new RoomRefused('too_small', room.room_number, errors.receptionRoomTooSmall(room.room_number, room.max_occupancy), total);
  }
  return new RoomRefused('taken', room.room_number, errors.receptionRoomTaken(room.room_number), total);
}

/**
 * Books the room for the stay: confirmed, unpaid, to be paid at the property; booking.confirmed
 * goes to the PMS. Refusals: 400 VALIDATION_ERROR with every field's problem (details paths as
 * the input's fields); RoomRefused (404 NOT_FOUND, 409 ROOM_NOT_AVAILABLE) naming the room by
 * its number; 404 for an unknown client.
 */
export async function createReceptionBooking(clientId: string, choice: string, input: StayInput & GuestInput, now = new Date()): Promise<ConfirmedBooking> {
  const { roomId, ratePlanId } = splitRoomChoice(choice);
  const desk = await receptionDesk(clientId, now);
  const stay = receptionStay(input, desk.today);
  const guest = receptionGuest(input, desk.currency);
  if (!stay.stay || !guest.guest) {
    const details = [...stay.details, ...guest.details];
    throw errors.validation(details, details.map((d) => d.message).join('; '));
  }
  const { nights: _nights, ...dates } = stay.stay;
  let total = guest.guest.total_amount;
  if (total === undefined) {
    // The total of the choice as the desk was offered it: the chosen plan's (its category's
    // cheapest bookable plan when none is named), else price x nights.
    const offered = await freeRoomsForStay(clientId, stay.stay, desk.currency, now);
    const free = offered.find((r) => r.choice === choice) ?? (ratePlanId === undefined ? offered.find((r) => r.room_id === roomId) : undefined);
    if (!free) throw await roomRefusal(clientId, roomId, stay.stay, desk.currency);
    total = free.stay_total;
  }
  try {
    return await confirmServiceBooking(
      clientId,
      { ...guest.guest, ...dates, total_amount: total, origin: 'reception', roomId, requireRoom: true, payment_status: 'unpaid', payment_method: 'pay_at_property' },
      now,
    );
  } catch (error) {
    if (error instanceof AppError && (error.code === 'ROOM_NOT_AVAILABLE' || error.code === 'NOT_FOUND')) throw await roomRefusal(clientId, roomId, stay.stay, desk.currency);
    throw error;
  }
}
