/**
 * Deliveries as a receiver that was down leaves them: `failed`, off the due index, written
 * straight to the table (one BatchWriteItem per 25), a millisecond apart from `since` on. For the
 * bulk resends' tests and benchmarks, which need thousands of them without thousands of bookings.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryRecord } from '../../shared/store/delivery-store';
import type { EndpointKind } from '../../shared/store/endpoint-store';

export interface FailedDeliveries {
  records: DeliveryRecord[];
  ids: Set<string>;
  /** Creation times of the first and the last, as a replay's range. */
  since: string;
  until: string;
}

export async function writeFailedDeliveries(clientId: string, count: number, options: { endpoint?: EndpointKind; since?: Date } = {}): Promise<FailedDeliveries> {
  // Imported here: the store reads its configuration when loaded, after the test's stack set it.
  const { batchPut } = await import('../../shared/store/batch');
  const { newDelivery, newDeliveryItem } = await import('../../shared/store/delivery-store');
  const endpoint = options.endpoint ?? 'callback';
  const start = (options.since ?? new Date()).getTime();
  const event = endpoint === 'callback' ? 'booking.confirmed' : 'payment_order.paid';
  const records = Array.from({ length: count }, (_, n) => {
    const at = new Date(start + n).toISOString();
    const body = JSON.stringify({ event, created_at: at, hotel_id: clientId, booking: { id: randomUUID(), booking_reference: `BK-${n}` }, room: null });
    return { ...newDelivery({ clientId, event, endpoint, payload: body, at }), status: 'failed' as const };
  });
  await batchPut(records.map((r) => Object.fromEntries(Object.entries(newDeliveryItem(r)).filter(([name]) => name !== 'gsi1pk' && name !== 'gsi1sk'))));
  return { records, ids: new Set(records.map((r) => r.delivery_id)), since: new Date(start).toISOString(), until: new Date(start + count).toISOString() };
}
