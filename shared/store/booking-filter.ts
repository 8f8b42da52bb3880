/** The booking list's filter as DynamoDB expressions, shared by the partition and check-in-index queries. */
import type { BookingFilter } from './booking-store';

/**
 * A booking filter as a Query's FilterExpression and its names and values (none when the filter
 * is empty). `to` is left out where the key range already applies it (the check-in index).
 */
export function bookingFilterExpression(filter: BookingFilter, options: { to: boolean } = { to: true }) {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  if (filter.from !== undefined) {
    conditions.push('check_out_date > :from_date');
    values[':from_date'] = filter.from;
  }
  if (options.to && filter.to !== undefined) {
    conditions.push('check_in_date <= :to_date');
    values[':to_date'] = filter.to;
  }
  if (filter.status !== undefined) {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = filter.status;
  }
  if (filter.origin !== undefined) {
    conditions.push('origin = :origin');
    values[':origin'] = filter.origin;
  }
  return {
    ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    values,
  };
}
