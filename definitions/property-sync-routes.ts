/**
 * The property sync routes (Area A): a PMS pushes categories, rooms, bookings, check-ins, rate
 * plans and their prices and rules per date, reads availability and rates, and cancels the
 * bookings the service made. Each route is its own constant, so a
 * function's bundle carries its own route's definition and not the route table's
 * (test/unit/bundles.test.ts); definitions/routes.ts gathers them into the table.
 */
import type { Route } from './routes';

export const putRoomCategoriesRoute = {
  id: 'PutRoomCategories',
  method: 'PUT',
  path: '/api/v1/property-sync/room-categories',
  handler: 'put-room-categories',
  auth: { kind: 'sync', scope: 'room_categories:write' },
  idempotent: true,
  timeoutSeconds: 28,
  // The client's categories by Query; the changed ones by BatchWriteItem.
  access: { dynamodb: { actions: ['Query', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] } },
  description: 'Create or update room categories by external_category_id',
} as const satisfies Route;

export const putRoomsRoute = {
  id: 'PutRooms',
  method: 'PUT',
  path: '/api/v1/property-sync/rooms',
  handler: 'put-rooms',
  auth: { kind: 'sync', scope: 'rooms:write' },
  idempotent: true,
  timeoutSeconds: 28,
  // Categories and rooms by Query; a room and its number guard by PutItem (alone or in a
  // transaction), the old guard deleted in the transaction when the number changes.
  access: { dynamodb: { actions: ['Query', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['CLIENT#', 'IDEMPOTENCY#'] } },
  description: 'Create or update rooms and link them to categories',
} as const satisfies Route;

export const putBookingsRoute = {
  id: 'PutBookings',
  method: 'PUT',
  path: '/api/v1/property-sync/bookings',
  handler: 'put-bookings',
  auth: { kind: 'sync', scope: 'bookings:write' },
  idempotent: true,
  timeoutSeconds: 28,
  // Rooms by Query, bookings by BatchGetItem, the active stays of rooms with written bookings on
  // gsi2; each booking by conditional PutItem (new) or UpdateItem (changed attributes), read
  // again by GetItem when a concurrent write won; its new search entries (SEARCH#) put before
  // it and those it lost deleted after it, by BatchWriteItem.
  access: {
    dynamodb: {
      actions: ['Query', 'BatchGetItem', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'],
      queries: ['gsi2'],
      writes: ['CLIENT#', 'SEARCH#', 'IDEMPOTENCY#'],
      deletes: ['IDEMPOTENCY#'],
    },
  },
  description: 'Mirror external bookings',
} as const satisfies Route;

export const putCheckinsRoute = {
  id: 'PutCheckins',
  method: 'PUT',
  path: '/api/v1/property-sync/checkins',
  handler: 'put-checkins',
  auth: { kind: 'sync', scope: 'checkins:write' },
  idempotent: true,
  timeoutSeconds: 28,
  // Bookings and check-ins by BatchGetItem, rooms by Query; each booking's activity by
  // conditional UpdateItem (read again by GetItem when a concurrent write won; when the event
  // moves the booking, its search entry by room put before and the old one deleted after, by
  // BatchWriteItem), then the check-ins by BatchWriteItem.
  access: {
    dynamodb: {
      actions: ['Query', 'BatchGetItem', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'],
      writes: ['CLIENT#', 'SEARCH#', 'IDEMPOTENCY#'],
      deletes: ['IDEMPOTENCY#'],
    },
  },
  description: 'Push check-in and check-out activity',
} as const satisfies Route;

export const getAvailabilityRoute = {
  id: 'GetAvailability',
  method: 'GET',
  path: '/api/v1/property-sync/availability',
  handler: 'get-availability',
  auth: { kind: 'sync', scope: 'availability:read' },
  // Rooms, categories, rate plans and the plans' months of the stay by Query; the client's
  // active stays on gsi1.
  access: { dynamodb: { actions: ['Query'], queries: ['gsi1'] } },
  description: 'Rooms available for a stay range',
} as const satisfies Route;

export const cancelServiceBookingRoute = {
  id: 'CancelServiceBooking',
  method: 'POST',
  path: '/api/v1/property-sync/service-bookings/{booking_id}/cancel',
  handler: 'cancel-service-booking',
  auth: { kind: 'sync', scope: 'bookings:write' },
  idempotent: true,
  // The booking, its room and the room's hold item by GetItem; the cancelled booking, the hold
  // without its nights (version-checked) and the guest's e-mail in one transaction (a cancel
  // keeps the search entries); the e-mail marked sent by UpdateItem; the booking's open checkout
  // markers (Query on the client's partition) ended, so availability offers the room at once.
  // Emits no event: the PMS made the change.
  access: {
    dynamodb: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'EMAIL#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] },
    sendsEmail: true,
  },
  description: 'Cancel a booking the service made (guest, reception, paid order)',
} as const satisfies Route;

export const putRatePlansRoute = {
  id: 'PutRatePlans',
  method: 'PUT',
  path: '/api/v1/property-sync/rate-plans',
  handler: 'put-rate-plans',
  auth: { kind: 'sync', scope: 'rates:write' },
  idempotent: true,
  timeoutSeconds: 28,
  // Categories and plans by Query; the changed plans by BatchWriteItem.
  access: { dynamodb: { actions: ['Query', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] } },
  description: 'Create or update rate plans of room categories',
} as const satisfies Route;

export const putRatesRoute = {
  id: 'PutRates',
  method: 'PUT',
  path: '/api/v1/property-sync/rates',
  handler: 'put-rates',
  auth: { kind: 'sync', scope: 'rates:write' },
  idempotent: true,
  timeoutSeconds: 28,
  // The client (its time zone) by GetItem, plans by Query, the plan-months by BatchGetItem; each
  // changed month by conditional PutItem, read again by GetItem when a concurrent push won.
  access: {
    dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] },
  },
  description: 'Push prices and restrictions per date (deltas)',
} as const satisfies Route;

export const getRatesRoute = {
  id: 'GetRates',
  method: 'GET',
  path: '/api/v1/property-sync/rates',
  handler: 'get-rates',
  auth: { kind: 'sync', scope: 'rates:read' },
  // Plans and categories by Query; the plan-months of the range by BatchGetItem.
  access: { dynamodb: { actions: ['Query', 'BatchGetItem'] } },
  description: 'Read back prices and restrictions per date',
} as const satisfies Route;

export const propertySyncRouteTable = [
  putRoomCategoriesRoute,
  putRoomsRoute,
  putBookingsRoute,
  putCheckinsRoute,
  getAvailabilityRoute,
  putRatePlansRoute,
  putRatesRoute,
  getRatesRoute,
  cancelServiceBookingRoute,
] as const satisfies readonly Route[];
