/**
 * The table access of the function serving the guest booking pages (shared/domain/guest-booking/
 * guest-bookings.ts lists what each use case calls): plain data, so the route table can use it.
 */
import type { TableAccess } from '../../../infra/table-access';

export const guestBookingTableAccess = {
  actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
  // gsi1: the client's active stays (search); gsi2: the chosen room's active stays (hold, booking).
  queries: ['gsi1', 'gsi2'],
} as const satisfies TableAccess;
