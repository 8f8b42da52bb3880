/**
 * The rooms a booking may move to for a new stay ("Change": dates first, then only free rooms):
 * each active room, in room-number order, that the rule the change itself applies (roomProblem:
 * service bookings and open checkouts on its hold item, synced bookings) leaves free for the stay,
 * the booking's own nights left out.
 */
import { listRooms, type RoomRecord } from '../../store/room-store';
import { getRoomHolds } from '../../store/service-booking-store';
import { byRoomNumber } from '../property-sync/room-order';
import { roomProblem } from './service-bookings';

export async function roomsForChange(
  clientId: string,
  booking: { id: string },
  stay: { check_in_date: string; check_out_date: string; guests: number },
  now: Date,
): Promise<RoomRecord[]> {
  const candidates = (await listRooms(clientId)).filter((room) => room.is_active && room.max_occupancy >= stay.guests);
  const free = await Promise.all(
    candidates.map(async (room) => ((await roomProblem(room, stay, (await getRoomHolds(clientId, room.id)).holds, { now, bookingId: booking.id })) ? undefined : room)),
  );
  return free.filter((room): room is RoomRecord => room !== undefined).sort(byRoomNumber);
}
