/** Rooms set up in the service itself (operator CLI `rooms create`, the dashboard): the synced rooms' field rules. */
import * as z from 'zod/mini';
import { roomInput } from './property-sync';

export const serviceRoomInput = z.pick(roomInput, { room_number: true, room_type: true, price: true, max_occupancy: true });
export type ServiceRoomInput = z.infer<typeof serviceRoomInput>;
