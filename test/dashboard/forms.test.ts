/**
 * The dashboard's forms for people in the GOV.UK pattern (an error summary at the top linking to
 * each field, the message in plain words beside the field, what was typed kept, passwords never):
 * sign-in, the first new password, Rooms' "Add room" and the Bookings filters; and the Rooms
 * list in words: category, price a night with its currency, state.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardClient, OPERATOR_PASSWORD, signedInOperator, textOf } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let clientId: string;
let staff: DashboardClient;

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount } = await import('../../shared/domain/clients');
  clientId = (await createClientAccount({ name: 'Forms hotel', plan: 'premium', currency: 'EUR' })).client_id;
  staff = await signedInOperator(stack, clientId, 'staff');
});

afterAll(async () => {
  await stack?.stop();
});

/** The error summary's entries: where each links and what it says. */
function summary(html: string): { href: string; text: string }[] {
  const box = html.match(/<div class="error-summary"[\s\S]*?<\/ul>/)?.[0] ?? '';
  return [...box.matchAll(/<a href="([^"]+)">([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!, text: textOf(m[2]!) }));
}
const fieldError = (html: string, name: string) => html.match(new RegExp(`id="f-${name}-error"[^>]*>([^<]*)<`))?.[1];
const valueOf = (html: string, name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`))?.[1];
/** Each linked field exists on the page under the id the summary links to. */
const expectTargets = (html: string) => {
  for (const { href } of summary(html)) expect(html).toContain(`id="${href.slice(1)}"`);
};

describe('sign-in', () => {
  it('says which field is empty, and keeps the e-mail', async () => {
    const visitor = new DashboardClient(stack, 'someone@hotel.example');
    const page = await visitor.request('POST', '/dashboard/sign-in', { email: 'someone@hotel.example', password: '' });
    expect(page.status).toBe(400);
    expect(summary(page.text)).toEqual([{ href: '#f-password', text: 'Enter your password' }]);
    expect(fieldError(page.text, 'password')).toBe('Enter your password');
    expect(valueOf(page.text, 'email')).toBe('someone@hotel.example');
    expectTargets(page.text);
    const none = await visitor.request('POST', '/dashboard/sign-in', { email: '', password: '' });
    expect(summary(none.text).map((e) => e.text)).toEqual(['Enter your email address', 'Enter your password']);
  });

  it('answers a wrong password in the summary and by the password field, keeping the e-mail and never the password', async () => {
    const { createOperator } = await import('../../shared/domain/operators');
    const email = `desk-${randomUUID().slice(0, 8)}@hotel.example`;
    await createOperator({ clientId, email, role: 'staff', password: OPERATOR_PASSWORD });
    const page = await new DashboardClient(stack, email).signIn('Wrong-password-1');
    expect(page.status).toBe(401);
    expect(summary(page.text)).toEqual([{ href: '#f-password', text: 'Incorrect email or password' }]);
    expect(fieldError(page.text, 'password')).toBe('Incorrect email or password');
    expect(valueOf(page.text, 'email')).toBe(email);
    expect(page.text).not.toContain('Wrong-password-1');
  });

  it('shows a refused new password in the summary, linking to the field', async () => {
    const { createOperator } = await import('../../shared/domain/operators');
    const email = `new-${randomUUID().slice(0, 8)}@hotel.example`;
    const created = await createOperator({ clientId, email, role: 'staff' });
    const visitor = new DashboardClient(stack, email);
    const challenge = await visitor.signIn(created.temporary_password!);
    const session = /name="session" value="([^"]+)"/.exec(challenge.text)?.[1];
    const weak = await visitor.submit('/dashboard/new-password', { email, session: session!, new_password: 'short' });
    expect(weak.status).toBe(400);
    const [entry] = summary(weak.text);
    expect(entry).toMatchObject({ href: '#f-new_password' });
    expect(entry!.text).toMatch(/^The password needs at least 12 characters/);
    expect(fieldError(weak.text, 'new_password')).toBe(entry!.text);
    expect(weak.text).not.toContain('value="short"');
    expectTargets(weak.text);
  });
});

describe('Rooms', () => {
  it('lists each room with its category, price a night with the currency, and its state in words', async () => {
    const added = await staff.submit('/dashboard/rooms', { room_number: '201', room_type: 'Double', price: '120', max_occupancy: '2' });
    expect(added.status).toBe(200);
    expect(textOf(added.text)).toContain('Room 201 was added.');
    const row = textOf(added.text.match(/<tr>\s*<td>201<\/td>[\s\S]*?<\/tr>/)?.[0] ?? '');
    expect(row).toBe('201 Double 120.00 EUR up to 2 Added here; not linked to your PMS yet Free tonight');
    for (const raw of ['>active<', '>inactive<', '120 EUR']) expect(added.text).not.toContain(raw);
  });

  it('shows every problem of "Add room" in plain words, in a summary linking to each field, with what was typed kept', async () => {
    const page = await staff.request('POST', '/dashboard/rooms', { room_number: '', room_type: 'Suite <b>', price: 'a lot', max_occupancy: '0' });
    expect(page.status).toBe(400);
    expect(summary(page.text)).toEqual([
      { href: '#f-room_number', text: 'Enter the room number' },
      { href: '#f-price', text: 'Enter the price a night as an amount, like 120 or 120.50' },
      { href: '#f-max_occupancy', text: 'A room takes at least 1 guest' },
    ]);
    expect(fieldError(page.text, 'price')).toBe('Enter the price a night as an amount, like 120 or 120.50');
    expect(valueOf(page.text, 'room_type')).toMatch(/^Suite &lt;b(>|&gt;)$/);
    expect(valueOf(page.text, 'price')).toBe('a lot');
    expectTargets(page.text);

    await staff.submit('/dashboard/rooms', { room_number: '301', room_type: 'Single', price: '80', max_occupancy: '1' });
    const twice = await staff.request('POST', '/dashboard/rooms', { room_number: '301', room_type: 'Single', price: '80', max_occupancy: '1' });
    expect(twice.status).toBe(422);
    expect(summary(twice.text)).toEqual([{ href: '#f-room_number', text: 'Room 301 already exists: enter another room number' }]);
  });
});

describe('the Bookings filters', () => {
  it('offers statuses and origins in words, and shows a refused filter in a summary linking to its field', async () => {
    const page = await staff.get('/dashboard/bookings');
    for (const words of ['<option value="checked_in">Checked in</option>', '<option value="reception">Reception</option>', '<option value="sync">From your PMS</option>']) {
      expect(page.text).toContain(words);
    }
    const reversed = await staff.get('/dashboard/bookings?from=2029-03-05&to=2029-03-01');
    expect(reversed.status).toBe(400);
    expect(summary(reversed.text)).toEqual([{ href: '#f-to', text: 'To must be the same day as From or later' }]);
    expect(valueOf(reversed.text, 'from')).toBe('2029-03-05');
    expectTargets(reversed.text);
    const unknown = await staff.get('/dashboard/bookings?from=2029-02-30&status=lost&origin=walk-in');
    expect(unknown.status).toBe(400);
    expect(summary(unknown.text)).toEqual([
      { href: '#f-from', text: 'Enter a real date for From, like 2027-03-01' },
      { href: '#f-status', text: 'Choose a status from the list' },
      { href: '#f-origin', text: 'Choose an origin from the list' },
    ]);
    expect(fieldError(unknown.text, 'origin')).toBe('Choose an origin from the list');
    expectTargets(unknown.text);
  });
});
