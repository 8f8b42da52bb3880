/**
 * An operator gives a room to a paid booking recorded for manual assignment (docs/behaviour.md
 * "booking.confirmed for bookings assigned later"): the operator CLI's `bookings assign` and the
 * dashboard's "Assign room". One transaction writes the booking's room, the room's hold
 * (version-checked: the same no-double-booking guarantee as a locked paid order or a reception
 * booking), the paid order's booking_sync naming the room, and a second booking.confirmed
 * delivery for the same booking id, now with the room, under a new delivery id.
 */
import { errors } from '../../errors';
import { newDelivery } from '../../store/delivery-store';
import { getEndpoint } from '../../store/endpoint-store';
import { isConditionFailure } from '../../store/items';
import type { RoomRecord } from '../../store/room-store';
import { type BookingRecord, getBooking, isActive } from '../../store/booking-store';
import { getBookingClient, getRoom, getRoomHolds, roomAssignmentItems } from '../../store/service-booking-store';
import { transactWrite } from '../../store/transactions';
import { bookingConfirmedPayload } from '../callbacks/payloads';
import { withConcurrencyRetry } from '../property-sync/results';
import { dispatchAll, holdsWith, roomProblem } from './service-bookings';

export interface AssignedRoom {
  booking: BookingRecord;
  room: RoomRecord;
  /** The booking.confirmed delivery carrying the room; undefined when the client has no callback URL. */
  delivery_id?: string;
}

/**
 * The client a service-made booking belongs to, for callers that know only the booking id (the
 * operator CLI). 404 NOT_FOUND for an id no service booking has.
 */
export async function findBookingClient(bookingId: string): Promise<string> {
  const clientId = await getBookingClient(bookingId);
  if (!clientId) throw errors.bookingNotFound(bookingId);
  return clientId;
}

/**
 * Gives the client's booking `bookingId` the client's room `roomId` for its whole stay.
 * Refused: an unknown booking or room, or another client's (404 NOT_FOUND); a booking that has a
 * room (409 BOOKING_ALREADY_ASSIGNED); a synced or no longer active booking (409
 * BOOKING_NOT_ASSIGNABLE); a room taken for any of its nights, inactive or too small (409
 * ROOM_NOT_AVAILABLE). However many run at once for one room, overlapping stays never share it.
 */
export async function assignBookingRoom(clientId: string, bookingId: string, roomId: string, now = new Date()): Promise<AssignedRoom> {
  const timestamp = now.toISOString();
  const endpoint = await getEndpoint(clientId, 'callback');
  try {
    const planned = await withConcurrencyRetry(async () => {
      const booking = await getBooking(clientId, bookingId);
      if (!booking) throw errors.bookingNotFound(bookingId);
      if (booking.room_id) throw errors.bookingAlreadyAssigned(bookingId, booking.room_id);
      if (booking.origin === 'sync') {
        throw errors.bookingSyncedFromPms(bookingId, booking.external_source);
      }
      if (!isActive(booking.status)) throw errors.bookingNotActive(bookingId, booking.status);

      const [room, holds] = await Promise.all([getRoom(clientId, roomId), getRoomHolds(clientId, roomId)]);
      if (!room) throw errors.roomNotFound(roomId);
      const problem = await roomProblem(room, booking, holds.holds, { now, bookingId: booking.id });
      if (problem) throw errors.roomNotAssignable(room.room_number, roomId, problem);

      const assigned: BookingRecord = { ...booking, room_id: room.id, sequence: (booking.sequence ?? 1) + 1, updated_at: timestamp };
      const deliveries = endpoint
        ? [
            newDelivery({
              clientId,
              event: 'booking.confirmed',
              endpoint: 'callback',
              payload: bookingConfirmedPayload(clientId, assigned, room, now),
              at: timestamp,
              booking_id: booking.id,
            }),
          ]
        : [];
      const hold = { roomId: room.id, holds: holdsWith(holds.holds, assigned, timestamp), readVersion: holds.version };
      await transactWrite(roomAssignmentItems({ clientId, read: booking, assigned, hold, deliveries }));
      return { booking: assigned, room, deliveries };
    }, 8);
    await dispatchAll(planned.deliveries);
    return { booking: planned.booking, room: planned.room, delivery_id: planned.deliveries[0]?.delivery_id };
  } catch (error) {
    // Still losing to concurrent writers after every retry: the caller may try again.
    if (isConditionFailure(error)) throw errors.serviceUnavailable();
    throw error;
  }
}
