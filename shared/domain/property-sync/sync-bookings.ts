/**
 * PUT bookings: mirror external bookings by external_source + external_booking_id. Overlaps
 * with other active bookings of the same room are reported in `conflicts` and recorded anyway.
 * Synced bookings never emit callbacks.
 *
 * Who writes what (docs/data-model.md): this route owns the PMS's booking fields; check-in
 * activity (PUT checkins) owns last_activity_at, checked_in_at and checked_out_at. Both set the
 * status and the room: this route only when the PMS changed what it says about them (`synced`),
 * PUT checkins when a new event is the booking's latest. Each booking is written on its own, with
 * only the attributes that change and on the condition that its version is still the one read;
 * one that lost to a concurrent writer is read and decided again, so neither reverts the other.
 */
import { errors } from '../../errors';
import { contentHash, nameBasedId } from '../../ids';
import type { BookingInput, PutBookingsBody } from '../../schemas/property-sync';
import { mapConcurrent } from '../../store/batch';
import { listRooms } from '../../store/room-store';
import {
  activeBookingsOfRoom,
  type ActiveStayOfRoom,
  type BookingRecord,
  createBooking,
  getBooking,
  getBookings,
  isActive,
  type SyncedStatement,
  updateBooking,
} from '../../store/booking-store';
import { duplicateIds, summarize, unknownReference } from './results';
import { ensureTimeForNextWrite, ensureTimeForWrites, type TimeBudget, UNLIMITED_TIME, writeRounds } from './time-budget';

export interface BookingConflict {
  external_booking_id: string;
  room_id: string;
  overlapping_booking_id: string;
}

export function syncedBookingId(clientId: string, source: string, externalBookingId: string): string {
  return nameBasedId(clientId, 'booking', source, externalBookingId);
}

function bookingContent(input: BookingInput, roomId: string) {
  return {
    room_id: roomId,
    external_room_id: input.external_room_id,
    guest_name: input.guest_name,
    guest_email: input.guest_email,
    guest_phone: input.guest_phone,
    guests: input.guests,
    check_in_date: input.check_in_date,
    check_out_date: input.check_out_date,
    total_amount: input.total_amount,
    status: input.status,
    payment_status: input.payment_status ?? 'unpaid',
  };
}

type Content = ReturnType<typeof bookingContent>;

/** Attributes only the PMS writes: a re-sync sets each one that differs. */
const PMS_FIELDS = [
  'guest_name',
  'guest_email',
  'guest_phone',
  'guests',
  'check_in_date',
  'check_out_date',
  'total_amount',
  'payment_status',
] as const satisfies readonly (keyof Content & keyof BookingRecord)[];

const sameStatement = (a: SyncedStatement | undefined, b: SyncedStatement) =>
  a?.status === b.status && a.room_id === b.room_id && a.external_room_id === b.external_room_id;

interface Decision {
  action: 'created' | 'updated' | 'unchanged';
  /** The booking as it is once written. */
  record: BookingRecord;
  /** Updates: the booking as read, and the attributes to set on it (undefined removes one). */
  previous?: BookingRecord;
  changes?: Partial<BookingRecord>;
}

interface Incoming {
  id: string;
  input: BookingInput;
  roomId: string;
}

/** What to write for one incoming booking, given the booking as stored now (or none). */
function decide(source: string, { id, input, roomId }: Incoming, previous: BookingRecord | undefined, timestamp: string): Decision {
  const content = bookingContent(input, roomId);
  const hash = contentHash(content);
  const statement: SyncedStatement = { status: content.status, room_id: content.room_id, external_room_id: content.external_room_id };
  if (!previous) {
    const record: BookingRecord = {
      id,
      origin: 'sync',
      external_source: source,
      external_booking_id: input.external_booking_id,
      ...content,
      synced: statement,
      content_hash: hash,
      version: 1,
      created_at: timestamp,
      updated_at: timestamp,
    };
    return { action: 'created', record };
  }
  if (previous.content_hash === hash) return { action: 'unchanged', record: previous };

  // What the PMS said last time; a booking stored before `synced` existed holds what it said.
  const said = previous.synced ?? { status: previous.status, room_id: previous.room_id!, external_room_id: previous.external_room_id! };
  const wanted: Partial<BookingRecord> = Object.fromEntries(PMS_FIELDS.map((field) => [field, content[field]]));
  if (statement.status !== said.status) wanted.status = statement.status;
  if (statement.room_id !== said.room_id || statement.external_room_id !== said.external_room_id) {
    wanted.room_id = statement.room_id;
    wanted.external_room_id = statement.external_room_id;
  }
  const changes: Partial<BookingRecord> = Object.fromEntries(
    Object.entries(wanted).filter(([name, value]) => previous[name as keyof BookingRecord] !== value),
  );
  if (!sameStatement(previous.synced, statement)) changes.synced = statement;
  changes.content_hash = hash;
  return { action: 'updated', record: { ...previous, ...changes }, previous, changes };
}

const overlaps = (a: { check_in_date: string; check_out_date: string }, b: { check_in_date: string; check_out_date: string }) =>
  a.check_in_date < b.check_out_date && a.check_out_date > b.check_in_date;

const holdsRoom = (b: BookingRecord) => !!b.room_id && isActive(b.status);

/**
 * Overlaps of the bookings this request writes (created or updated) with the other active
 * bookings of their rooms: those of this request, and the stored ones, read from the room's
 * stay index only for rooms that get a written booking. Unchanged bookings were reported when
 * they were written: a re-sync of unchanged bookings queries nothing.
 */
async function findConflicts(decisions: readonly Decision[]): Promise<BookingConflict[]> {
  const requested = decisions.map((d) => d.record).filter(holdsRoom);
  const written = decisions.filter((d) => d.action !== 'unchanged').map((d) => d.record).filter(holdsRoom);
  const requestedIds = new Set(decisions.map((d) => d.record.id));
  const stored = new Map<string, ActiveStayOfRoom[]>();
  await mapConcurrent([...new Set(written.map((b) => b.room_id!))], 16, async (roomId) => {
    const ofRoom = written.filter((b) => b.room_id === roomId);
    const window = {
      checkIn: ofRoom.map((b) => b.check_in_date).sort()[0]!,
      checkOut: ofRoom.map((b) => b.check_out_date).sort().at(-1)!,
    };
    stored.set(roomId, (await activeBookingsOfRoom(roomId, window)).filter((b) => !requestedIds.has(b.id)));
  });
  return written.flatMap((booking) =>
    [...stored.get(booking.room_id!)!, ...requested.filter((b) => b.room_id === booking.room_id)]
      .filter((other) => other.id !== booking.id && overlaps(booking, other))
      .map((other) => ({ external_booking_id: booking.external_booking_id!, room_id: booking.room_id!, overlapping_booking_id: other.id })),
  );
}

/** Bookings written at once: single-item writes, so more of them than BatchWriteItem chunks. */
const PARALLEL_WRITES = 32;
/** Attempts per booking against concurrent writers before answering 503. */
const MAX_ATTEMPTS = 10;

/** Writes one decision; a write lost to a concurrent writer is read and decided again. */
async function write(clientId: string, source: string, incoming: Incoming, first: Decision, budget: TimeBudget, timestamp: string): Promise<Decision> {
  let decision = first;
  for (let attempt = 1; decision.action !== 'unchanged'; attempt++) {
    ensureTimeForNextWrite(budget);
    const written =
      decision.action === 'created'
        ? await createBooking(clientId, decision.record)
        : await updateBooking(clientId, decision.previous!, decision.changes!, timestamp);
    if (written) break;
    if (attempt >= MAX_ATTEMPTS) throw errors.serviceUnavailable();
    await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    decision = decide(source, incoming, await getBooking(clientId, incoming.id), timestamp);
  }
  return decision;
}

export async function syncBookings(clientId: string, body: PutBookingsBody, options: { now?: Date; budget?: TimeBudget } = {}) {
  const { now = new Date(), budget = UNLIMITED_TIME } = options;
  const source = body.external_source;
  const duplicates = duplicateIds(body.bookings, (b) => b.external_booking_id, (i) => `bookings[${i}].external_booking_id`, 'external_booking_id');
  if (duplicates.length) throw errors.validation(duplicates);

  const rooms = new Map(
    (await listRooms(clientId)).filter((r) => r.external_source === source && r.external_room_id).map((r) => [r.external_room_id!, r]),
  );
  const unknown = body.bookings.flatMap((b, i) =>
    rooms.has(b.external_room_id) ? [] : [{ path: `bookings[${i}].external_room_id`, message: `no synced room ${b.external_room_id} for ${source}` }],
  );
  if (unknown.length) throw unknownReference(unknown);

  // Every booking is decided, and every conflict read, before the first write.
  const incoming: Incoming[] = body.bookings.map((input) => ({
    id: syncedBookingId(clientId, source, input.external_booking_id),
    input,
    roomId: rooms.get(input.external_room_id)!.id,
  }));
  const existing = await getBookings(clientId, incoming.map((b) => b.id));
  const timestamp = now.toISOString();
  const decisions = incoming.map((b) => decide(source, b, existing.get(b.id), timestamp));
  const conflicts = await findConflicts(decisions);

  ensureTimeForWrites(budget, writeRounds(decisions.filter((d) => d.action !== 'unchanged').length, PARALLEL_WRITES));
  const final = await mapConcurrent(decisions, PARALLEL_WRITES, (decision, i) => write(clientId, source, incoming[i]!, decision, budget, timestamp));
  const items = final.map((decision, i) => ({ external_booking_id: body.bookings[i]!.external_booking_id, id: incoming[i]!.id, action: decision.action }));
  return { ...summarize(source, items), conflicts };
}
