/**
 * Rooms set up in the service before any PMS links them (operator CLI `rooms create`, the
 * dashboard's "Add room"). Such a room has no external ids; a later PUT rooms with the same
 * room_number links it (sync-rooms.ts: action `linked`), so it keeps its id and its bookings.
 */
import { errors } from '../../errors';
import { zodDetails } from '../../http/error-envelope';
import { contentHash, newId } from '../../ids';
import { serviceRoomInput } from '../../schemas/rooms';
import { isConditionFailure } from '../../store/items';
import { createRoom, type RoomRecord } from '../../store/room-store';

/**
 * Creates an active room from untrusted input (the API's rules: room number 1 to 128
 * characters, price not negative, max occupancy a whole number from 1). A room number the client
 * already has: 422 ROOM_NUMBER_CONFLICT, as in a sync.
 */
export async function createServiceRoom(clientId: string, input: unknown, now = new Date()): Promise<RoomRecord> {
  const parsed = serviceRoomInput.safeParse(input);
  if (!parsed.success) {
    const details = zodDetails(parsed.error);
    throw errors.validation(details, details.map((d) => `${d.path}: ${d.message}`).join('; '));
  }
  const content = { ...parsed.data, images: [], is_active: true };
  const timestamp = now.toISOString();
  const room: RoomRecord = { id: newId(), ...content, content_hash: contentHash(content), version: 1, created_at: timestamp, updated_at: timestamp };
  try {
    // The room and its room-number guard, both or neither.
    await createRoom(clientId, room);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw errors.roomNumberTaken(room.room_number);
  }
  return room;
}
