/**
 * Every figure of the reports (docs/behaviour.md "Reports"), computed here and nowhere else: the
 * dashboard page, its CSV files and `ops reports occupancy` only present them. Pure: the use case
 * (reports.ts) reads the bookings, orders and refunds of the range and hands them in.
 *
 * Money is in minor units of its currency (integers), so totals add up exactly; a booking's
 * revenue spreads over its nights by `nightlyRevenue`, the one place that says how.
 */
import { addDays } from '../../schemas/common';
import type { BookingRecord } from '../../store/booking-store';
import type { PaymentOrderRecord } from '../../store/payment-store';
import type { RefundRecord } from '../../store/refund-store';
import { toMinorUnits } from '../bookings/rates';
import { localDate } from '../hotel-time';
import { datesFrom } from '../rates/rate-days';

/** Where a booking came from, as the report groups them. */
export const REPORT_ORIGINS = ['pms', 'booking_page', 'reception', 'partner'] as const;
export type ReportOrigin = (typeof REPORT_ORIGINS)[number];

/** A booking as the report reads it: the record and where it came from. */
export interface ReportBooking {
  booking: Pick<BookingRecord, 'id' | 'room_id' | 'status' | 'check_in_date' | 'check_out_date' | 'total_amount'>;
  origin: ReportOrigin;
}

export interface ReportInput {
  /** The first and last night of the range (hotel dates, both included). */
  from: string;
  to: string;
  timeZone: string;
  /** The client's currency: bookings' totals are in it. */
  currency: string;
  /** Active rooms: the rooms in service each night. */
  roomsInService: number;
  bookings: readonly ReportBooking[];
  /** Orders paid in the range's days, and orders opened in them. */
  ordersPaid: readonly PaymentOrderRecord[];
  ordersOpened: readonly PaymentOrderRecord[];
  /** Refunds asked for in the range's days. */
  refunds: readonly RefundRecord[];
}

export interface NightFigures {
  date: string;
  rooms_in_service: number;
  rooms_sold: number;
  /** Rooms sold / rooms in service, in percent to one decimal; null with no room in service. */
  occupancy_percent: number | null;
  revenue_minor: number;
  /** Revenue / rooms sold, to the minor unit; null with no room sold. */
  adr_minor: number | null;
  /** Revenue / rooms in service, to the minor unit; null with no room in service. */
  revpar_minor: number | null;
}

export interface OriginFigures {
  origin: ReportOrigin;
  /** Bookings holding a room with a night in the range (neither cancelled nor no-show). */
  bookings: number;
  room_nights: number;
  revenue_minor: number;
  cancelled: number;
  no_shows: number;
}

export interface PaymentDayFigures {
  date: string;
  currency: string;
  collected_minor: number;
  refunded_minor: number;
  net_minor: number;
  orders_paid: number;
  orders_failed: number;
  orders_expired: number;
}

export interface ReportFigures {
  from: string;
  to: string;
  time_zone: string;
  currency: string;
  nights: NightFigures[];
  total: Omit<NightFigures, 'date'>;
  origins: OriginFigures[];
  payments: PaymentDayFigures[];
}

/**
 * A booking's revenue night by night, in minor units: its total over its nights, the k-th night
 * (from 0) getting floor(T·(k+1)/n) − floor(T·k/n), so the nights add up to the total exactly.
 * Bookings carry no nightly prices yet (rates price a stay when it is sold and keep only its
 * total); when they do, this is where those prices are read.
 */
export function nightlyRevenue(booking: Pick<BookingRecord, 'check_in_date' | 'check_out_date' | 'total_amount'>, currency: string): Map<string, number> {
  const nights = datesFrom(booking.check_in_date, addDays(booking.check_out_date, -1));
  const total = toMinorUnits(booking.total_amount ?? 0, currency);
  const share = (k: number) => Math.floor((total * k) / nights.length);
  return new Map(nights.map((date, k) => [date, share(k + 1) - share(k)]));
}

/** Whether a booking holds a room on its nights: it has one and is neither cancelled nor a no-show. */
export function holdsRoom(booking: ReportBooking['booking']): boolean {
  return Boolean(booking.room_id) && booking.status !== 'cancelled' && booking.status !== 'no_show';
}

const ratio = (amount: number, count: number) => (count === 0 ? null : Math.round(amount / count));
const percent = (sold: number, rooms: number) => (rooms === 0 ? null : Math.round((sold / rooms) * 1000) / 10);

function figuresOf(roomsInService: number, roomsSold: number, revenue: number): Omit<NightFigures, 'date'> {
  return {
    rooms_in_service: roomsInService,
    rooms_sold: roomsSold,
    occupancy_percent: percent(roomsSold, roomsInService),
    revenue_minor: revenue,
    adr_minor: ratio(revenue, roomsSold),
    revpar_minor: ratio(revenue, roomsInService),
  };
}

function occupancy(input: ReportInput, nights: readonly string[]) {
  const sold = new Map(nights.map((d) => [d, 0]));
  const revenue = new Map(nights.map((d) => [d, 0]));
  for (const { booking } of input.bookings) {
    if (!holdsRoom(booking)) continue;
    for (const [date, amount] of nightlyRevenue(booking, input.currency)) {
      if (!sold.has(date)) continue;
      sold.set(date, sold.get(date)! + 1);
      revenue.set(date, revenue.get(date)! + amount);
    }
  }
  const rows = nights.map((date) => ({ date, ...figuresOf(input.roomsInService, sold.get(date)!, revenue.get(date)!) }));
  const sum = (pick: (n: NightFigures) => number) => rows.reduce((total, n) => total + pick(n), 0);
  return { nights: rows, total: figuresOf(sum((n) => n.rooms_in_service), sum((n) => n.rooms_sold), sum((n) => n.revenue_minor)) };
}

function byOrigin(input: ReportInput): OriginFigures[] {
  const rows = new Map(REPORT_ORIGINS.map((origin) => [origin, { origin, bookings: 0, room_nights: 0, revenue_minor: 0, cancelled: 0, no_shows: 0 }]));
  for (const { booking, origin } of input.bookings) {
    const row = rows.get(origin)!;
    const inRange = [...nightlyRevenue(booking, input.currency)].filter(([date]) => date >= input.from && date <= input.to);
    if (inRange.length === 0) continue;
    if (booking.status === 'cancelled') row.cancelled += 1;
    else if (booking.status === 'no_show') row.no_shows += 1;
    else if (holdsRoom(booking)) {
      row.bookings += 1;
      row.room_nights += inRange.length;
      row.revenue_minor += inRange.reduce((total, [, amount]) => total + amount, 0);
    }
  }
  return [...rows.values()];
}

function payments(input: ReportInput, days: readonly string[]): PaymentDayFigures[] {
  const rows = new Map<string, PaymentDayFigures>();
  const rowOf = (at: string, currency: string) => {
    const date = localDate(input.timeZone, new Date(at));
    if (date < days[0]! || date > days[days.length - 1]!) return undefined;
    const key = `${date}#${currency}`;
    if (!rows.has(key)) rows.set(key, { date, currency, collected_minor: 0, refunded_minor: 0, net_minor: 0, orders_paid: 0, orders_failed: 0, orders_expired: 0 });
    return rows.get(key)!;
  };
  for (const order of input.ordersPaid) {
    const row = order.paid_at ? rowOf(order.paid_at, order.currency) : undefined;
    if (!row) continue;
    row.collected_minor += order.amount_minor;
    row.orders_paid += 1;
  }
  for (const order of input.ordersOpened) {
    if (order.status !== 'failed' && order.status !== 'expired') continue;
    const row = rowOf(order.created_at, order.currency);
    if (row && order.status === 'failed') row.orders_failed += 1;
    if (row && order.status === 'expired') row.orders_expired += 1;
  }
  for (const refund of input.refunds) {
    const row = refund.status === 'succeeded' ? rowOf(refund.created_at, refund.currency) : undefined;
    if (row) row.refunded_minor += refund.amount_minor;
  }
  const list = [...rows.values()].map((row) => ({ ...row, net_minor: row.collected_minor - row.refunded_minor }));
  return list.sort((a, b) => (a.date === b.date ? a.currency.localeCompare(b.currency) : a.date < b.date ? -1 : 1));
}

/** Every figure of a range. */
export function reportFigures(input: ReportInput): ReportFigures {
  const nights = datesFrom(input.from, input.to);
  return {
    from: input.from,
    to: input.to,
    time_zone: input.timeZone,
    currency: input.currency,
    ...occupancy(input, nights),
    origins: byOrigin(input),
    payments: payments(input, nights),
  };
}
