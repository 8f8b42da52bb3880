/**
 * Reports over HTTP and the operator CLI, on the same data (docs/behaviour.md "Reports"): a hotel
 * in New York with PMS bookings crossing the range's edges, a cancelled and a no-show one, a
 * reception booking changed to other nights and one cancelled, a partner's paid order (part
 * refunded with `ops orders refund`) and a stay outside the range. The
 * page (every staff role), each table's CSV and `ops reports occupancy` (--csv, --json) give the
 * figures worked out by hand here; bad ranges come back beside their field, and from the CLI as a
 * non-zero exit with the envelope's message.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/schemas/common';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { runOps } from '../support/ops-cli';
import { paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const ZONE = 'America/New_York';

let stack: TestStack;
let hotel: Tenant;
let staff: DashboardClient;
let stackFile: string;
/** The range: the whole month three months on. */
let from: string;
let to: string;
let nights: number;
const rooms = new Map<string, string>();

const at = (days: number) => addDays(from, days);

async function sync(path: string, body: unknown) {
  const response = await stack.request('PUT', `/api/v1/property-sync/${path}`, { key: hotel.syncKey, body });
  expect(response.status, response.text).toBe(200);
}

const pmsBooking = (id: string, room: string, checkIn: string, checkOut: string, total: number, status = 'confirmed') => ({
  external_booking_id: id,
  external_room_id: room,
  guest_name: `Guest ${id}`,
  check_in_date: checkIn,
  check_out_date: checkOut,
  guests: 1,
  total_amount: total,
  status,
});

beforeAll(async () => {
  stack = await startTestStack();
  hotel = await stack.createTenant();
  const { setClientSettings } = await import('../../shared/domain/clients');
  await setClientSettings(hotel.clientId, { time_zone: ZONE });
  staff = await signedInOperator(stack, hotel.clientId, 'staff');
  const now = new Date();
  from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1)).toISOString().slice(0, 10);
  to = addDays(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 4, 1)).toISOString().slice(0, 10), -1);
  nights = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

  await sync('rooms', {
    external_source: 'pms',
    rooms: ['101', '102', '103', '104'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 125, max_occupancy: 2 })),
  });
  const { listRooms } = await import('../../shared/store/room-store');
  for (const room of await listRooms(hotel.clientId)) rooms.set(room.room_number, room.id);
  await sync('bookings', {
    external_source: 'pms',
    bookings: [
      pmsBooking('ACROSS-START', 'R101', at(-2), at(2), 400),
      pmsBooking('THIRDS', 'R102', at(9), at(12), 333.33),
      pmsBooking('ACROSS-END', 'R103', addDays(to, -1), addDays(to, 2), 300),
      pmsBooking('CANCELLED', 'R104', at(4), at(6), 500, 'cancelled'),
      pmsBooking('NO-SHOW', 'R104', at(19), at(20), 90, 'no_show'),
      pmsBooking('LATER', 'R101', addDays(to, 30), addDays(to, 32), 999),
    ],
  });
  const reception = await import('../../shared/domain/bookings/reception-bookings');
  const changes = await import('../../shared/domain/bookings/booking-changes');
  const guest = { guest_name: 'Walk In', guest_email: 'walk.in@example.com', guests: 1 };
  const desk = await reception.createReceptionBooking(hotel.clientId, rooms.get('104')!, { ...guest, check_in_date: at(14), check_out_date: at(16), total_amount: 250 });
  await changes.modifyServiceBooking(hotel.clientId, desk.booking.id, { check_in_date: at(15), check_out_date: at(17) });
  const dropped = await reception.createReceptionBooking(hotel.clientId, rooms.get('103')!, { ...guest, check_in_date: at(19), check_out_date: at(21), total_amount: 250 });
  await changes.cancelServiceBooking(hotel.clientId, dropped.booking.id, { source: 'staff', refund: 'none' });

  const paid = await paidRoomBooking(stack, hotel, { check_in_date: at(20), check_out_date: at(22), serviceRoomId: rooms.get('101')! }, { amountMinor: 25000 });

  const dir = mkdtempSync(join(tmpdir(), 'reports-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
  const refunded = await runOps(stackFile, ['orders', 'refund', paid.orderReference, '--amount', '4000', '--json']);
  expect(refunded.code, refunded.stdout).toBe(0);
});

afterAll(async () => {
  await stack?.stop();
});

/** The figures worked out by hand: 11 room nights sold of 4 rooms a night. */
function expectedOccupancyCsv(): string {
  const row = (date: string, sold: number, revenue: string, adr: string, revpar: string) => `${date},4,${sold},${sold * 25},${revenue},${adr},${revpar},USD`;
  const perNight = new Map<string, [number, string, string, string]>([
    [at(0), [1, '100.00', '100.00', '25.00']],
    [at(1), [1, '100.00', '100.00', '25.00']],
    [at(9), [1, '111.11', '111.11', '27.78']],
    [at(10), [1, '111.11', '111.11', '27.78']],
    [at(11), [1, '111.11', '111.11', '27.78']],
    [at(15), [1, '125.00', '125.00', '31.25']],
    [at(16), [1, '125.00', '125.00', '31.25']],
    [at(20), [1, '125.00', '125.00', '31.25']],
    [at(21), [1, '125.00', '125.00', '31.25']],
    [addDays(to, -1), [1, '100.00', '100.00', '25.00']],
    [to, [1, '100.00', '100.00', '25.00']],
  ]);
  const lines = Array.from({ length: nights }, (_, i) => {
    const date = at(i);
    const [sold, revenue, adr, revpar] = perNight.get(date) ?? [0, '0.00', '', '0.00'];
    return row(date, sold, revenue, adr, revpar);
  });
  const occupancy = Math.round((11 / (4 * nights)) * 1000) / 10;
  const revpar = (Math.round(123333 / (4 * nights)) / 100).toFixed(2);
  return ['date,rooms_in_service,rooms_sold,occupancy_percent,revenue,adr,revpar,currency', ...lines, `total,${4 * nights},11,${occupancy},1233.33,112.12,${revpar},USD`, ''].join('\r\n');
}

const EXPECTED_ORIGINS = [
  'origin,bookings,room_nights,revenue,currency,cancelled,no_shows',
  'pms,3,7,733.33,USD,1,1',
  'booking_page,0,0,0.00,USD,0,0',
  'reception,1,2,250.00,USD,1,0',
  'partner,1,2,250.00,USD,0,0',
  '',
].join('\r\n');

describe('Reports page', () => {
  it('shows the range, the chart and three tables with their figures, for staff', async () => {
    const page = await staff.get(`/dashboard/reports?from=${from}&to=${to}`);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(page.text).toContain('<title>Reports');
    expect(page.text).toMatch(/<label for="f-from">From<\/label>/);
    expect(page.text).toMatch(/<label for="f-to">To<\/label>/);
    for (const heading of ['Occupancy and revenue', 'By origin', 'Payments by day']) expect(text).toContain(heading);
    expect(page.text.match(/>Download CSV</g)).toHaveLength(3);
    expect(page.text).toContain('<svg');
    expect(page.text.match(/class="occupancy-bar"/g)).toHaveLength(nights);
    expect(text).toContain(`Total ${4 * nights} 11`);
    expect(text).toContain('1,233.33 USD 112.12 USD');
    expect(text).toContain('Partner orders 1 2 250.00 USD 0 0');
    expect(text).toContain('PMS 3 7 733.33 USD 1 1');
    expect(text).toContain('Reception 1 2 250.00 USD 1 0');
    expect(text).toContain(`(${ZONE})`);
    expect(page.text).toMatch(/href="\/dashboard\/reports"[^>]*>Reports</);
  });

  it('is this month of the hotel by default', async () => {
    const page = await staff.get('/dashboard/reports');
    expect(page.status).toBe(200);
    const { localDate } = await import('../../shared/domain/hotel-time');
    const today = localDate(ZONE, new Date());
    expect(page.text).toContain(`value="${today.slice(0, 8)}01"`);
  });

  it('answers bad ranges with the form again and the message beside the field', async () => {
    const cases: [string, string, string][] = [
      [`from=${from}&to=${addDays(from, 366)}`, 'to', 'A report covers at most 366 nights'],
      [`from=${from}&to=${addDays(from, -1)}`, 'to', 'To must be the same as or after From'],
      [`from=2026-02-30&to=${to}`, 'from', 'From must be a real date, like 2026-11-01'],
    ];
    for (const [query, field, message] of cases) {
      const page = await staff.get(`/dashboard/reports?${query}`);
      expect(page.status).toBe(400);
      expect(page.text).toContain('There is a problem');
      expect(page.text).toContain(`<small id="f-${field}-error" class="field-error">${message}</small>`);
      expect(page.text).not.toContain('Download CSV');
    }
  });
});

describe('Report CSV and the CLI', () => {
  it('downloads each table as RFC 4180 CSV with the same figures', async () => {
    const occupancy = await staff.get(`/dashboard/reports/occupancy.csv?from=${from}&to=${to}`);
    expect(occupancy.status).toBe(200);
    expect(occupancy.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(occupancy.headers.get('content-disposition')).toBe(`attachment; filename="occupancy-${from}-to-${to}.csv"`);
    expect(occupancy.text).toBe(expectedOccupancyCsv());
    const origins = await staff.get(`/dashboard/reports/origins.csv?from=${from}&to=${to}`);
    expect(origins.text).toBe(EXPECTED_ORIGINS);
    const payments = await staff.get(`/dashboard/reports/payments.csv?from=${from}&to=${to}`);
    expect(payments.text).toBe('date,currency,collected,refunded,net,orders_paid,orders_failed,orders_expired\r\n');
    expect((await staff.get(`/dashboard/reports/other.csv?from=${from}&to=${to}`)).status).toBe(404);
  });

  it("counts today's payment and its refund on the hotel's day, the same on the page, in CSV and from the CLI", async () => {
    const { localDate } = await import('../../shared/domain/hotel-time');
    const today = localDate(ZONE, new Date());
    const expected = `date,currency,collected,refunded,net,orders_paid,orders_failed,orders_expired\r\n${today},USD,250.00,40.00,210.00,1,0,0\r\n`;
    expect((await staff.get(`/dashboard/reports/payments.csv?from=${today}&to=${today}`)).text).toBe(expected);
    const page = textOf((await staff.get(`/dashboard/reports?from=${today}&to=${today}`)).text);
    expect(page).toContain('250.00 USD 40.00 USD 210.00 USD 1 0 0');
    const json = await runOps(stackFile, ['reports', 'occupancy', '--client', hotel.clientId, '--from', today, '--to', today, '--json']);
    expect(JSON.parse(json.stdout).payments).toEqual([{ date: today, currency: 'USD', collected: '250.00', refunded: '40.00', net: '210.00', orders_paid: 1, orders_failed: 0, orders_expired: 0 }]);
  });

  it('`ops reports occupancy` prints the same CSV and JSON', async () => {
    const csv = await runOps(stackFile, ['reports', 'occupancy', '--client', hotel.clientId, '--from', from, '--to', to, '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trimEnd()).toBe(expectedOccupancyCsv().trimEnd());
    const json = await runOps(stackFile, ['reports', 'occupancy', '--client', hotel.clientId, '--from', from, '--to', to, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ from, to, time_zone: ZONE, currency: 'USD' });
    expect(report.nights).toHaveLength(nights);
    expect(report.total).toMatchObject({ rooms_in_service: 4 * nights, rooms_sold: 11, revenue: '1233.33', adr: '112.12' });
    expect(report.origins.find((o: { origin: string }) => o.origin === 'pms')).toEqual({ origin: 'pms', bookings: 3, room_nights: 7, revenue: '733.33', currency: 'USD', cancelled: 1, no_shows: 1 });
  });

  it('`ops reports occupancy` refuses a bad range with the envelope message and a non-zero exit', async () => {
    const run = await runOps(stackFile, ['reports', 'occupancy', '--client', hotel.clientId, '--from', from, '--to', addDays(from, -1), '--json']);
    expect(run.code).not.toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'To must be the same as or after From' } });
    const plain = await runOps(stackFile, ['reports', 'occupancy', '--client', hotel.clientId, '--from', from, '--to', addDays(from, 400)]);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toContain('A report covers at most 366 nights');
  });
});
