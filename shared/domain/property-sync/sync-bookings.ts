/**
 * PUT bookings: mirror external bookings by external_source + external_booking_id. Overlaps
 * with other active bookings of the same room are reported in `conflicts` and recorded anyway.
 * Synced bookings never emit callbacks.
 */
import { errors } from '../../errors';
import { contentHash, nameBasedId } from '../../ids';
import type { BookingInput, PutBookingsBody } from '../../schemas/property-sync';
import { mapConcurrent } from '../../store/batch';
import {
  activeBookingsOfRoom,
  type BookingRecord,
  getBookings,
  isActive,
  listRooms,
  putBookings,
} from '../../store/property-store';
import { duplicateIds, summarize, unknownReference, upsertAction } from './results';

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

const overlaps = (a: BookingRecord, b: BookingRecord) =>
  a.check_in_date < b.check_out_date && a.check_out_date > b.check_in_date;

/** Conflicts between the bookings as they will be stored and the other active bookings of their rooms. */
async function findConflicts(incoming: BookingRecord[]): Promise<BookingConflict[]> {
  const active = incoming.filter((b) => b.room_id && isActive(b.status));
  const incomingIds = new Set(incoming.map((b) => b.id));
  const stored = new Map<string, BookingRecord[]>();
  await mapConcurrent([...new Set(active.map((b) => b.room_id!))], 16, async (roomId) => {
    const ofRoom = active.filter((b) => b.room_id === roomId);
    const window = {
      checkIn: ofRoom.map((b) => b.check_in_date).sort()[0]!,
      checkOut: ofRoom.map((b) => b.check_out_date).sort().at(-1)!,
    };
    stored.set(roomId, (await activeBookingsOfRoom(roomId, window)).filter((b) => !incomingIds.has(b.id)));
  });
  return active.flatMap((booking) =>
    [...stored.get(booking.room_id!)!, ...active.filter((b) => b.room_id === booking.room_id)]
      .filter((other) => other.id !== booking.id && overlaps(booking, other))
      .map((other) => ({ external_booking_id: booking.external_booking_id!, room_id: booking.room_id!, overlapping_booking_id: other.id })),
  );
}

export async function syncBookings(clientId: string, body: PutBookingsBody, now = new Date()) {
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

  const ids = body.bookings.map((b) => syncedBookingId(clientId, source, b.external_booking_id));
  const existing = await getBookings(clientId, ids);
  const timestamp = now.toISOString();
  const records: BookingRecord[] = [];
  const writes: BookingRecord[] = [];
  const items = body.bookings.map((input, i) => {
    const id = ids[i]!;
    const content = bookingContent(input, rooms.get(input.external_room_id)!.id);
    const hash = contentHash(content);
    const previous = existing.get(id);
    const action = upsertAction(previous, hash);
    let record = previous!;
    if (action !== 'unchanged') {
      record = {
        id,
        origin: 'sync',
        external_source: source,
        external_booking_id: input.external_booking_id,
        ...content,
        content_hash: hash,
        // Check-in activity is not part of the synced content: an update keeps it.
        ...(previous?.last_activity_at ? { last_activity_at: previous.last_activity_at } : {}),
        ...(previous?.checked_in_at ? { checked_in_at: previous.checked_in_at } : {}),
        ...(previous?.checked_out_at ? { checked_out_at: previous.checked_out_at } : {}),
        created_at: previous?.created_at ?? timestamp,
        updated_at: timestamp,
      };
      writes.push(record);
    }
    records.push(record);
    return { external_booking_id: input.external_booking_id, id, action };
  });
  const conflicts = await findConflicts(records);
  if (writes.length) await putBookings(clientId, writes);
  return { ...summarize(source, items), conflicts };
}
