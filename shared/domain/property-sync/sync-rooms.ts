/**
 * PUT rooms: upsert by client + external_source + external_room_id; a new external room whose
 * room number already exists links to that room instead of duplicating it.
 */
import { AppError, type ErrorDetail, errors } from '../../errors';
import { contentHash, nameBasedId } from '../../ids';
import type { PutRoomsBody, RoomInput } from '../../schemas/property-sync';
import { mapConcurrent } from '../../store/batch';
import { createRoom, listCategories, listRooms, type RoomRecord, updateRoom } from '../../store/property-store';
import { duplicateIds, summarize, type SyncAction, unknownReference, withConcurrencyRetry } from './results';

interface Plan {
  index: number;
  action: SyncAction;
  room: RoomRecord;
  previous?: RoomRecord;
}

function roomContent(input: RoomInput, source: string) {
  return {
    room_number: input.room_number,
    room_type: input.room_type,
    price: input.price,
    max_occupancy: input.max_occupancy,
    images: input.images ?? [],
    is_active: input.is_active ?? true,
    external_source: source,
    external_room_id: input.external_room_id,
    external_category_id: input.external_category_id,
  };
}

function roomNumberConflict(details: ErrorDetail[]): AppError {
  return new AppError(422, 'ROOM_NUMBER_CONFLICT', 'A room number belongs to another room; nothing was written', details);
}

async function plan(clientId: string, body: PutRoomsBody, now: string): Promise<Plan[]> {
  const source = body.external_source;
  const [categories, rooms] = await Promise.all([listCategories(clientId), listRooms(clientId)]);
  const knownCategories = new Set(categories.filter((c) => c.external_source === source).map((c) => c.external_category_id));
  const unknown: ErrorDetail[] = [];
  body.rooms.forEach((room, i) => {
    if (room.external_category_id !== undefined && !knownCategories.has(room.external_category_id)) {
      unknown.push({ path: `rooms[${i}].external_category_id`, message: `no synced category ${room.external_category_id} for ${source}` });
    }
  });
  if (unknown.length) throw unknownReference(unknown);

  const byExternalId = new Map<string, RoomRecord>();
  const byNumber = new Map<string, RoomRecord>();
  for (const room of rooms) {
    if (room.external_source === source && room.external_room_id) byExternalId.set(room.external_room_id, room);
    byNumber.set(room.room_number, room);
  }

  const conflicts: ErrorDetail[] = [];
  const plans = body.rooms.map((input, index): Plan => {
    const content = roomContent(input, source);
    const hash = contentHash(content);
    let previous = byExternalId.get(input.external_room_id);
    let action: SyncAction;
    if (previous) {
      action = previous.content_hash === hash ? 'unchanged' : 'updated';
      const holder = byNumber.get(input.room_number);
      if (holder && holder.id !== previous.id) {
        conflicts.push({ path: `rooms[${index}].room_number`, message: `room number ${input.room_number} belongs to another room (${holder.id})` });
      }
    } else {
      previous = byNumber.get(input.room_number);
      if (previous?.external_room_id) {
        conflicts.push({
          path: `rooms[${index}].room_number`,
          message: `room number ${input.room_number} is already linked to ${previous.external_source}/${previous.external_room_id}`,
        });
      }
      action = previous ? 'linked' : 'created';
    }
    const room: RoomRecord = {
      id: previous?.id ?? nameBasedId(clientId, 'room', source, input.external_room_id),
      ...content,
      content_hash: hash,
      version: (previous?.version ?? 0) + (action === 'unchanged' ? 0 : 1),
      created_at: previous?.created_at ?? now,
      updated_at: action === 'unchanged' ? previous!.updated_at : now,
    };
    return { index, action, room, previous };
  });
  if (conflicts.length) throw roomNumberConflict(conflicts);
  return plans;
}

export async function syncRooms(clientId: string, body: PutRoomsBody, now = new Date()) {
  const duplicates = duplicateIds(body.rooms, (r) => r.external_room_id, (i) => `rooms[${i}].external_room_id`, 'external_room_id');
  if (duplicates.length) throw errors.validation(duplicates);
  const numbers = duplicateIds(body.rooms, (r) => r.room_number, (i) => `rooms[${i}].room_number`, 'room_number');
  if (numbers.length) throw roomNumberConflict(numbers);

  const plans = await withConcurrencyRetry(async () => {
    const planned = await plan(clientId, body, now.toISOString());
    await mapConcurrent(
      planned.filter((p) => p.action !== 'unchanged'),
      16,
      (p) => (p.previous ? updateRoom(clientId, p.room, p.previous) : createRoom(clientId, p.room)),
    );
    return planned;
  });
  return summarize(
    body.external_source,
    plans.map((p) => ({ external_room_id: p.room.external_room_id!, id: p.room.id, action: p.action })),
  );
}
