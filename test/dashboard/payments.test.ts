/**
 * The dashboard's Payments page over HTTP: the client's payment orders newest first with what
 * they pay for and their amounts with the currency, statuses in words; a paid sandbox order with
 * its attempts, provider events, transactions, the booking it became and its room; pages; and
 * another client's order answering 404.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { type BookingSync, paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const ORDERS = '/api/v1/payments/payment-orders';

let stack: TestStack;
let tenant: Tenant;
let staff: DashboardClient;
let paid: { orderReference: string; sync: BookingSync };

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  staff = await signedInOperator(stack, tenant.clientId, 'staff');
  paid = await paidRoomBooking(stack, tenant, { check_in_date: '2027-11-10', check_out_date: '2027-11-12', guests: 2 });
});

afterAll(async () => {
  await stack?.stop();
});

/** An order left open on its checkout (processing); its order reference. */
async function openOrder(of: Tenant, amountMinor: number, currency: string): Promise<string> {
  const created = await stack.request('POST', ORDERS, {
    key: of.paymentKey,
    body: {
      reference: `INV-${randomUUID()}`,
      amount_minor: amountMinor,
      currency,
      customer: { email: 'grace@example.com' },
      success_url: 'https://partner.example/return',
      cancel_url: 'https://partner.example/cancel',
    },
  });
  expect(created.status).toBe(201);
  return created.body.order_reference as string;
}

const rowOf = (html: string, text: string) => html.split('<tr>').find((row) => row.includes(text))?.split('</tr>')[0];

function nextPage(html: string): string | undefined {
  const match = /<a href="([^"]+)">Next page<\/a>/.exec(html);
  return match ? match[1]!.replace(/&amp;/g, '&') : undefined;
}

describe('Payments', () => {
  it('lists the orders newest first with their amounts, status and times', async () => {
    const yen = await openOrder(tenant, 125000, 'JPY');
    const list = await staff.get('/dashboard/payments');
    expect(list.status).toBe(200);
    const paidRow = textOf(rowOf(list.text, paid.orderReference)!);
    expect(paidRow).toMatch(
      new RegExp(
        `^${paid.orderReference} Room booking: Wed 10 Nov 2027 to Fri 12 Nov 2027, 2 nights, 2 guests \\(reference INV-[0-9a-f-]{36}\\) 240\\.00 USD Paid \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d Ada Lovelace \\(ada@example\\.com\\)$`,
      ),
    );
    expect(textOf(rowOf(list.text, yen)!)).toMatch(/ INV-[0-9a-f-]{36} 125,000 JPY In progress \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d — grace@example\.com$/);
    // Newest first.
    expect(list.text.indexOf(yen)).toBeLessThan(list.text.indexOf(paid.orderReference));
    expect(list.text).toContain(`href="/dashboard/payments/${paid.orderReference}"`);
  });

  it('shows a paid order with its attempts, provider events, transactions, booking and room, in words', async () => {
    const page = await staff.get(`/dashboard/payments/${paid.orderReference}`);
    expect(page.status).toBe(200);
    for (const heading of ['Attempts', 'Provider events', 'Transactions']) expect(page.text).toContain(`<h2>${heading}</h2>`);
    const text = textOf(page.text);
    expect(text).toContain(`Payment order ${paid.orderReference}`);
    expect(text).toMatch(/Amount 240\.00 USD Status Paid /);
    expect(text).toContain('For Room booking: Wed 10 Nov 2027 to Fri 12 Nov 2027, 2 nights, 2 guests');
    expect(text).toContain(`Booking ${paid.sync.booking_reference} (confirmation code ${paid.sync.confirmation_code}) Room Awaiting a room`);
    // No internal id: not the order's own id (the partner's reference is theirs).
    expect(text).not.toContain('Payment order id');
    expect(page.text).toContain(`href="/dashboard/bookings/${paid.sync.booking_id}"`);
    const sections = page.text.split('<h2>');
    const section = (name: string) => textOf(sections.find((s) => s.startsWith(`${name}</h2>`))!);
    expect(section('Attempts')).toMatch(/^Attempts Attempt Provider Provider reference Outcome Created Updated 1 Sandbox \(test payments\) \S+ Paid /);
    expect(section('Provider events')).not.toContain('No provider events');
    expect(section('Transactions')).toMatch(/Payment 240\.00 USD Sandbox \(test payments\)/);
  });

  it("answers 404 for another client's order and for one that does not exist", async () => {
    const other = await stack.createTenant();
    const theirs = await openOrder(other, 5000, 'EUR');
    const page = await staff.get(`/dashboard/payments/${theirs}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('50.00 EUR');
    expect((await staff.get('/dashboard/payments')).text).not.toContain(theirs);
    expect((await staff.get('/dashboard/payments/PO-nothing-here')).status).toBe(404);
    // Their operator sees it.
    const theirOperator = await signedInOperator(stack, other.clientId, 'staff');
    expect(textOf((await theirOperator.get(`/dashboard/payments/${theirs}`)).text)).toMatch(/Amount 50\.00 EUR Status In progress/);
  });

  it('pages through every order once', async () => {
    const client = await stack.createTenant();
    const operator = await signedInOperator(stack, client.clientId, 'staff');
    const made = new Set<string>();
    for (let i = 0; i < 5; i++) made.add(await openOrder(client, 1000 + i, 'GBP'));
    const seen: string[] = [];
    let path: string | undefined = '/dashboard/payments?limit=2';
    for (let pages = 1; path; pages++) {
      const page = await operator.get(path);
      expect(page.status).toBe(200);
      const rows = [...page.text.matchAll(/href="\/dashboard\/payments\/([^"]+)"/g)].map((m) => m[1]!);
      expect(rows.length).toBeLessThanOrEqual(2);
      seen.push(...rows);
      path = nextPage(page.text);
      expect(pages).toBeLessThan(10);
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(made);

    const bad = await operator.get('/dashboard/payments?cursor=bm90LWEtY3Vyc29y');
    expect(bad.status).toBe(400);
    expect(textOf(bad.text)).toContain('cursor: is not a cursor of this list');
  });
});
