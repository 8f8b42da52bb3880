/**
 * A hotel to book in: a new client of the test stack with rooms 101 and 102 synced by its PMS
 * (`PUT /api/v1/property-sync/rooms`, source `pms`, external ids R101 and R102).
 */
import { expect } from 'vitest';
import type { Tenant, TestStack } from './stack';

export interface HotelWithRooms {
  tenant: Tenant;
  /** Room ids by room number. */
  rooms: Map<string, string>;
}

/** The hotel; with `callbackUrl`, its booking callbacks go there. */
export async function hotelWithRooms(stack: TestStack, options: { callbackUrl?: string } = {}): Promise<HotelWithRooms> {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ['101', '102'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 100, max_occupancy: 2 })) },
  });
  expect(put.status).toBe(200);
  // Loaded once the stack's configuration is in place, as the test files load the domain.
  if (options.callbackUrl) {
    const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
    await configureEndpoint(tenant.clientId, 'callback', { url: options.callbackUrl });
  }
  const { listRooms } = await import('../../shared/store/room-store');
  return { tenant, rooms: new Map((await listRooms(tenant.clientId)).map((r) => [r.room_number, r.id])) };
}
