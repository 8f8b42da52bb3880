/**
 * A client's deliveries listed, for operators (the dashboard, `ops deliveries list`): gsi2 names
 * every delivery of the client in creation order; the records come from the table. Deliveries past
 * their retention are left out (delivery-store.ts isExpiredDelivery).
 */
import type { DeliveryStatus } from '../schemas/deliveries';
import { type PageKey, queryAll, queryPage, tableItemsOf } from './batch';
import { type DeliveryRecord, keptDeliveries } from './delivery-store';
import { keys } from './keys';

/** A client's deliveries, oldest first: the index names them (and filters on status, which it projects), the table holds them. */
export async function listDeliveries(clientId: string, status?: DeliveryStatus): Promise<DeliveryRecord[]> {
  const listed = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ...(status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
    ExpressionAttributeValues: { ':pk': keys.deliveriesOfClient(clientId), ...(status ? { ':status': status } : {}) },
  });
  return keptDeliveries(await tableItemsOf(listed));
}

/**
 * The start key a cursor of this client's delivery list may name: the client's delivery index
 * and the delivery that index entry names, else undefined.
 */
export function deliveriesPageKey(clientId: string, key: PageKey): PageKey | undefined {
  const entry = key.gsi2sk === undefined ? undefined : keys.deliveryOfClientEntry(key.gsi2sk);
  return entry && { ...keys.delivery(entry.id), ...keys.deliveryOfClient(clientId, entry.at, entry.id) };
}

/**
 * At most `limit` of a client's deliveries, newest first, after `start`, optionally only those
 * in `statuses`: the index (gsi2) names them and filters on `status`, which it projects, and
 * BatchGetItem reads them. A status filter reads on through the index until the page is full.
 */
export async function deliveriesPage(
  clientId: string,
  page: { limit: number; start?: PageKey; statuses?: readonly DeliveryStatus[] },
): Promise<{ deliveries: DeliveryRecord[]; next?: PageKey }> {
  const statuses = page.statuses ?? [];
  const { items, next } = await queryPage(
    {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ...(statuses.length
        ? { FilterExpression: `#status IN (${statuses.map((_, i) => `:s${i}`).join(', ')})`, ExpressionAttributeNames: { '#status': 'status' } }
        : {}),
      ExpressionAttributeValues: { ':pk': keys.deliveriesOfClient(clientId), ...Object.fromEntries(statuses.map((status, i) => [`:s${i}`, status])) },
      ScanIndexForward: false,
    },
    page,
  );
  const deliveries = keptDeliveries(await tableItemsOf(items));
  // The index lags the table a little: a delivery retried since no longer has the status it was listed by.
  return { deliveries: statuses.length ? deliveries.filter((d) => statuses.includes(d.status)) : deliveries, next };
}
