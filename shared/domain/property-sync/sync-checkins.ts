/**
 * PUT checkins: check-in/check-out activity, upserted by external_checkin_id. `check_in` moves
 * the booking to checked_in; `check_out` to checked_out, which frees its room. An event older
 * than the latest one applied to a booking is recorded but does not change the booking.
 */
import { errors } from '../../errors';
import { contentHash, nameBasedId } from '../../ids';
import type { PutCheckinsBody } from '../../schemas/property-sync';
import { mapConcurrent } from '../../store/batch';
import { applyBookingActivity, type CheckinRecord, getBookings, getCheckins, listRooms, putCheckins } from '../../store/property-store';
import { syncedBookingId } from './sync-bookings';
import { duplicateIds, summarize, unknownReference, upsertAction } from './results';

export async function syncCheckins(clientId: string, body: PutCheckinsBody, now = new Date()) {
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

  if (writes.length) {
    await putCheckins(clientId, writes);
    // Per booking, the latest new event decides; older ones are history only.
    const latest = new Map<string, CheckinRecord>();
    for (const checkin of writes) {
      const current = latest.get(checkin.booking_id);
      if (!current || checkin.occurred_at >= current.occurred_at) latest.set(checkin.booking_id, checkin);
    }
    await mapConcurrent([...latest.values()], 16, (checkin) =>
      applyBookingActivity(
        clientId,
        bookings.get(checkin.booking_id)!,
        {
          status: checkin.event === 'check_in' ? 'checked_in' : 'checked_out',
          occurredAt: checkin.occurred_at,
          roomId: checkin.external_room_id ? roomsByExternalId.get(checkin.external_room_id)!.id : undefined,
          externalRoomId: checkin.external_room_id,
        },
        timestamp,
      ),
    );
  }
  return summarize(source, items);
}
