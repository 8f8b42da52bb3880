/**
 * The deliveries API for receivers (docs/behaviour.md "Receivers in control"): a key with
 * `deliveries:read` lists its own deliveries page by page and reads the exact body sent; one with
 * `deliveries:write` sends one again under its id and replays a time range. Another client's
 * delivery or cursor is not theirs; a key without the scope is refused. A receiver down while 300
 * paid orders confirm catches up with one replay.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withEnv } from '../support/env';
import { writeFailedDeliveries } from '../support/failed-deliveries';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let callbacks: typeof import('../../shared/domain/callbacks/deliveries');

const READ_WRITE = ['deliveries:read', 'deliveries:write'];

beforeAll(async () => {
  // Tried once and retried once at once: a receiver that is down fails its deliveries quickly.
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0';
  // A replay goes on in the sweeper's runs: every second here, not every minute.
  stack = await startTestStack({ sweepIntervalMs: 1_000, sandboxPayments: true });
  receiver = await startReceiver();
  callbacks = await import('../../shared/domain/callbacks/deliveries');
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

beforeEach(() => {
  receiver.respondWith();
  receiver.received.length = 0;
});

interface Hotel {
  tenant: Tenant;
  /** A sync key with the delivery scopes. */
  reader: string;
}

async function hotel(): Promise<Hotel> {
  const tenant = await stack.createTenant();
  await callbacks.configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
  const { key } = await stack.issueKey(tenant.clientId, 'sync', { scopes: READ_WRITE });
  return { tenant, reader: key };
}

let day = 0;
/** A paid order for a stay of its own (no room given: it awaits one), confirming a booking. */
function order(tenant: Tenant) {
  day++;
  const date = (offset: number) => new Date(Date.UTC(2031, 0, 1) + (day * 3 + offset) * 86_400_000).toISOString().slice(0, 10);
  return paidRoomBooking(stack, tenant, { check_in_date: date(0), check_out_date: date(1) });
}

const deliveryIdOf = (r: { headers: Record<string, unknown> }) => r.headers['x-service-delivery'] as string;

async function settled(h: Hotel, count: number, status: string) {
  return waitFor(
    `${count} deliveries ${status}`,
    async () => {
      const all = await callbacks.listDeliveries(h.tenant.clientId);
      return all.length === count && all.every((d) => d.status === status) ? all : undefined;
    },
    120_000,
  );
}

describe('the deliveries API', () => {
  it('lists newest first page by cursor, shows the exact body, retries under the same id', async () => {
    const h = await hotel();
    for (let i = 0; i < 3; i++) await order(h.tenant);
    await settled(h, 3, 'delivered');

    const first = await stack.request('GET', '/api/v1/deliveries?limit=2', { key: h.reader });
    expect(first.status).toBe(200);
    expect(first.body.deliveries).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await stack.request('GET', `/api/v1/deliveries?limit=2&cursor=${first.body.next_cursor}`, { key: h.reader });
    expect(second.status).toBe(200);
    expect(second.body.deliveries).toHaveLength(1);
    expect(second.body.next_cursor).toBeUndefined();
    const listed = [...first.body.deliveries, ...second.body.deliveries];
    const created = listed.map((d: { created_at: string }) => d.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(listed.every((d: { event: string; status: string; attempts: unknown[] }) => d.event === 'booking.confirmed' && d.status === 'delivered' && d.attempts.length === 1)).toBe(true);

    const id = listed[0].delivery_id as string;
    const sent = receiver.received.find((r) => deliveryIdOf(r) === id)!;
    const shown = await stack.request('GET', `/api/v1/deliveries/${id}`, { key: h.reader });
    expect(shown.status).toBe(200);
    expect(shown.body.body).toBe(sent.rawBody.toString('utf8'));

    receiver.received.length = 0;
    const retried = await stack.request('POST', `/api/v1/deliveries/${id}/retry`, { key: h.reader });
    expect(retried.status).toBe(202);
    const again = await waitFor('the retried delivery', async () => receiver.received.find((r) => deliveryIdOf(r) === id));
    expect(again.rawBody.equals(sent.rawBody)).toBe(true);
    expect(receiver.received).toHaveLength(1);
  }, 120_000);

  it("refuses another client's cursor and delivery, and a key without the scope", async () => {
    const a = await hotel();
    const b = await hotel();
    await order(a.tenant);
    await order(a.tenant);
    await order(b.tenant);
    await settled(a, 2, 'delivered');
    const [ofB] = await settled(b, 1, 'delivered');

    const page = await stack.request('GET', '/api/v1/deliveries?limit=1', { key: a.reader });
    expect(page.body.next_cursor).toEqual(expect.any(String));
    const borrowed = await stack.request('GET', `/api/v1/deliveries?limit=1&cursor=${page.body.next_cursor}`, { key: b.reader });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'cursor' }] });

    for (const [method, path] of [
      ['GET', `/api/v1/deliveries/${ofB!.delivery_id}`],
      ['POST', `/api/v1/deliveries/${ofB!.delivery_id}/retry`],
    ] as const) {
      const answer = await stack.request(method, path, { key: a.reader });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
    // A payment key sees webhooks, not the client's callbacks.
    const { key: paymentReader } = await stack.issueKey(b.tenant.clientId, 'payment', { scopes: READ_WRITE });
    expect((await stack.request('GET', `/api/v1/deliveries/${ofB!.delivery_id}`, { key: paymentReader })).status).toBe(404);

    // The tenant's own sync key has the spec's five scopes only; its payment key none.
    for (const key of [a.tenant.syncKey, a.tenant.paymentKey]) {
      const refused = await stack.request('GET', '/api/v1/deliveries', { key });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
    const { key: readOnly } = await stack.issueKey(a.tenant.clientId, 'sync', { scopes: ['deliveries:read'] });
    const replay = await stack.request('POST', '/api/v1/deliveries/replay', { key: readOnly, body: { since: '2020-01-01T00:00:00Z', until: '2099-01-01T00:00:00Z' } });
    expect(replay.status).toBe(403);
  }, 120_000);

  it('replays 300 failed deliveries with one request: answered within 5 s, each arrives once', async () => {
    const h = await hotel();
    const since = new Date().toISOString();
    // The receiver is down while the orders confirm.
    receiver.respondWith(...Array<number>(1_000).fill(503));
    const orders = Array.from({ length: 300 }, () => () => order(h.tenant));
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let next = orders.shift(); next; next = orders.shift()) await next();
      }),
    );
    const failed = await settled(h, 300, 'failed');
    const until = new Date().toISOString();

    // Back up.
    receiver.respondWith();
    receiver.received.length = 0;
    const started = Date.now();
    const replay = await stack.request('POST', '/api/v1/deliveries/replay', { key: h.reader, body: { since, until, status: ['failed'] } });
    const answeredMs = Date.now() - started;
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ queued: 300 });
    expect(answeredMs).toBeLessThan(5_000);

    await settled(h, 300, 'delivered');
    const arrived = receiver.received.map(deliveryIdOf);
    expect(new Set(arrived).size).toBe(300);
    expect(arrived).toHaveLength(300);
    expect(new Set(arrived)).toEqual(new Set(failed.map((d) => d.delivery_id)));
  }, 600_000);

  it('a replay the queue refuses leaves each delivery due at once, and the sweeper sends each once', async () => {
    const h = await hotel();
    const store = await import('../../shared/store/delivery-store');
    const { startBulkResend } = await import('../../shared/domain/callbacks/bulk-resend');
    const { keys } = await import('../../shared/store/keys');
    // Twelve deliveries as a receiver that was down leaves them: failed, off the due index.
    const { records, since, until } = await writeFailedDeliveries(h.tenant.clientId, 12);

    const missingQueue = process.env.CALLBACK_QUEUE_URL!.replace(/[^/]+$/, `missing-${randomUUID()}`);
    await withEnv({ CALLBACK_QUEUE_URL: missingQueue }, async () => {
      const result = await startBulkResend({
        clientId: h.tenant.clientId,
        kind: 'replay',
        sources: [{ index: 'gsi4', clientId: h.tenant.clientId, endpoint: 'callback' }],
        filter: { since, until },
        from: ['failed'],
      });
      expect(result).toMatchObject({ queued: 12, markedNow: 12 });
      // Marked, and on the due index at once (not at their resend-after time): the sweeper's now.
      const dueBy = new Date(Date.now() + 1_000).toISOString();
      const due = await Promise.all(records.map((r) => store.findDueDeliveries(keys.deliveryDue(since, r.delivery_id).gsi1pk, dueBy, { limit: 1_000 })));
      for (const [i, r] of records.entries()) expect(due[i]!.due.map((d) => d.delivery_id)).toContain(r.delivery_id);
    });

    const ids = new Set(records.map((r) => r.delivery_id));
    await waitFor('12 deliveries', async () => (new Set(receiver.received.map(deliveryIdOf).filter((id) => ids.has(id))).size === 12 ? true : undefined), 60_000);
    await settled(h, 12, 'delivered');
    expect(receiver.received.map(deliveryIdOf).filter((id) => ids.has(id))).toHaveLength(12);
  }, 120_000);
});
