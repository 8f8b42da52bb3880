/**
 * What a report reads (docs/data-model.md patterns 50 and 51), each bounded by the report's range,
 * never the client's history: the bookings whose nights reach the range (gsi4, every state), the
 * orders paid in it (gsi1), the orders opened in it (gsi2) and the refunds asked for in it (gsi2).
 */
import { addDays, MAX_STAY_NIGHTS } from '../schemas/common';
import { batchGet, queryAll, tableItemsOf } from './batch';
import type { BookingRecord } from './booking-store';
import { fromItem } from './items';
import { keys, SHORT_STAY_NIGHTS } from './keys';
import type { PaymentOrderRecord } from './payment-store';
import type { RefundRecord } from './refund-store';

/**
 * Every booking, whatever its state, with a night in `[from, to]` (both nights included): check-in
 * on or before `to` and check-out after `from`. Each length's partition is read from the earliest
 * check-in that can still reach `from`; the check-out in the sort key leaves out the stays that
 * ended before it without reading them from the table.
 */
export async function bookingsWithNightsIn(clientId: string, from: string, to: string): Promise<BookingRecord[]> {
  const read = async (length: 'short' | 'long', longest: number) =>
    queryAll({
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk BETWEEN :lowest AND :highest',
      ExpressionAttributeValues: { ':pk': keys.bookingNights(clientId, length), ':lowest': addDays(from, 1 - longest), ':highest': `${to}#~` },
    });
  const entries = (await Promise.all([read('short', SHORT_STAY_NIGHTS), read('long', MAX_STAY_NIGHTS)])).flat();
  const overlapping = entries.filter((entry) => keys.bookingNightsEntry(entry.gsi4sk as string).checkOutDate > from);
  return (await tableItemsOf(overlapping)).map((item) => fromItem<BookingRecord>(item));
}

/** Index entries of `[start, end)` (ISO instants) in a time-ordered index partition, then the items. */
async function itemsBetween(index: 'gsi1' | 'gsi2', partition: string, start: string, end: string) {
  const entries = await queryAll({
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk AND ${index}sk BETWEEN :from AND :to`,
    ExpressionAttributeValues: { ':pk': partition, ':from': start, ':to': end },
  });
  const inRange = entries.filter((entry) => (entry[`${index}sk`] as string) < end);
  return tableItemsOf(inRange);
}

/** Orders paid in `[start, end)`: the paid index (gsi1). */
export async function ordersPaidBetween(clientId: string, start: string, end: string): Promise<PaymentOrderRecord[]> {
  return (await itemsBetween('gsi1', keys.paidOrdersOfClient(clientId), start, end)).map((item) => fromItem<PaymentOrderRecord>(item));
}

/** Orders opened in `[start, end)`: the order index (gsi2). */
export async function ordersOpenedBetween(clientId: string, start: string, end: string): Promise<PaymentOrderRecord[]> {
  return (await itemsBetween('gsi2', keys.ordersOfClient(clientId), start, end)).map((item) => fromItem<PaymentOrderRecord>(item));
}

/** Refunds asked for in `[start, end)`: the refund index (gsi2). */
export async function refundsAskedBetween(clientId: string, start: string, end: string): Promise<RefundRecord[]> {
  return (await itemsBetween('gsi2', keys.refundsOfClient(clientId), start, end)).map((item) => fromItem<RefundRecord>(item));
}

/** Which of these e-mails exist (a "Confirm your booking" link names a guest's booking paid at the hotel). */
export async function existingEmails(emailIds: readonly string[]): Promise<Set<string>> {
  return new Set((await batchGet([...new Set(emailIds)].map((id) => keys.email(id)))).map((item) => item.email_id as string));
}
