/**
 * "New booking" at the reception desk over HTTP, dates first: the stay, then only the rooms free
 * for it (number, category, price a night), then the guest with the total filled in from price x
 * nights and editable, an e-mail or a phone; errors in the GOV.UK pattern (a summary linking to
 * each field, the message by the field, what was typed kept); a room taken meanwhile named by
 * its number, with the rooms free now; the dates checked in the hotel's own today.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardClient, type PageResponse, signedInOperator, textOf } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

interface Hotel {
  clientId: string;
  syncKey: string;
  /** Room number to room id. */
  rooms: Map<string, string>;
  staff: DashboardClient;
}

/**
 * A hotel in EUR (and in `timeZone`) with rooms 101 (Deluxe, 120 a night, 2 guests), 102 and 103
 * (Standard, 90 a night; 2 and 4 guests) synced from its PMS, and a signed-in staff operator.
 */
async function hotel(timeZone?: string): Promise<Hotel> {
  const { createClientAccount } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: `Hotel ${randomUUID().slice(0, 6)}`, plan: 'premium', currency: 'EUR', ...(timeZone ? { time_zone: timeZone } : {}) });
  const { key: syncKey } = await stack.issueKey(client.client_id, 'sync');
  const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key: syncKey,
    body: { external_source: 'pms', categories: [{ external_category_id: 'DLX', name: 'Deluxe' }, { external_category_id: 'STD', name: 'Standard' }] },
  });
  expect(categories.status).toBe(200);
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: syncKey,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', external_category_id: 'DLX', price: 120, max_occupancy: 2 },
        { external_room_id: 'R102', room_number: '102', room_type: 'double', external_category_id: 'STD', price: 90, max_occupancy: 2 },
        { external_room_id: 'R103', room_number: '103', room_type: 'family', external_category_id: 'STD', price: 90, max_occupancy: 4 },
      ],
    },
  });
  expect(put.status).toBe(200);
  const rooms = new Map<string, string>(put.body.items.map((item: { external_room_id: string; id: string }) => [item.external_room_id.slice(1), item.id]));
  return { clientId: client.client_id, syncKey, rooms, staff: await signedInOperator(stack, client.client_id, 'staff') };
}

interface Stay {
  check_in_date: string;
  check_out_date: string;
  guests: string;
}

const NEW = '/dashboard/bookings/new';
const query = (params: Record<string, string>) => `${NEW}?${new URLSearchParams(params)}`;

/** The labels of the rooms offered as radios, in order. */
const offeredRooms = (html: string) => [...html.matchAll(/<label for="f-room_id(?:-\d+)?">([^<]*)</g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
/** The message shown next to a form field (`f-<name>-error`). */
const fieldError = (html: string, name: string) => html.match(new RegExp(`id="f-${name}-error"[^>]*>([^<]*)<`))?.[1];
/** The error summary's entries: where each links and what it says. */
function summary(html: string): { href: string; text: string }[] {
  const box = html.match(/<div class="error-summary"[\s\S]*?<\/ul>/)?.[0] ?? '';
  return [...box.matchAll(/<a href="([^"]+)">([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!, text: textOf(m[2]!) }));
}
/** The value of a page's input. */
const valueOf = (html: string, name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`))?.[1];

async function syncBooking(h: Hotel, room: string, checkIn: string, checkOut: string) {
  const put = await stack.request('PUT', '/api/v1/property-sync/bookings', {
    key: h.syncKey,
    body: { external_source: 'pms', bookings: [{ external_booking_id: `P-${randomUUID().slice(0, 8)}`, external_room_id: `R${room}`, guest_name: 'PMS Guest', guests: 1, check_in_date: checkIn, check_out_date: checkOut, status: 'confirmed' }] },
  });
  expect(put.status).toBe(200);
}

async function bookingOf(h: Hotel, posted: PageResponse) {
  expect(posted.status, textOf(posted.text).slice(0, 400)).toBe(303);
  const id = posted.location!.match(/^\/dashboard\/bookings\/([0-9a-f-]{36})$/)?.[1];
  const { getBooking } = await import('../../shared/store/booking-store');
  return (await getBooking(h.clientId, id!))!;
}

const details = (h: Hotel, stay: Stay, room: string, guest: Record<string, string> = {}) => ({
  ...stay,
  room_id: h.rooms.get(room)!,
  guest_name: 'Desk Guest',
  guest_email: 'desk@example.com',
  guest_phone: '',
  total_amount: '',
  ...guest,
});

describe('New booking, dates first', () => {
  let h: Hotel;

  beforeAll(async () => {
    h = await hotel();
  });

  it('asks for the dates and guests first, in a GET form that needs no script', async () => {
    const page = await h.staff.get(NEW);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>New booking</h1>');
    expect(page.text).toMatch(/<form method="get" action="\/dashboard\/bookings\/new"/);
    for (const [name, label, type] of [['check_in_date', 'Check-in', 'date'], ['check_out_date', 'Check-out', 'date'], ['guests', 'Guests', 'number']]) {
      expect(page.text).toContain(`<label for="f-${name}">${label}</label>`);
      expect(page.text).toMatch(new RegExp(`name="${name}" type="${type}"`));
    }
    expect(page.text).toContain('<button type="submit">Find rooms</button>');
    expect(textOf(page.text)).toMatch(/Today at the hotel is \d{4}-\d{2}-\d{2} \(UTC time\)/);
    // No room and no guest detail is asked for before the stay.
    expect(offeredRooms(page.text)).toEqual([]);
    expect(page.text).not.toContain('Guest name');
  });

  it('offers only the rooms free for the whole stay and big enough, each with its number, category, price a night and the stay\'s total', async () => {
    await syncBooking(h, '102', '2029-04-02', '2029-04-04');
    const stay = { check_in_date: '2029-04-01', check_out_date: '2029-04-03', guests: '2' };
    const page = await h.staff.get(query(stay));
    expect(page.status).toBe(200);
    expect(offeredRooms(page.text)).toEqual(['101 · Deluxe · 120.00 EUR a night', '103 · Standard · 90.00 EUR a night']);
    const text = textOf(page.text);
    expect(text).toContain('240.00 EUR for 2 nights · up to 2 guests');
    expect(text).toContain('180.00 EUR for 2 nights · up to 4 guests');
    expect(text).toContain('Check-out Tue 3 Apr 2029 (2 nights)');
    // The stay is kept when the desk goes back to change it.
    const change = page.text.match(/<a href="([^"]+)">Change dates or guests<\/a>/)?.[1]?.replace(/&amp;/g, '&');
    const back = await h.staff.get(change!);
    expect(valueOf(back.text, 'check_in_date')).toBe('2029-04-01');
    expect(valueOf(back.text, 'guests')).toBe('2');
    expect(offeredRooms(back.text)).toEqual([]);

    expect(offeredRooms((await h.staff.get(query({ ...stay, guests: '3' }))).text)).toEqual(['103 · Standard · 90.00 EUR a night']);
    // The night after the PMS booking, 102 is free again.
    expect(offeredRooms((await h.staff.get(query({ check_in_date: '2029-04-04', check_out_date: '2029-04-05', guests: '1' }))).text)).toEqual([
      '101 · Deluxe · 120.00 EUR a night',
      '102 · Standard · 90.00 EUR a night',
      '103 · Standard · 90.00 EUR a night',
    ]);
  });

  it('fills in the total from price x nights for the chosen room, and books the total as edited', async () => {
    const stay = { check_in_date: '2029-05-01', check_out_date: '2029-05-04', guests: '2' };
    const page = await h.staff.get(query({ ...stay, step: 'details', room_id: h.rooms.get('101')! }));
    expect(page.status).toBe(200);
    expect(valueOf(page.text, 'total_amount')).toBe('360.00');
    expect(page.text).toContain('<label for="f-total_amount">Total (EUR)</label>');
    expect(textOf(page.text)).toContain('120.00 EUR a night × 3 nights');
    expect(textOf(page.text)).toContain('Room 101 · Deluxe · 120.00 EUR a night');
    expect(page.text).toMatch(/<form method="post" action="\/dashboard\/bookings"/);
    for (const [name, label] of [['guest_name', 'Guest name'], ['guest_email', 'Email'], ['guest_phone', 'Phone']]) expect(page.text).toContain(`<label for="f-${name}">${label}</label>`);
    expect(textOf(page.text)).toContain('An email address or a phone number is enough.');

    const edited = await bookingOf(h, await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '101', { total_amount: '299.50' })));
    expect(edited).toMatchObject({ origin: 'reception', room_id: h.rooms.get('101'), total_amount: 299.5, status: 'confirmed', guests: 2 });
    // An emptied total is the room's price x nights.
    const later = { check_in_date: '2029-05-10', check_out_date: '2029-05-12', guests: '1' };
    expect(await bookingOf(h, await h.staff.request('POST', '/dashboard/bookings', details(h, later, '102')))).toMatchObject({ total_amount: 180 });

    const booked = await h.staff.get(`/dashboard/bookings/${edited.id}`);
    const notice = textOf(booked.text).match(/Booking (BK-[A-Z0-9]{8}) created\. Confirmation code: ([A-Z0-9]{6})\./);
    expect(notice).not.toBeNull();
    // The room leaves the rooms offered for those nights.
    expect(offeredRooms((await h.staff.get(query(stay))).text)).toEqual(['102 · Standard · 90.00 EUR a night', '103 · Standard · 90.00 EUR a night']);
  });

  it('takes an e-mail or a phone (one is enough), and says what is wrong in plain words next to each field, with the summary linking to it', async () => {
    const stay = { check_in_date: '2029-06-01', check_out_date: '2029-06-02', guests: '1' };
    const phoneOnly = await bookingOf(h, await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '101', { guest_email: '', guest_phone: '+44 20 7946 0958' })));
    expect(phoneOnly.guest_phone).toBe('+442079460958');
    expect(phoneOnly.guest_email).toBeUndefined();

    const neither = await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '102', { guest_email: '', guest_name: 'Kept Name', total_amount: '75.00' }));
    expect(neither.status).toBe(400);
    expect(summary(neither.text)).toEqual([{ href: '#f-guest_email', text: 'Enter an email address or a phone number' }]);
    expect(fieldError(neither.text, 'guest_email')).toBe('Enter an email address or a phone number');
    expect(valueOf(neither.text, 'guest_name')).toBe('Kept Name');
    expect(valueOf(neither.text, 'total_amount')).toBe('75.00');
    expect(neither.text).toMatch(/<input type="hidden" name="room_id" value="[0-9a-f-]{36}"/);

    const wrong = await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '102', { guest_name: '', guest_email: 'not-an-email', guest_phone: '12345', total_amount: 'lots' }));
    expect(wrong.status).toBe(400);
    expect(summary(wrong.text)).toEqual([
      { href: '#f-guest_name', text: "Enter the guest's name" },
      { href: '#f-guest_email', text: 'Enter an email address in the correct format, like name@example.com' },
      { href: '#f-guest_phone', text: 'Enter a phone number in international format, like +44 20 7946 0958' },
      { href: '#f-total_amount', text: 'Enter the total as an amount in EUR, like 240.00' },
    ]);
    expect(fieldError(wrong.text, 'guest_phone')).toBe('Enter a phone number in international format, like +44 20 7946 0958');
    expect(valueOf(wrong.text, 'guest_email')).toBe('not-an-email');
    expect(valueOf(wrong.text, 'guest_phone')).toBe('12345');
    for (const field of ['guest_name', 'guest_email', 'guest_phone', 'total_amount']) expect(wrong.text).toContain(`id="f-${field}"`);
    expect(textOf(wrong.text)).not.toMatch(/E\.164|must be/);
  });

  it('refuses a guest name with a line break or a web address, beside the field, booking nothing', async () => {
    const stay = { check_in_date: '2029-07-01', check_out_date: '2029-07-02', guests: '1' };
    for (const [name, words] of [
      ['Desk\nBcc: someone@example.com', 'The name must not contain line breaks or other control characters'],
      ['Book at https://elsewhere.example', 'The name must not contain a web address (http://, https://, www.)'],
    ] as const) {
      const refused = await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '101', { guest_name: name, guest_email: 'desk@example.com', total_amount: '120.00' }));
      expect(refused.status).toBe(400);
      expect(fieldError(refused.text, 'guest_name')).toBe(words);
    }
    const { listBookings } = await import('../../shared/store/booking-store');
    expect((await listBookings(h.clientId)).filter((b) => b.check_in_date === stay.check_in_date)).toEqual([]);
  });

  it('names a room taken between choosing it and "Create booking" by its number, and offers the rooms free now with the details kept', async () => {
    const stay = { check_in_date: '2029-07-01', check_out_date: '2029-07-03', guests: '2' };
    const chosen = await h.staff.get(query({ ...stay, step: 'details', room_id: h.rooms.get('101')! }));
    expect(valueOf(chosen.text, 'total_amount')).toBe('240.00');
    // Someone else books 101 meanwhile (another desk, the CLI).
    const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
    await createReceptionBooking(h.clientId, h.rooms.get('101')!, { ...stay, guest_name: 'Quicker Guest', guest_phone: '+14155550123' });

    const lost = await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '101', { guest_name: 'Slower Guest', guest_email: 'slow@example.com', total_amount: '240.00' }));
    expect(lost.status).toBe(409);
    const message = 'Room 101 was booked by someone else while you were choosing; choose another room';
    expect(summary(lost.text)).toEqual([{ href: '#f-room_id', text: message }]);
    expect(fieldError(lost.text, 'room_id')).toBe(message);
    expect(lost.text).toContain('id="f-room_id"');
    expect(offeredRooms(lost.text)).toEqual(['102 · Standard · 90.00 EUR a night', '103 · Standard · 90.00 EUR a night']);
    expect(valueOf(lost.text, 'guest_name')).toBe('Slower Guest');
    expect(valueOf(lost.text, 'guest_email')).toBe('slow@example.com');
    // The total was 101's price x nights: it is left to the room chosen now.
    expect(lost.text).toContain('id="f-total_amount"');
    expect(valueOf(lost.text, 'total_amount') ?? '').toBe('');
    expect(lost.text).not.toContain(h.rooms.get('101')!);
    expect(textOf(lost.text)).not.toContain('Cannot book');

    // The same room chosen on step 2 after it was taken: step 2 again, with the same words.
    const late = await h.staff.get(query({ ...stay, step: 'details', room_id: h.rooms.get('101')! }));
    expect(late.status).toBe(409);
    expect(fieldError(late.text, 'room_id')).toBe(message);
    expect(late.text).not.toContain(h.rooms.get('101')!);

    const booked = await bookingOf(h, await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '103', { guest_name: 'Slower Guest', guest_email: 'slow@example.com' })));
    expect(booked).toMatchObject({ room_id: h.rooms.get('103'), total_amount: 180 });
  });

  it('asks for a room when none was chosen', async () => {
    const stay = { check_in_date: '2029-08-01', check_out_date: '2029-08-02', guests: '1' };
    const none = await h.staff.get(query({ ...stay, step: 'details' }));
    expect(none.status).toBe(400);
    expect(summary(none.text)).toEqual([{ href: '#f-room_id', text: 'Choose a room' }]);
    expect(offeredRooms(none.text)).toHaveLength(3);
  });

  it('checks the dates and guests on the server, with the summary linking to each field and the values kept', async () => {
    const reversed = await h.staff.get(query({ check_in_date: '2029-09-03', check_out_date: '2029-09-01', guests: '0' }));
    expect(reversed.status).toBe(400);
    expect(summary(reversed.text)).toEqual([
      { href: '#f-check_out_date', text: 'Check-out must be after check-in' },
      { href: '#f-guests', text: 'A booking is for at least 1 guest' },
    ]);
    expect(fieldError(reversed.text, 'check_out_date')).toBe('Check-out must be after check-in');
    expect(valueOf(reversed.text, 'check_in_date')).toBe('2029-09-03');
    expect(valueOf(reversed.text, 'check_out_date')).toBe('2029-09-01');
    expect(offeredRooms(reversed.text)).toEqual([]);

    const empty = await h.staff.get(query({ check_in_date: '', check_out_date: '28/11/2029', guests: '' }));
    expect(empty.status).toBe(400);
    expect(summary(empty.text).map((e) => e.text)).toEqual(['Enter the check-in date', 'Enter a real check-out date, like 2027-03-03', 'Enter the number of guests']);
    expect(valueOf(empty.text, 'check_out_date')).toBe('28/11/2029');
  });

  it('shows what a guest typed as text, never as markup', async () => {
    const name = '<script>alert(1)</script>';
    const stay = { check_in_date: '2029-10-01', check_out_date: '2029-10-02', guests: '1' };
    const booking = await bookingOf(h, await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '101', { guest_name: name })));
    const refused = await h.staff.request('POST', '/dashboard/bookings', details(h, stay, '102', { guest_name: name, guest_email: '' }));
    for (const page of [await h.staff.get(`/dashboard/bookings/${booking.id}`), refused]) {
      expect(page.text).toMatch(/&lt;script(>|&gt;)alert\(1\)&lt;\/script(>|&gt;)/);
      expect(page.text).not.toContain('<script');
    }
  });
});

describe("the hotel's own today", () => {
  it('accepts the local today of a hotel east of UTC and refuses its local yesterday', async () => {
    const zone = 'Pacific/Kiritimati';
    const h = await hotel(zone);
    const { localDate } = await import('../../shared/domain/hotel-time');
    const { addDays } = await import('../../shared/schemas/common');
    const today = localDate(zone, new Date());
    const yesterday = addDays(today, -1);

    const refused = await h.staff.get(query({ check_in_date: yesterday, check_out_date: today, guests: '1' }));
    expect(refused.status).toBe(400);
    expect(summary(refused.text)).toEqual([{ href: '#f-check_in_date', text: `Check-in cannot be in the past: today at the hotel is ${today}` }]);
    expect(textOf(refused.text)).toContain(`Today at the hotel is ${today} (${zone} time)`);

    const tonight = await h.staff.get(query({ check_in_date: today, check_out_date: addDays(today, 1), guests: '1' }));
    expect(tonight.status).toBe(200);
    expect(offeredRooms(tonight.text)).toHaveLength(3);
  });
});

describe('the use case behind `ops bookings create`', () => {
  it('books with a phone alone, refuses neither with a plain message, and names a taken room by its number', async () => {
    const h = await hotel();
    const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
    const stay = { check_in_date: '2029-11-01', check_out_date: '2029-11-03', guests: '2' };
    const booked = await createReceptionBooking(h.clientId, h.rooms.get('101')!, { ...stay, guest_name: 'Walk In', guest_phone: '+14155550123', total_amount: '200' });
    expect(booked.booking).toMatchObject({ guest_phone: '+14155550123', total_amount: 200, payment_method: 'pay_at_property' });
    await expect(createReceptionBooking(h.clientId, h.rooms.get('102')!, { ...stay, guest_name: 'Walk In', total_amount: '200' })).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'guest_email', message: 'Enter an email address or a phone number' }],
    });
    await expect(createReceptionBooking(h.clientId, h.rooms.get('101')!, { ...stay, guest_name: 'Walk In', guest_email: 'w@example.com' })).rejects.toMatchObject({
      status: 409,
      code: 'ROOM_NOT_AVAILABLE',
      message: 'Room 101 is already booked for some of these nights: choose another room',
    });
    await expect(createReceptionBooking(h.clientId, h.rooms.get('102')!, { ...stay, guests: 3, guest_name: 'Walk In', guest_email: 'w@example.com' })).rejects.toMatchObject({
      status: 409,
      message: 'Room 102 takes at most 2 guests: choose another room',
    });
  });
});
