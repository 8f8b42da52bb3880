/**
 * A filtered deliveries listing reads at most 1,000 index entries per request (docs/reliability.md "Only
 * the guest holds a guest's booking"; shared/store/batch.ts queryPage): a filter that matches
 * nothing among a client's 1,050 newest deliveries answers what it found (nothing) and a
 * `next_cursor`, and following the cursor reaches the older match. Over HTTP, with a partner's
 * key, on the local stack; the deliveries are written straight to the table, delivered already
 * (no due entry: the sweeper leaves them alone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

/** `count` delivered callbacks of `event`, created a millisecond apart ending `endAt`. */
async function writeDeliveries(clientId: string, event: string, count: number, endAt: number) {
  const { newDelivery, newDeliveryItem } = await import('../../shared/store/delivery-store');
  const { batchPut } = await import('../../shared/store/batch');
  const items = Array.from({ length: count }, (_, i) => {
    const at = new Date(endAt - i).toISOString();
    const record = { ...newDelivery({ clientId, event, endpoint: 'callback', payload: '{}', at }), status: 'delivered' as const };
    const { gsi1pk: _due, gsi1sk: _dueAt, ...item } = newDeliveryItem(record);
    return item;
  });
  await batchPut(items);
}

describe('a filtered deliveries listing', () => {
  it('stops after 1,000 entries read with what it found and a next_cursor; the cursor leads on to the match', async () => {
    const tenant = await stack.createTenant();
    const { key } = await stack.issueKey(tenant.clientId, 'sync', { scopes: ['deliveries:read'] });
    const now = Date.now();
    await writeDeliveries(tenant.clientId, 'booking.cancelled', 1, now - 60_000);
    await writeDeliveries(tenant.clientId, 'booking.confirmed', 1_050, now - 1_000);

    const first = await stack.request('GET', '/api/v1/deliveries?event=booking.cancelled&limit=10', { key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.deliveries).toEqual([]);
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const second = await stack.request('GET', `/api/v1/deliveries?event=booking.cancelled&limit=10&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key });
    expect(second.status, second.text).toBe(200);
    expect(second.body.deliveries.map((d: { event: string }) => d.event)).toEqual(['booking.cancelled']);
    expect(second.body.next_cursor).toBeUndefined();

    // Unfiltered, a page is as full as asked.
    const plain = await stack.request('GET', '/api/v1/deliveries?limit=100', { key });
    expect(plain.body.deliveries).toHaveLength(100);
    expect(plain.body.next_cursor).toEqual(expect.any(String));
    // Another client's listing is not this one's.
    const other = await stack.createTenant();
    const { key: otherKey } = await stack.issueKey(other.clientId, 'sync', { scopes: ['deliveries:read'] });
    expect((await stack.request('GET', `/api/v1/deliveries?event=booking.cancelled&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: otherKey })).status).toBe(400);
  }, 120_000);
});
