/**
 * The table access of the function serving the guest booking pages (shared/domain/guest-booking/
 * guest-bookings.ts lists what each use case calls): plain data, so the route table can use it.
 */
import type { TableAccess } from './table-access';

export const guestBookingTableAccess = {
  actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
  // gsi1: the client's active stays (search); gsi2: the chosen room's active stays (hold, booking).
  queries: ['gsi1', 'gsi2'],
  // The client's partition (room hold, checkout-hold marker, booking, order-reference guard), a
  // booking's search entries, the guest booking, the order and its sandbox session, a booking's
  // client pointer, deliveries, e-mails to the guest, a source address's open holds. Never a key
  // record (definitions/table-access.ts KEY_PARTITIONS).
  writes: ['CLIENT#', 'SEARCH#', 'GUESTBOOKING#', 'GUESTSOURCE#', 'ORDER#', 'SANDBOX#', 'BOOKINGID#', 'DELIVERY#', 'EMAIL#'],
} as const satisfies TableAccess;
