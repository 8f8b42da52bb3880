/**
 * "Add room" (the dashboard) and `ops rooms create`: a room set up in the service before any PMS
 * links it, and its audit entry.
 */
import type { RoomRecord } from '../../store/room-store';
import { createServiceRoom } from '../rooms/service-rooms';
import { type Actor, recordAction } from './actor';

/** The room as asked for; a price or occupancy typed as text that is no number is refused by createServiceRoom. */
export interface NewRoom {
  room_number: string;
  room_type: string;
  price: number | string;
  max_occupancy: number | string;
}

/** Creates the room (createServiceRoom's rules and refusals) and records `room.create`. */
export async function addRoom(actor: Actor, input: NewRoom, now = new Date()): Promise<RoomRecord> {
  const room = await createServiceRoom(actor.client_id, input, now);
  const { room_number, room_type, price, max_occupancy } = room;
  await recordAction(actor, { action: 'room.create', target: room.id, changes: { room_number, room_type, price, max_occupancy } }, now);
  return room;
}
