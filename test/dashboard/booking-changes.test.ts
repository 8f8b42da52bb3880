/**
 * Booking changes, cancellations and refunds on the dashboard over HTTP, as the front desk makes
 * them (docs/behaviour.md "Booking changes, cancellations and refunds"): "Cancel booking" with a
 * reason frees the room at once and the page then says why, who and when; "Change" moves the
 * dates; a clash comes back as the refusal with nothing changed; "Mark no-show" is offered only
 * once the check-in day has passed in the hotel's time zone; "Refund" on the Payments page and a
 * cancellation's refund on the booking page; a PMS booking is the PMS's; another hotel's answer
 * 404; staff do all of this, and only admins set the free-cancellation window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { orderStatus, paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let h: Hotel;

interface Hotel {
  tenant: Tenant;
  /** Room number to room id. */
  rooms: Map<string, string>;
  staff: DashboardClient;
  admin: DashboardClient;
}

/** A client with synced rooms 101, 102 and 103 (120 a night, for 2), and signed-in staff and admin operators. */
async function hotel(): Promise<Hotel> {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })) },
  });
  expect(put.status).toBe(200);
  const rooms = new Map<string, string>(put.body.items.map((item: { external_room_id: string; id: string }) => [item.external_room_id.slice(1), item.id]));
  const [staff, admin] = await Promise.all([signedInOperator(stack, tenant.clientId, 'staff'), signedInOperator(stack, tenant.clientId, 'admin')]);
  return { tenant, rooms, staff, admin };
}

beforeAll(async () => {
  stack = await startTestStack();
  h = await hotel();
});

afterAll(async () => {
  await stack?.stop();
});

async function freeRooms(checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, { key: h.tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

/** A reception booking of the room for the stay, made on the dashboard's New booking form; its id. */
async function deskBooking(room: string, checkIn: string, checkOut: string, guest = 'Desk Guest'): Promise<string> {
  const posted = await h.staff.request('POST', '/dashboard/bookings', {
    room_id: h.rooms.get(room)!,
    guest_name: guest,
    guest_email: 'desk@example.com',
    check_in_date: checkIn,
    check_out_date: checkOut,
    guests: '2',
    total_amount: '240',
  });
  expect(posted.status, posted.text.slice(0, 300)).toBe(303);
  return posted.location!.split('/').pop()!;
}

const bookingPath = (id: string) => `/dashboard/bookings/${id}`;
const fieldError = (html: string, name: string) => html.match(new RegExp(`id="f-${name}-error"[^>]*>([^<]*)<`))?.[1];
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]!.trim());
const ACTIONS = ['Change', 'Cancel booking', 'Mark no-show'];
const offered = (html: string) => buttons(html).filter((label) => ACTIONS.includes(label));

describe('Cancel booking', () => {
  it('asks on a page of its own, then cancels with the reason: the room is free at once, and the page says why, who and when', async () => {
    const id = await deskBooking('101', '2029-04-01', '2029-04-03');
    expect(await freeRooms('2029-04-01', '2029-04-03')).toEqual(['102', '103']);
    const page = await h.staff.get(bookingPath(id));
    expect(offered(page.text)).toEqual(['Change', 'Cancel booking']);
    expect(page.text).toContain(`<form method="get" action="/dashboard/bookings/${id}/cancel" class="inline">`);

    const confirm = await h.staff.get(`${bookingPath(id)}/cancel`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('<h1>Cancel this booking?</h1>');
    expect(confirm.text).toContain('<label for="f-reason">Reason</label>');
    // A reception booking was not paid online: nothing to refund.
    expect(confirm.text).not.toContain('name="refund"');

    const cancelled = await h.staff.submit(`${bookingPath(id)}/cancel`, { reason: 'Guest called: flight cancelled' });
    expect(cancelled.status).toBe(200);
    const text = textOf(cancelled.text);
    expect(text).toContain('Booking cancelled: the room is free again for its nights.');
    expect(text).toContain('Status Cancelled');
    expect(text).toMatch(new RegExp(`Cancelled by ${h.staff.email.replace(/[.]/g, '\\.')}, \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d`));
    expect(text).toContain('Cancellation reason Guest called: flight cancelled');
    expect(offered(cancelled.text)).toEqual([]);
    expect(await freeRooms('2029-04-01', '2029-04-03')).toEqual(['101', '102', '103']);

    // A second cancel changes nothing and says so.
    const again = await h.staff.submit(`${bookingPath(id)}/cancel`, { reason: 'twice' });
    expect(textOf(again.text)).toContain('This booking was already cancelled: nothing changed.');
    expect(textOf(again.text)).toContain('Cancellation reason Guest called: flight cancelled');
  });
});

describe('Change', () => {
  it('moves the dates: the old nights are free, the new ones taken', async () => {
    const id = await deskBooking('102', '2029-05-01', '2029-05-03');
    const form = await h.staff.get(`${bookingPath(id)}/change`);
    expect(form.status).toBe(200);
    expect(form.text).toMatch(/id="f-check_in_date" name="check_in_date" type="date" value="2029-05-01"/);
    // The dates first: no room is offered before them.
    expect(form.text).not.toContain('name="room_id"');
    // Then only the rooms free for them (101 is taken on the 11th), each with the stay's price; both totals shown.
    await deskBooking('101', '2029-05-11', '2029-05-12', 'Other Guest');
    const rooms = await h.staff.get(`${bookingPath(id)}/change?check_in_date=2029-05-10&check_out_date=2029-05-13&guests=2`);
    expect(rooms.status).toBe(200);
    expect(rooms.text).toContain(`<option value="${h.rooms.get('102')}" selected>102 · double · 360.00 USD for 3 nights</option>`);
    expect(rooms.text).not.toContain(`<option value="${h.rooms.get('101')}"`);
    expect(textOf(rooms.text)).toContain('Recalculate the total: 360.00 USD');
    expect(textOf(rooms.text)).toContain('Keep the total: 240.00 USD');
    expect(rooms.text).toMatch(/<input type="radio" id="f-total" name="total" value="recalculate" checked/);

    const changed = await h.staff.submit(`${bookingPath(id)}/change`, { check_in_date: '2029-05-10', check_out_date: '2029-05-13', room_id: h.rooms.get('102')!, guests: '2', total: 'recalculate' });
    const text = textOf(changed.text);
    expect(text).toContain('Booking changed: Thu 10 May 2029 to Sun 13 May 2029, 3 nights, 2 guests. Total 360.00 USD.');
    expect(text).toContain('Total 360.00 USD Balance due 360.00 USD');
    expect(text).toContain('Check-in Thu 10 May 2029 Check-out Sun 13 May 2029 Nights 3');
    expect(await freeRooms('2029-05-01', '2029-05-03')).toContain('102');
    expect(await freeRooms('2029-05-10', '2029-05-13')).not.toContain('102');
  });

  it('shows a clash as the ROOM_NOT_AVAILABLE refusal in the notice style, the typed values kept, and changes nothing', async () => {
    await deskBooking('101', '2029-06-01', '2029-06-04', 'First Guest');
    const id = await deskBooking('103', '2029-06-02', '2029-06-03', 'Second Guest');
    const clash = await h.staff.request('POST', `${bookingPath(id)}/change`, { check_in_date: '2029-06-02', check_out_date: '2029-06-05', room_id: h.rooms.get('101')!, guests: '2' });
    expect(clash.status).toBe(409);
    expect(clash.text).toMatch(/<div class="notice error" role="alert"><p>Room 101 is not available from Sat 2 Jun 2029 to Tue 5 Jun 2029: the room is already booked for some of these nights\. Nothing was changed/);
    expect(clash.text).toContain('<input type="hidden" name="check_out_date" value="2029-06-05"/>');
    // The rooms offered again are the free ones only.
    expect(clash.text).not.toContain(`<option value="${h.rooms.get('101')}"`);

    const page = textOf((await h.staff.get(bookingPath(id))).text);
    expect(page).toContain('Check-in Sat 2 Jun 2029 Check-out Sun 3 Jun 2029');
    expect(page).toContain('Room Room 103');
    expect(await freeRooms('2029-06-02', '2029-06-03')).toEqual(['102']);
  });

  it('refuses a stay that is no stay beside its field (400)', async () => {
    const id = await deskBooking('102', '2029-07-01', '2029-07-03');
    const invalid = await h.staff.request('POST', `${bookingPath(id)}/change`, { check_in_date: '2029-07-05', check_out_date: '2029-07-04', room_id: h.rooms.get('102')!, guests: '2' });
    expect(invalid.status).toBe(400);
    expect(fieldError(invalid.text, 'check_out_date')).toBe('Check-out must be after check-in');
    expect(textOf((await h.staff.get(bookingPath(id))).text)).toContain('Check-in Sun 1 Jul 2029');
  });
});

describe('Mark no-show', () => {
  it("is offered only once the check-in day has passed in the hotel's time zone; then the room is free from today", async () => {
    const [{ setClientSettings }, { localDate }, { addDays }, { createReceptionBooking }] = await Promise.all([
      import('../../shared/domain/clients'),
      import('../../shared/domain/hotel-time'),
      import('../../shared/schemas/common'),
      import('../../shared/domain/bookings/reception-bookings'),
    ]);
    const zone = 'Pacific/Kiritimati';
    await setClientSettings(h.tenant.clientId, { time_zone: zone });
    const today = localDate(zone, new Date());
    // Booked before they were due (reception refuses a check-in in the past).
    const booked = async (checkIn: string, room: string) =>
      (await createReceptionBooking(h.tenant.clientId, h.rooms.get(room)!, { guest_name: 'Late Guest', guest_email: 'late@example.com', check_in_date: checkIn, check_out_date: addDays(today, 2), guests: 1, total_amount: 100 }, new Date(Date.now() - 3 * 86_400_000))).booking.id;
    const arrivingToday = await booked(today, '101');
    const dueYesterday = await booked(addDays(today, -1), '102');

    const todays = await h.staff.get(bookingPath(arrivingToday));
    expect(offered(todays.text)).toEqual(['Change', 'Cancel booking']);
    const early = await h.staff.submit(`${bookingPath(arrivingToday)}/no-show`);
    expect(textOf(early.text)).toContain('Status Confirmed');
    expect(early.text).toContain('role="alert"');

    expect(offered((await h.staff.get(bookingPath(dueYesterday))).text)).toEqual(['Change', 'Cancel booking', 'Mark no-show']);
    expect(await freeRooms(today, addDays(today, 1))).not.toContain('102');
    const marked = await h.staff.submit(`${bookingPath(dueYesterday)}/no-show`);
    expect(textOf(marked.text)).toContain('Marked as a no-show');
    expect(textOf(marked.text)).toContain('Status No-show');
    expect(offered(marked.text)).toEqual([]);
    expect(await freeRooms(today, addDays(today, 1))).toContain('102');
    await setClientSettings(h.tenant.clientId, { time_zone: null });
  });
});

describe('Refund', () => {
  it('refunds part of a paid order from the Payments page, then what is left; never more than was paid', async () => {
    const paid = await paidRoomBooking(stack, h.tenant, { check_in_date: '2029-08-01', check_out_date: '2029-08-03' });
    const path = `/dashboard/payments/${paid.orderReference}`;
    const page = await h.staff.get(path);
    expect(page.text).toContain('<h2>Refunds</h2>');
    expect(textOf(page.text)).toContain('Leave it empty to refund what is left: 240.00 USD.');
    // "Refund" opens a page of its own: the amount stated, a reason asked, nothing refunded yet.
    const opened = await h.staff.get(`${path}/refunds?refund_amount=`);
    expect(opened.status).toBe(200);
    expect(textOf(opened.text)).toContain('This refunds 240.00 USD (the whole payment) to the guest');
    expect(opened.text).toContain('>Confirm refund</button>');
    const unconfirmed = await h.staff.request('POST', `${path}/refunds`, { refund_amount: '240.00', refund_reason: '' });
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.text).toContain('>Confirm refund</button>');
    expect((await orderStatus(stack, h.tenant, paid.orderReference)).body).toMatchObject({ status: 'paid' });

    const part = await h.staff.submit(`${path}/refunds`, { refund_amount: '50.00', refund_reason: 'Late check-in', confirm: 'yes' });
    const text = textOf(part.text);
    expect(text).toContain('Refunded 50.00 USD.');
    expect(text).toContain('Status Partially refunded Refunded 50.00 USD');
    expect(text).toMatch(/Refunded 50\.00 USD of 240\.00 USD paid\. At Amount Status Reason \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d 50\.00 USD Refunded Late check-in/);
    expect((await orderStatus(stack, h.tenant, paid.orderReference)).body).toMatchObject({ status: 'partially_refunded' });

    const tooMuch = await h.staff.request('POST', `${path}/refunds`, { refund_amount: '200', refund_reason: '', confirm: 'yes' });
    expect(tooMuch.status).toBe(400);
    expect(fieldError(tooMuch.text, 'refund_amount')).toBe('Enter at most 190.00 USD: that is what is left to refund');
    expect(tooMuch.text).toContain('value="200"');

    const rest = await h.admin.submit(`${path}/refunds`, { refund_amount: '', refund_reason: '', confirm: 'yes' });
    expect(textOf(rest.text)).toContain('Refunded 190.00 USD.');
    expect(textOf(rest.text)).toContain('Status Refunded');
    expect(rest.text).not.toContain('>Refund</button>');
    expect((await orderStatus(stack, h.tenant, paid.orderReference)).body).toMatchObject({ status: 'refunded' });
  });

  it('cancels a paid-order booking with part of its payment refunded, from the booking page', async () => {
    const paid = await paidRoomBooking(stack, h.tenant, { check_in_date: '2029-09-01', check_out_date: '2029-09-03' });
    const id = paid.sync.booking_id;
    const confirm = await h.staff.get(`${bookingPath(id)}/cancel`);
    expect(textOf(confirm.text)).toContain('Refund in full: 240.00 USD');
    expect(confirm.text).toMatch(/<input type="radio" id="f-refund" name="refund" value="none" checked/);

    const missing = await h.staff.request('POST', `${bookingPath(id)}/cancel`, { reason: 'Hotel overbooked', refund: 'amount', refund_amount: '' });
    expect(missing.status).toBe(400);
    expect(fieldError(missing.text, 'refund_amount')).toBe('Enter the amount to refund, at most 240.00 USD');

    const cancelled = await h.staff.submit(`${bookingPath(id)}/cancel`, { reason: 'Hotel overbooked', refund: 'amount', refund_amount: '100' });
    const text = textOf(cancelled.text);
    expect(text).toContain('Booking cancelled: the room is free again for its nights. Refunded 100.00 USD.');
    expect(text).toContain('Refunded 100.00 USD of 240.00 USD paid.');
    expect((await orderStatus(stack, h.tenant, paid.orderReference)).body).toMatchObject({ status: 'partially_refunded' });
    // What is left can still be refunded from the booking's page (its own function).
    expect(cancelled.text).toContain(`action="/dashboard/bookings/${id}/refund"`);
    const tooMuch = await h.staff.request('POST', `${bookingPath(id)}/refund`, { refund_amount: '150', refund_reason: '', confirm: 'yes' });
    expect(tooMuch.status).toBe(400);
    expect(fieldError(tooMuch.text, 'refund_amount')).toBe('Enter at most 140.00 USD: that is what is left to refund');
    expect(textOf(tooMuch.text)).toContain('Left to refund 140.00 USD');
    const rest = await h.staff.submit(`${bookingPath(id)}/refund`, { refund_amount: '', refund_reason: 'Goodwill', confirm: 'yes' });
    expect(textOf(rest.text)).toContain('Refunded 140.00 USD.');
    expect(textOf(rest.text)).toContain('Refunded 240.00 USD of 240.00 USD paid.');
    // The story tells every e-mail the guest was sent: both refunds' too.
    expect(textOf(rest.text).match(/Refund e-mail (sent )?to ada@example\.com/g)).toHaveLength(2);
    // Audited, about the order: by whom, with its reason.
    const audit = textOf((await h.staff.get(`/dashboard/audit?target=${paid.orderReference}`)).text);
    expect(audit).toContain(h.staff.email);
    expect(audit).toContain('Goodwill');
    expect(rest.text).not.toContain('>Refund</button>');
    expect((await orderStatus(stack, h.tenant, paid.orderReference)).body).toMatchObject({ status: 'refunded' });
  });
});

describe('who may do what', () => {
  it("leaves a PMS booking to the PMS, and answers 404 for another hotel's booking", async () => {
    const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: { external_source: 'pms', bookings: [{ external_booking_id: 'PMS-9', external_room_id: 'R103', guest_name: 'Sync Guest', guests: 1, check_in_date: '2029-10-01', check_out_date: '2029-10-02', status: 'confirmed' }] },
    });
    const syncedId: string = synced.body.items[0].id;
    expect(offered((await h.staff.get(bookingPath(syncedId))).text)).toEqual([]);
    const refused = await h.staff.submit(`${bookingPath(syncedId)}/cancel`, { reason: 'no' });
    expect(textOf(refused.text)).toContain('This booking came from your PMS: it can only be cancelled there.');
    expect(textOf(refused.text)).toContain('Status Confirmed');

    const id = await deskBooking('101', '2029-10-05', '2029-10-06');
    const other = await signedInOperator(stack, (await stack.createTenant()).clientId, 'admin');
    for (const path of [`${bookingPath(id)}/change`, `${bookingPath(id)}/cancel`]) expect((await other.get(path)).status, path).toBe(404);
    for (const path of [`${bookingPath(id)}/cancel`, `${bookingPath(id)}/no-show`, `${bookingPath(id)}/change`]) expect((await other.request('POST', path, { reason: 'x' })).status, path).toBe(404);
    expect(textOf((await h.staff.get(bookingPath(id))).text)).toContain('Status Confirmed');
  });

  it('lets only admins set the free-cancellation window (default 48 hours)', async () => {
    expect((await h.staff.get('/dashboard/settings')).status).toBe(403);
    const page = await h.admin.get('/dashboard/settings');
    expect(page.text).toContain('<label for="f-free_cancellation_hours">Free cancellation (hours before check-in)</label>');
    expect(page.text).toMatch(/name="free_cancellation_hours" type="number"[^>]* value="48"/);
    const current = { time_zone: 'UTC', taxes_included: 'unset', cancellation_policy: '', check_in_time: '', address: '' };
    const invalid = await h.admin.request('POST', '/dashboard/settings', { ...current, free_cancellation_hours: 'two days' });
    expect(invalid.status).toBe(400);
    expect(fieldError(invalid.text, 'free_cancellation_hours')).toBe('Enter a whole number of hours from 0 to 8,760, such as 48');
    const saved = await h.admin.submit('/dashboard/settings', { ...current, free_cancellation_hours: '24' });
    expect(textOf(saved.text)).toContain('Hotel settings saved: free cancellation (hours before check-in).');
    expect(saved.text).toMatch(/name="free_cancellation_hours" type="number"[^>]* value="24"/);
  });
});
