/**
 * The dashboard's overview and rooms grid: today's arrivals (each with whether the PMS has it),
 * departures and guests in house, occupancy of the coming nights, what needs attention and what
 * was paid today, all by the hotel's own calendar; and which rooms are booked on which nights.
 * Both read the client's active stays from the stay index (gsi1, as availability does), so their
 * cost does not grow with booking history. A night `d` is taken by an active booking with
 * check_in_date <= d < check_out_date.
 */
import { errors } from '../errors';
import { addDays, isCalendarDate } from '../schemas/common';
import { listCategories } from '../store/category-store';
import { listRooms, type RoomRecord } from '../store/room-store';
import { type ActiveStayOfRoom, activeStaysOverlapping, type BookingRecord, getBookings, isActive } from '../store/booking-store';
import { type CheckInPosition, listBookingsByCheckIn } from '../store/booking-index-store';
import { type BookingView, bookingView } from './bookings/list-bookings';
import { type DeliveryView, deliveriesNeedingAttention, type PmsReceipt, pmsReceipts } from './callbacks/delivery-views';
import { localDate, localDayBounds } from './hotel-time';
import { type OrderSummary, ordersPaidOn } from './payments/list-orders';
import { byRoomNumber, categoryIndex, type RoomView, toRoomView } from './property-sync/availability';

/** Nights of occupancy on the overview, from today. */
export const OCCUPANCY_NIGHTS = 14;
/** Deliveries needing attention shown on the overview. */
export const OVERVIEW_ATTENTION = 10;
/** The longest rooms grid: two months. */
export const MAX_GRID_NIGHTS = 62;

export interface OccupancyNight {
  date: string;
  /** Active rooms taken that night by an active booking. */
  occupied: number;
  /** Active rooms. */
  rooms: number;
}

/** An arrival, and whether its booking has reached the PMS (`none` for the PMS's own bookings). */
export interface ArrivalView extends BookingView {
  pms: PmsReceipt;
}

export interface Overview {
  /** Active bookings arriving today. */
  arrivals: ArrivalView[];
  /** Every booking leaving today: still in house, or checked out already. */
  departures: BookingView[];
  /** Checked-in guests whose stay includes today, today's departures included. */
  in_house: BookingView[];
  occupancy: OccupancyNight[];
  /** The newest failed or needs_review deliveries. */
  attention: DeliveryView[];
  /** Orders paid today: from the hotel's midnight to the next, newest first; refunded ones left out. */
  paid_today: OrderSummary[];
}

export interface RoomGrid {
  nights: string[];
  /** Active rooms in room-number order, each with one flag per night: booked or free. */
  rooms: { room: RoomView; booked: boolean[] }[];
}

function checkDate(value: string, path: string): void {
  if (!isCalendarDate(value)) {
    const message = 'must be a real calendar date in YYYY-MM-DD form';
    throw errors.validation([{ path, message }], `${path}: ${message}`);
  }
}

const nightsFrom = (from: string, count: number) => Array.from({ length: count }, (_, i) => addDays(from, i));

const takes = (stay: Pick<ActiveStayOfRoom, 'check_in_date' | 'check_out_date'>, night: string) => stay.check_in_date <= night && night < stay.check_out_date;

/** Each active room's stays: the ones that can take its nights. */
function staysByRoom(rooms: readonly RoomRecord[], stays: readonly ActiveStayOfRoom[]): Map<string, ActiveStayOfRoom[]> {
  const byRoom = new Map(rooms.filter((room) => room.is_active).map((room) => [room.id, [] as ActiveStayOfRoom[]]));
  for (const stay of stays) byRoom.get(stay.room_id)?.push(stay);
  return byRoom;
}

const byRoomThenId = (a: BookingView, b: BookingView) =>
  byRoomNumber({ room_number: a.room_number ?? '' }, { room_number: b.room_number ?? '' }) || (a.booking_id < b.booking_id ? -1 : 1);

/**
 * The orders paid on the hotel's local `date`: the paid index is by UTC day, so the (two, on a
 * day clocks change at most three) UTC days the local day touches are read and kept to its
 * instants.
 */
async function ordersPaidOnLocalDay(clientId: string, timeZone: string, date: string): Promise<OrderSummary[]> {
  const { start, end } = localDayBounds(timeZone, date);
  const utcDays: string[] = [];
  for (let day = localDate('UTC', start); day <= localDate('UTC', new Date(end.getTime() - 1)); day = addDays(day, 1)) utcDays.push(day);
  const [from, to] = [start.toISOString(), end.toISOString()];
  return (await Promise.all(utcDays.map((day) => ordersPaidOn(clientId, day))))
    .flat()
    .filter((order) => order.paid_at !== null && order.paid_at >= from && order.paid_at < to && order.status !== 'refunded')
    .sort((a, b) => (a.paid_at! < b.paid_at! ? 1 : -1));
}

/** Pages of the check-in index read for today's checked-out departures, at most. */
const CHECKED_OUT_PAGES = 20;

/**
 * The bookings checked out that were to leave on `today`: they have left the stay index (it holds
 * active stays only), so the check-in index is read for the checked-out stays reaching today.
 */
async function checkedOutLeaving(clientId: string, today: string): Promise<BookingRecord[]> {
  const yesterday = addDays(today, -1);
  const found: BookingRecord[] = [];
  let after: CheckInPosition | undefined;
  for (let page = 0; page < CHECKED_OUT_PAGES; page++) {
    const { bookings, continueAfter } = await listBookingsByCheckIn(clientId, { from: yesterday, to: yesterday, status: 'checked_out' }, { limit: 100, ...(after ? { after } : {}) });
    found.push(...bookings.filter((b) => b.check_out_date === today));
    if (!continueAfter) break;
    after = continueAfter;
  }
  return found;
}

/**
 * The overview of `today` (YYYY-MM-DD, the hotel's date in its `timeZone`). Arrivals,
 * departures and guests in house are the active bookings holding a room (the stay index holds
 * only those; a paid booking still awaiting its room is on the Bookings page), read whole from
 * the table; each arrival's `booking.confirmed` deliveries are read by id to say whether the PMS
 * has it. Occupancy counts active rooms taken on each of the 14 nights from today; orders paid
 * today are those paid between the hotel's midnight and the next.
 */
export async function overviewOf(clientId: string, today: string, timeZone = 'UTC'): Promise<Overview> {
  checkDate(today, 'today');
  // From yesterday: a stay leaving today ends after yesterday, so today's departures are in it too.
  const window = { checkIn: addDays(today, -1), checkOut: addDays(today, OCCUPANCY_NIGHTS) };
  const [rooms, stays, attention, paidToday, checkedOut] = await Promise.all([
    listRooms(clientId),
    activeStaysOverlapping(clientId, window),
    deliveriesNeedingAttention(clientId, OVERVIEW_ATTENTION),
    ordersPaidOnLocalDay(clientId, timeZone, today),
    checkedOutLeaving(clientId, today),
  ]);
  const todays = stays.filter((stay) => stay.check_in_date <= today && stay.check_out_date >= today);
  // The index lags the table a little: each of today's bookings is judged on its record.
  const bookings = [...(await getBookings(clientId, todays.map((stay) => stay.id))).values()].filter((b) => isActive(b.status));
  const roomNumbers = new Map(rooms.map((room) => [room.id, room.room_number]));
  const views = (keep: (b: (typeof bookings)[number]) => boolean) =>
    bookings
      .filter(keep)
      .map((b) => bookingView(b, (id) => roomNumbers.get(id)))
      .sort(byRoomThenId);

  const arrivals = views((b) => b.check_in_date === today);
  // The PMS made its own bookings: nothing to tell it. The others are asked about by id.
  const receipts = await pmsReceipts(clientId, arrivals.filter((b) => b.origin !== 'sync').map((b) => b.booking_id));

  const byRoom = staysByRoom(rooms, stays);
  const occupancy = nightsFrom(today, OCCUPANCY_NIGHTS).map((date) => ({
    date,
    occupied: [...byRoom.values()].filter((roomStays) => roomStays.some((stay) => takes(stay, date))).length,
    rooms: byRoom.size,
  }));
  return {
    arrivals: arrivals.map((b) => ({ ...b, pms: receipts.get(b.booking_id) ?? { state: 'none' } })),
    departures: [...views((b) => b.check_out_date === today), ...checkedOut.map((b) => bookingView(b, (id) => roomNumbers.get(id)))].sort(byRoomThenId),
    in_house: views((b) => b.status === 'checked_in' && b.check_in_date <= today && b.check_out_date >= today),
    occupancy,
    attention,
    paid_today: paidToday,
  };
}

/** Active rooms and, for each of `nights` nights from `from` (1 to 62), whether an active booking takes it. */
export async function roomGrid(clientId: string, from: string, nights = OCCUPANCY_NIGHTS): Promise<RoomGrid> {
  checkDate(from, 'from');
  if (!Number.isInteger(nights) || nights < 1 || nights > MAX_GRID_NIGHTS) {
    const message = `must be a whole number from 1 to ${MAX_GRID_NIGHTS}`;
    throw errors.validation([{ path: 'nights', message }], `nights: ${message}`);
  }
  const dates = nightsFrom(from, nights);
  const [rooms, categories, stays] = await Promise.all([
    listRooms(clientId),
    listCategories(clientId),
    activeStaysOverlapping(clientId, { checkIn: from, checkOut: addDays(from, nights) }),
  ]);
  const byRoom = staysByRoom(rooms, stays);
  const categoriesByKey = categoryIndex(categories);
  return {
    nights: dates,
    rooms: rooms
      .filter((room) => room.is_active)
      .sort(byRoomNumber)
      .map((room) => ({
        room: toRoomView(room, categoriesByKey),
        booked: dates.map((night) => byRoom.get(room.id)!.some((stay) => takes(stay, night))),
      })),
  };
}
