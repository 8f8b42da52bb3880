/**
 * The dashboard's Audit page over HTTP: the operator's retries on the Deliveries page recorded
 * with their e-mail, newest first, in words (what they did, to which booking; never an action's
 * code or an id); the entries about one record; pages; and only the operator's own client's entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let tenant: Tenant;
let staff: DashboardClient;
let domain: {
  audit: typeof import('../../shared/domain/audit');
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
};

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    audit: await import('../../shared/domain/audit'),
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
  };
  tenant = await stack.createTenant();
  staff = await signedInOperator(stack, tenant.clientId, 'staff');
  await domain.callbacks.configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** A reception booking whose callback the receiver refuses with 422: needs_review; its delivery id. */
async function needsReview(clientId: string): Promise<string> {
  receiver.respondWith(422);
  const confirmed = await domain.bookings.confirmServiceBooking(clientId, {
    origin: 'reception',
    requireRoom: false,
    guest_name: 'Ada Lovelace',
    guests: 1,
    check_in_date: '2027-09-01',
    check_out_date: '2027-09-02',
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  const id = confirmed.delivery_id!;
  await waitFor(`delivery ${id} needs_review`, async () => ((await domain.callbacks.showDelivery(id)).status === 'needs_review' ? true : undefined));
  return id;
}

/** The body rows of the audit table, as text. */
function rows(html: string): string[] {
  const body = html.split('<tbody>')[1]?.split('</tbody>')[0] ?? '';
  return body
    .split('<tr>')
    .slice(1)
    .map((row) => textOf(row.split('</tr>')[0]!));
}

function nextPage(html: string): string | undefined {
  const match = /<a href="([^"]+)">Next page<\/a>/.exec(html);
  return match ? match[1]!.replace(/&amp;/g, '&') : undefined;
}

const TIME = '\\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A string as a regular expression matching it literally. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The visible text of a page's main part (not the URLs of its links). */
const mainText = (html: string) => textOf(html.split('<main')[1]?.split('</main>')[0] ?? '');

describe('Audit', () => {
  it("lists the operator's retries newest first, with their e-mail and what they did to which booking, in words", async () => {
    const retried = await needsReview(tenant.clientId);
    expect((await staff.submit(`/dashboard/deliveries/${retried}/retry`, { back: 'detail' })).status).toBe(200);
    // Delivered before the receiver is told to refuse the next one.
    await waitFor('the retried delivery', async () => ((await domain.callbacks.showDelivery(retried)).status === 'delivered' ? true : undefined));
    await needsReview(tenant.clientId);
    expect(textOf((await staff.submit('/dashboard/deliveries/retry-failed')).text)).toContain('1 delivery queued again.');

    const page = await staff.get('/dashboard/audit');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Audit</h1>');
    expect(page.text).toMatch(/<th scope="col">Time<\/th><th scope="col">Who<\/th><th scope="col">What happened<\/th><th scope="col">About<\/th>/);
    const [all, one] = rows(page.text);
    const who = literally(staff.email);
    expect(all).toMatch(new RegExp(`^${TIME} ${who} Sent every failed or refused notification again: 1 queued \\(0 failed, 1 refused\\) —$`));
    expect(one).toMatch(new RegExp(`^${TIME} ${who} Sent a notification to your PMS again \\(it had been refused\\) Booking BK-[A-Z0-9]{8} · Ada Lovelace Entries about it$`));
    const { booking_id: bookingId } = await domain.callbacks.showDelivery(retried);
    expect(page.text).toContain(`href="/dashboard/bookings/${bookingId}"`);
    expect(page.text).toContain(`href="/dashboard/audit?target=${retried}"`);
    // In words: no action's code, no id.
    expect(mainText(page.text)).not.toMatch(UUID);
    expect(mainText(page.text)).not.toContain('delivery.retry');

    // The entries about the delivery only.
    const about = await staff.get(`/dashboard/audit?target=${retried}`);
    expect(rows(about.text)).toEqual([one]);
    expect(mainText(about.text)).toMatch(/Only the entries about Booking BK-[A-Z0-9]{8} · Ada Lovelace · All entries/);
    expect(rows((await staff.get('/dashboard/audit?target=nothing')).text)).toEqual([]);
  });

  it("shows only the operator's own client's entries, escaped", async () => {
    const other = await stack.createTenant();
    await domain.audit.recordAudit(other.clientId, { operator: 'eve@example.com', action: 'room.create', target: 'THEIRS', changes: {} });
    // An action the page has no words of its own for: its name and changes, in words.
    await domain.audit.recordAudit(tenant.clientId, { operator: 'cli@example.com', action: 'room.rename', changes: { new_name: '<b>Suite</b>', note: null } });
    const page = await staff.get('/dashboard/audit');
    expect(page.text).not.toContain('eve@example.com');
    expect(page.text).not.toContain('THEIRS');
    expect(page.text).toContain('new name: &lt;b>Suite&lt;/b>');
    expect(rows(page.text)[0]).toMatch(new RegExp(`^${TIME} cli@example\\.com Room: rename \\(new name: <b>Suite</b>\\) —$`));
  });

  it('pages through every entry once, newest first, with the filter kept', async () => {
    const client = await stack.createTenant();
    const operator = await signedInOperator(stack, client.clientId, 'staff');
    const base = Date.parse('2027-01-01T00:00:00.000Z');
    for (let i = 0; i < 5; i++) {
      await domain.audit.recordAudit(client.clientId, { operator: 'ada@example.com', action: 'room.create', target: `T-${i}`, changes: { room_number: `T-${i}` } }, new Date(base + i * 1000));
    }
    const seen: string[] = [];
    let path: string | undefined = '/dashboard/audit?limit=2';
    for (let pages = 1; path; pages++) {
      const page = await operator.get(path);
      expect(page.status).toBe(200);
      const found = rows(page.text);
      expect(found.length).toBeLessThanOrEqual(2);
      seen.push(...found.map((row) => / (T-\d) /.exec(row)![1]!));
      path = nextPage(page.text);
      if (path) expect(path).toContain('limit=2');
      expect(pages).toBeLessThan(10);
    }
    expect(seen).toEqual(['T-4', 'T-3', 'T-2', 'T-1', 'T-0']);

    const filtered = await operator.get('/dashboard/audit?target=T-3&limit=1');
    expect(rows(filtered.text)).toHaveLength(1);
    const next = nextPage(filtered.text);
    if (next) {
      expect(next).toContain('target=T-3');
      expect(rows((await operator.get(next)).text)).toEqual([]);
    }

    expect((await operator.get('/dashboard/audit?cursor=bm9wZQ')).status).toBe(400);
    expect((await operator.get('/dashboard/audit?limit=500')).status).toBe(400);
  });
});
