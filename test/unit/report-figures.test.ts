/**
 * The reports' figures (shared/domain/reports/figures.ts) against a model built from the bookings,
 * orders and refunds themselves, night by night and day by day, on random data: every origin,
 * cancellations, no-shows, bookings without a room, stays crossing the range's edges (long ones
 * too), refunds, and hotels east and west of UTC (instants near their midnights).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nightlyRevenue, type ReportBooking, type ReportInput, reportFigures, REPORT_ORIGINS } from '../../shared/domain/reports/figures';
import { reportRange, thisMonth } from '../../shared/domain/reports/report-range';
import type { PaymentOrderRecord } from '../../shared/store/payment-store';
import type { RefundRecord } from '../../shared/store/refund-store';

const ZONES = ['UTC', 'Pacific/Auckland', 'America/Los_Angeles', 'Asia/Kolkata', 'Europe/London', 'Pacific/Kiritimati'];
const DAY = 86_400_000;
const BASE = Date.parse('2026-03-01T00:00:00Z');
const date = (offset: number) => new Date(BASE + offset * DAY).toISOString().slice(0, 10);
/** The hotel's date of an instant, straight from Intl (the model does not use hotel-time). */
const dateIn = (zone: string, iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(iso));

const booking = fc.record({
  id: fc.uuid(),
  in: fc.integer({ min: 0, max: 70 }),
  nights: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 11, max: 120 })),
  room: fc.boolean(),
  status: fc.constantFrom('pending', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'no_show'),
  total: fc.option(fc.integer({ min: 0, max: 500_000 }).map((cents) => cents / 100), { nil: undefined }),
  origin: fc.constantFrom(...REPORT_ORIGINS),
});

const instant = fc.integer({ min: -2 * DAY, max: 75 * DAY }).map((ms) => new Date(BASE + ms).toISOString());
const order = fc.record({
  reference: fc.uuid(),
  status: fc.constantFrom('paid', 'failed', 'expired', 'processing', 'partially_refunded', 'refunded'),
  amount: fc.integer({ min: 1, max: 100_000 }),
  currency: fc.constantFrom('USD', 'EUR', 'JPY'),
  created: instant,
  paid: instant,
});
const refund = fc.record({ id: fc.uuid(), amount: fc.integer({ min: 1, max: 50_000 }), currency: fc.constantFrom('USD', 'EUR'), status: fc.constantFrom('succeeded', 'pending', 'failed'), at: instant });

const scenario = fc.record({
  zone: fc.constantFrom(...ZONES),
  currency: fc.constantFrom('USD', 'JPY', 'KWD'),
  from: fc.integer({ min: 5, max: 40 }),
  nights: fc.integer({ min: 1, max: 31 }),
  rooms: fc.integer({ min: 0, max: 12 }),
  bookings: fc.array(booking, { maxLength: 40 }),
  orders: fc.array(order, { maxLength: 20 }),
  refunds: fc.array(refund, { maxLength: 10 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function inputOf(s: Scenario): ReportInput {
  const from = date(s.from);
  const to = date(s.from + s.nights - 1);
  const bookings: ReportBooking[] = s.bookings.map((b) => ({
    origin: b.origin,
    booking: { id: b.id, room_id: b.room ? `room-${b.id}` : undefined, status: b.status, check_in_date: date(b.in), check_out_date: date(b.in + b.nights), total_amount: b.total },
  }));
  const orders = s.orders.map(
    (o) => ({ order_reference: o.reference, status: o.status, amount_minor: o.amount, currency: o.currency, created_at: o.created, ...(['paid', 'partially_refunded', 'refunded'].includes(o.status) ? { paid_at: o.paid } : {}) }) as PaymentOrderRecord,
  );
  const refunds = s.refunds.map((r) => ({ refund_id: r.id, amount_minor: r.amount, currency: r.currency, status: r.status, created_at: r.at }) as RefundRecord);
  return { from, to, timeZone: s.zone, currency: s.currency, roomsInService: s.rooms, bookings, ordersPaid: orders.filter((o) => o.paid_at), ordersOpened: orders, refunds };
}

const DIGITS: Record<string, number> = { USD: 2, JPY: 0, KWD: 3 };

/** The model: each night, each booking, by the contract's words. */
function model(input: ReportInput) {
  const nights: string[] = [];
  for (let d = input.from; d <= input.to; d = new Date(Date.parse(`${d}T00:00:00Z`) + DAY).toISOString().slice(0, 10)) nights.push(d);
  const stayNights = (b: ReportBooking['booking']) => Math.round((Date.parse(b.check_out_date) - Date.parse(b.check_in_date)) / DAY);
  const nightIndex = (b: ReportBooking['booking'], night: string) => Math.round((Date.parse(night) - Date.parse(b.check_in_date)) / DAY);
  const share = (b: ReportBooking['booking'], night: string) => {
    const total = Math.round((b.total_amount ?? 0) * 10 ** DIGITS[input.currency]!);
    const n = stayNights(b);
    const k = nightIndex(b, night);
    return Math.floor((total * (k + 1)) / n) - Math.floor((total * k) / n);
  };
  const onNight = (b: ReportBooking['booking'], night: string) => b.check_in_date <= night && night < b.check_out_date;
  const sells = (b: ReportBooking['booking']) => Boolean(b.room_id) && b.status !== 'cancelled' && b.status !== 'no_show';
  const perNight = nights.map((night) => {
    const selling = input.bookings.filter(({ booking: b }) => sells(b) && onNight(b, night));
    return { date: night, sold: selling.length, revenue: selling.reduce((t, { booking: b }) => t + share(b, night), 0) };
  });
  const origins = REPORT_ORIGINS.map((origin) => {
    const mine = input.bookings.filter((b) => b.origin === origin && nights.some((night) => onNight(b.booking, night)));
    const selling = mine.filter((b) => sells(b.booking));
    return {
      origin,
      bookings: selling.length,
      room_nights: selling.reduce((t, b) => t + nights.filter((night) => onNight(b.booking, night)).length, 0),
      revenue_minor: selling.reduce((t, b) => t + nights.filter((night) => onNight(b.booking, night)).reduce((s, night) => s + share(b.booking, night), 0), 0),
      cancelled: mine.filter((b) => b.booking.status === 'cancelled').length,
      no_shows: mine.filter((b) => b.booking.status === 'no_show').length,
    };
  });
  const dayOf = new Map<string, string>();
  const localDay = (iso: string) => dayOf.get(iso) ?? dayOf.set(iso, dateIn(input.timeZone, iso)).get(iso)!;
  const payments = nights.flatMap((day) =>
    ['EUR', 'JPY', 'USD'].flatMap((currency) => {
      const paid = input.ordersPaid.filter((o) => o.currency === currency && localDay(o.paid_at!) === day);
      const opened = input.ordersOpened.filter((o) => o.currency === currency && localDay(o.created_at) === day);
      const refunded = input.refunds.filter((r) => r.currency === currency && r.status === 'succeeded' && localDay(r.created_at) === day);
      const failed = opened.filter((o) => o.status === 'failed').length;
      const expired = opened.filter((o) => o.status === 'expired').length;
      if (!paid.length && !failed && !expired && !refunded.length) return [];
      const collected = paid.reduce((t, o) => t + o.amount_minor, 0);
      const back = refunded.reduce((t, r) => t + r.amount_minor, 0);
      return [{ date: day, currency, collected_minor: collected, refunded_minor: back, net_minor: collected - back, orders_paid: paid.length, orders_failed: failed, orders_expired: expired }];
    }),
  );
  return { perNight, origins, payments };
}

describe('report figures', () => {
  it('equal the model built from the bookings, orders and refunds', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const input = inputOf(s);
        const figures = reportFigures(input);
        const expected = model(input);
        expect(figures.nights.map((n) => ({ date: n.date, sold: n.rooms_sold, revenue: n.revenue_minor }))).toEqual(expected.perNight);
        for (const n of figures.nights) {
          expect(n.rooms_in_service).toBe(s.rooms);
          expect(n.occupancy_percent).toBe(s.rooms === 0 ? null : Math.round((n.rooms_sold / s.rooms) * 1000) / 10);
          expect(n.adr_minor).toBe(n.rooms_sold === 0 ? null : Math.round(n.revenue_minor / n.rooms_sold));
          expect(n.revpar_minor).toBe(s.rooms === 0 ? null : Math.round(n.revenue_minor / s.rooms));
        }
        const sold = expected.perNight.reduce((t, n) => t + n.sold, 0);
        const revenue = expected.perNight.reduce((t, n) => t + n.revenue, 0);
        expect(figures.total).toEqual({
          rooms_in_service: s.rooms * s.nights,
          rooms_sold: sold,
          occupancy_percent: s.rooms === 0 ? null : Math.round((sold / (s.rooms * s.nights)) * 1000) / 10,
          revenue_minor: revenue,
          adr_minor: sold === 0 ? null : Math.round(revenue / sold),
          revpar_minor: s.rooms === 0 ? null : Math.round(revenue / (s.rooms * s.nights)),
        });
        expect(figures.origins).toEqual(expected.origins);
        expect(figures.payments).toEqual(expected.payments);
      }),
      { numRuns: 300 },
    );
  });

  it("spreads a booking's total over its nights, to the minor unit, adding up exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 10_000_000 }), (nights, cents) => {
        const spread = nightlyRevenue({ check_in_date: '2026-01-01', check_out_date: date(-59 + nights), total_amount: cents / 100 }, 'USD');
        expect([...spread.values()].reduce((t, v) => t + v, 0)).toBe(cents);
        for (const v of spread.values()) expect(Math.abs(v - cents / nights)).toBeLessThan(1);
      }),
    );
    expect([...nightlyRevenue({ check_in_date: '2026-05-01', check_out_date: '2026-05-04', total_amount: 100 }, 'USD')]).toEqual([
      ['2026-05-01', 3333],
      ['2026-05-02', 3333],
      ['2026-05-03', 3334],
    ]);
  });
});

describe('report range', () => {
  it('is this month by default, both nights included', () => {
    expect(thisMonth('2026-02-14')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(thisMonth('2028-02-29')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(reportRange({}, '2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(reportRange({ from: '2026-01-01', to: '2027-01-01' }, '2026-12-31')).toEqual({ from: '2026-01-01', to: '2027-01-01' });
  });

  it('refuses bad input with the message at its field', () => {
    const detailsOf = (input: { from?: string; to?: string }) => {
      try {
        reportRange(input, '2026-11-28');
      } catch (error) {
        return (error as { details: unknown }).details;
      }
      throw new Error('accepted');
    };
    expect(detailsOf({ from: '2026-01-01', to: '2027-01-02' })).toEqual([{ path: 'to', message: 'A report covers at most 366 nights' }]);
    expect(detailsOf({ from: '2026-11-10', to: '2026-11-09' })).toEqual([{ path: 'to', message: 'To must be the same as or after From' }]);
    expect(detailsOf({ from: '2026-02-30', to: 'soon' })).toEqual([
      { path: 'from', message: 'From must be a real date, like 2026-11-01' },
      { path: 'to', message: 'To must be a real date, like 2026-11-30' },
    ]);
    expect(detailsOf({ from: '2026-11-01' })).toEqual([{ path: 'to', message: 'Enter the last night of the report' }]);
  });
});
