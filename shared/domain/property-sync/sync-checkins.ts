/**
 * PUT checkins: check-in/check-out activity, upserted by external_checkin_id. `check_in` moves
 * the booking to checked_in; `check_out` to checked_out, which frees its room. An event older
 * than the latest one applied to a booking is recorded but does not change the booking.
 *
 * An event sets only the booking's activity attributes (status, last_activity_at,
 * checked_in_at / checked_out_at, and the room when it names one), under the version read, so
 * a concurrent PUT bookings and this route never revert each other (sync-bookings.ts). The
 * bookings are updated before the check-in records are stored: a stored record always had its
 * effect, and a request cut short is completed by sending it again.
 */
import { errors } from '../../errors';
import { contentHash, nameBasedId } from '../../ids';
import type { PutCheckinsBody } from '../../schemas/property-sync';
import { BATCH_PUT_PARALLEL_ITEMS, mapConcurrent } from '../../store/batch';
import { listRooms } from '../../store/room-store';
import { type BookingRecord, getBooking, getBookings, updateBooking } from '../../store/booking-store';
import { type CheckinRecord, getCheckins, putCheckins } from '../../store/checkin-store';
import { syncedBookingId } from './sync-bookings';
import { duplicateIds, summarize, unknownReference, upsertAction } from './results';
import { ensureTimeForNextWrite, ensureTimeForWrites, type TimeBudget, UNLIMITED_TIME, writeRounds } from './time-budget';

interface Activity {
  status: 'checked_in' | 'checked_out';
  occurredAt: string;
  roomId?: string;
  externalRoomId?: string;
}

/** The attributes an event changes on the booking as it is now; none when a later event was applied. */
function activityChanges(booking: BookingRecord, activity: Activity): Partial<BookingRecord> {
  if (booking.last_activity_at && booking.last_activity_at > activity.occurredAt) return {};
  const wanted: Partial<BookingRecord> = {
    status: activity.status,
    last_activity_at: activity.occurredAt,
    ...(activity.status === 'checked_in' ? { checked_in_at: activity.occurredAt } : { checked_out_at: activity.occurredAt }),
    ...(activity.roomId ? { room_id: activity.roomId, external_room_id: activity.externalRoomId } : {}),
  };
  return Object.fromEntries(Object.entries(wanted).filter(([name, value]) => booking[name as keyof BookingRecord] !== value));
}

/** Bookings updated at once (single-item writes). */
const PARALLEL_WRITES = 32;
/** Attempts per booking against concurrent writers before answering 503. */
const MAX_ATTEMPTS = 10;

/** Applies an event to a booking; a write lost to a concurrent writer reads the booking again and decides again. */
async function applyActivity(clientId: string, first: BookingRecord, activity: Activity, budget: TimeBudget, timestamp: string): Promise<void> {
  let booking = first;
  for (let attempt = 1; ; attempt++) {
    const changes = activityChanges(booking, activity);
    if (!Object.keys(changes).length) return;
    ensureTimeForNextWrite(budget);
    if (await updateBooking(clientId, booking, changes, timestamp)) return;
    if (attempt >= MAX_ATTEMPTS) throw errors.serviceUnavailable();
    await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    booking = (await getBooking(clientId, booking.id))!;
  }
}

export async function syncCheckins(clientId: string, body: PutCheckinsBody, options: { now?: Date; budget?: TimeBudget } = {}) {
  const { now = new Date(), budget = UNLIMITED_TIME } = options;
  const source = body.external_source;
  const duplicates = duplicateIds(body.checkins, (c) => c.external_checkin_id, (i) => `checkins[${i}].external_checkin_id`, 'external_checkin_id');
  if (duplicates.length) throw errors.validation(duplicates);

  const bookingIds = body.checkins.map((c) => syncedBookingId(clientId, source, c.external_booking_id));
  const needsRooms = body.checkins.some((c) => c.external_room_id !== undefined);
  const [bookings, rooms, existing] = await Promise.all([
    getBookings(clientId, bookingIds),
    needsRooms ? listRooms(clientId) : Promise.resolve([]),
    getCheckins(clientId, source, body.checkins.map((c) => c.external_checkin_id)),
  ]);
  const roomsByExternalId = new Map(rooms.filter((r) => r.external_source === source).map((r) => [r.external_room_id, r]));
  const unknown = body.checkins.flatMap((c, i) => [
    ...(bookings.has(bookingIds[i]!) ? [] : [{ path: `checkins[${i}].external_booking_id`, message: `no synced booking ${c.external_booking_id} for ${source}` }]),
    ...(c.external_room_id === undefined || roomsByExternalId.has(c.external_room_id)
      ? []
      : [{ path: `checkins[${i}].external_room_id`, message: `no synced room ${c.external_room_id} for ${source}` }]),
  ]);
  if (unknown.length) throw unknownReference(unknown);

  const timestamp = now.toISOString();
  const writes: CheckinRecord[] = [];
  const items = body.checkins.map((input, i) => {
    const content = {
      external_booking_id: input.external_booking_id,
      event: input.event,
      occurred_at: new Date(input.occurred_at).toISOString(),
      external_room_id: input.external_room_id,
      notes: input.notes,
    };
    const hash = contentHash(content);
    const previous = existing.get(input.external_checkin_id);
    const id = previous?.id ?? nameBasedId(clientId, 'checkin', source, input.external_checkin_id);
    const action = upsertAction(previous, hash);
    if (action !== 'unchanged') {
      writes.push({
        id,
        external_source: source,
        external_checkin_id: input.external_checkin_id,
        booking_id: bookingIds[i]!,
        ...content,
        content_hash: hash,
        created_at: previous?.created_at ?? timestamp,
        updated_at: timestamp,
      });
    }
    return { external_checkin_id: input.external_checkin_id, id, action };
  });

  // Per booking, the latest new event decides; older ones are history only.
  const latest = new Map<string, CheckinRecord>();
  for (const checkin of writes) {
    const current = latest.get(checkin.booking_id);
    if (!current || checkin.occurred_at >= current.occurred_at) latest.set(checkin.booking_id, checkin);
  }
  ensureTimeForWrites(budget, writeRounds(latest.size, PARALLEL_WRITES) + writeRounds(writes.length, BATCH_PUT_PARALLEL_ITEMS));
  await mapConcurrent([...latest.values()], PARALLEL_WRITES, (checkin) =>
    applyActivity(
      clientId,
      bookings.get(checkin.booking_id)!,
      {
        status: checkin.event === 'check_in' ? 'checked_in' : 'checked_out',
        occurredAt: checkin.occurred_at,
        roomId: checkin.external_room_id ? roomsByExternalId.get(checkin.external_room_id)!.id : undefined,
        externalRoomId: checkin.external_room_id,
      },
      budget,
      timestamp,
    ),
  );
  if (writes.length) await putCheckins(clientId, writes, () => ensureTimeForNextWrite(budget));
  return summarize(source, items);
}
