/**
 * PUT rooms: upsert by client + external_source + external_room_id; a new external room whose
 * room number already exists links to that room instead of duplicating it.
 */
import { type AppError, type ErrorDetail, errors } from '../../errors';
import { contentHash, nameBasedId, newId } from '../../ids';
import type { PutRoomsBody, RoomInput } from '../../schemas/property-sync';
import { mapConcurrent } from '../../store/batch';
import { listCategories } from '../../store/category-store';
import { createRoom, listRooms, type RoomRecord, updateRoom } from '../../store/room-store';
import { duplicateIds, summarize, type SyncAction, unknownReference } from './results';
import { isConditionFailure } from '../../store/items';
import { ensureTimeForNextWrite, ensureTimeForWrites, type TimeBudget, UNLIMITED_TIME, writeRounds } from './time-budget';

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

function roomNumberConflict(details: ErrorDetail[], nothingWritten = true): AppError {
  return nothingWritten ? errors.syncRoomNumberConflict(details) : errors.syncRoomNumberTakenMidway(details);
}

/**
 * Name-based, so two concurrent syncs of one external room write the same item. The name's id
 * can only be taken by a room that has since been linked to another source; then a random one.
 */
function newRoomId(clientId: string, source: string, externalRoomId: string, taken: ReadonlySet<string>): string {
  const id = nameBasedId(clientId, 'room', source, externalRoomId);
  return taken.has(id) ? newId() : id;
}

interface Snapshot {
  /** Rooms of this source by external_room_id. */
  byExternalId: Map<string, RoomRecord>;
  /** Every room of the client by room number. */
  byNumber: Map<string, RoomRecord>;
  ids: Set<string>;
}

async function readRooms(clientId: string, source: string): Promise<Snapshot> {
  const rooms = await listRooms(clientId);
  const snapshot: Snapshot = { byExternalId: new Map(), byNumber: new Map(), ids: new Set() };
  for (const room of rooms) {
    if (room.external_source === source && room.external_room_id) snapshot.byExternalId.set(room.external_room_id, room);
    snapshot.byNumber.set(room.room_number, room);
    snapshot.ids.add(room.id);
  }
  return snapshot;
}

async function checkCategories(clientId: string, body: PutRoomsBody): Promise<void> {
  const source = body.external_source;
  if (!body.rooms.some((r) => r.external_category_id !== undefined)) return;
  const categories = await listCategories(clientId);
  const known = new Set(categories.filter((c) => c.external_source === source).map((c) => c.external_category_id));
  const unknown: ErrorDetail[] = [];
  body.rooms.forEach((room, i) => {
    if (room.external_category_id !== undefined && !known.has(room.external_category_id)) {
      unknown.push({ path: `rooms[${i}].external_category_id`, message: `no synced category ${room.external_category_id} for ${source}` });
    }
  });
  if (unknown.length) throw unknownReference(unknown);
}

/** What to do with the items at `indexes`, given the rooms as they are now. */
function plan(clientId: string, body: PutRoomsBody, indexes: readonly number[], state: Snapshot, now: string, firstRound = true): Plan[] {
  const source = body.external_source;
  const conflicts: ErrorDetail[] = [];
  const plans = indexes.map((index): Plan => {
    const input = body.rooms[index]!;
    const content = roomContent(input, source);
    const hash = contentHash(content);
    let previous = state.byExternalId.get(input.external_room_id);
    let action: SyncAction;
    if (previous) {
      action = previous.content_hash === hash ? 'unchanged' : 'updated';
      const holder = state.byNumber.get(input.room_number);
      if (holder && holder.id !== previous.id) {
        conflicts.push({ path: `rooms[${index}].room_number`, message: `room number ${input.room_number} belongs to another room (${holder.id})` });
      }
    } else {
      // A room of that number gets this source's external ids, unless this source already
      // linked it to another of its rooms. A room linked to another source moves to this one.
      previous = state.byNumber.get(input.room_number);
      if (previous?.external_room_id && previous.external_source === source) {
        conflicts.push({
          path: `rooms[${index}].room_number`,
          message: `room number ${input.room_number} is already linked to ${previous.external_source}/${previous.external_room_id}`,
        });
      }
      action = previous ? 'linked' : 'created';
    }
    const room: RoomRecord = {
      id: previous?.id ?? newRoomId(clientId, source, input.external_room_id, state.ids),
      ...content,
      content_hash: hash,
      version: (previous?.version ?? 0) + (action === 'unchanged' ? 0 : 1),
      created_at: previous?.created_at ?? now,
      updated_at: action === 'unchanged' ? previous!.updated_at : now,
    };
    return { index, action, room, previous };
  });
  if (conflicts.length) throw roomNumberConflict(conflicts, firstRound);
  return plans;
}

const MAX_ROUNDS = 10;
/** Rooms written at once. */
const PARALLEL_WRITES = 16;

export async function syncRooms(clientId: string, body: PutRoomsBody, options: { now?: Date; budget?: TimeBudget } = {}) {
  const { now = new Date(), budget = UNLIMITED_TIME } = options;
  const source = body.external_source;
  const duplicates = duplicateIds(body.rooms, (r) => r.external_room_id, (i) => `rooms[${i}].external_room_id`, 'external_room_id');
  if (duplicates.length) throw errors.validation(duplicates);
  const numbers = duplicateIds(body.rooms, (r) => r.room_number, (i) => `rooms[${i}].room_number`, 'room_number');
  if (numbers.length) throw roomNumberConflict(numbers);

  const timestamp = now.toISOString();
  const [, initial] = await Promise.all([checkCategories(clientId, body), readRooms(clientId, source)]);
  // Every item is decided before anything is written: a conflict here writes nothing.
  let pending = plan(clientId, body, body.rooms.map((_, i) => i), initial, timestamp);
  const decided = new Array<Plan>(body.rooms.length);
  ensureTimeForWrites(budget, writeRounds(pending.filter((p) => p.action !== 'unchanged').length, PARALLEL_WRITES));

  // Each room is written on its own, conditioned on what was read. An item that lost to a
  // concurrent writer (the same sync sent twice, or another sync of the room) is decided again
  // against the rooms as they are then; the others stay written.
  for (let round = 1; ; round++) {
    const lost: number[] = [];
    await mapConcurrent(pending, PARALLEL_WRITES, async (p) => {
      if (p.action === 'unchanged') {
        decided[p.index] = p;
        return;
      }
      ensureTimeForNextWrite(budget);
      try {
        await (p.previous ? updateRoom(clientId, p.room, p.previous) : createRoom(clientId, p.room));
        decided[p.index] = p;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        lost.push(p.index);
      }
    });
    if (!lost.length) break;
    if (round >= MAX_ROUNDS) throw errors.serviceUnavailable();
    await new Promise((r) => setTimeout(r, 10 * round + Math.random() * 20));
    pending = plan(clientId, body, lost.sort((a, b) => a - b), await readRooms(clientId, source), timestamp, false);
  }

  return summarize(
    source,
    decided.map((p) => ({ external_room_id: p.room.external_room_id!, id: p.room.id, action: p.action })),
  );
}
