/**
 * The front desk's booking actions, each with its audit entry: a reception booking ("New
 * booking", and `ops bookings create`) and a room given to a paid booking waiting for one
 * ("Assign room", and `ops bookings assign`). The entry never undoes the booking: a failure to
 * record it is logged (recordActionQuietly).
 */
import { type AssignedRoom, assignBookingRoom } from '../bookings/assign-room';
import { createReceptionBooking, type GuestInput, type StayInput } from '../bookings/reception-bookings';
import type { ConfirmedBooking } from '../bookings/service-bookings';
import { type Actor, recordActionQuietly } from './actor';

/** Books `roomId` for the stay (createReceptionBooking's rules and refusals) and records `booking.create`. */
export async function createDeskBooking(actor: Actor, roomId: string, input: StayInput & GuestInput, now = new Date()): Promise<ConfirmedBooking> {
  const confirmed = await createReceptionBooking(actor.client_id, roomId, input, now);
  const { booking, room } = confirmed;
  await recordActionQuietly(
    actor,
    {
      action: 'booking.create',
      target: booking.id,
      changes: {
        origin: booking.origin,
        booking_reference: booking.booking_reference ?? null,
        room_id: room?.id ?? null,
        room_number: room?.room_number ?? null,
        guest_name: booking.guest_name,
        check_in_date: booking.check_in_date,
        check_out_date: booking.check_out_date,
        guests: booking.guests,
        total_amount: booking.total_amount ?? null,
      },
    },
    now,
  );
  return confirmed;
}

/** Gives the booking the room (assignBookingRoom's rules and refusals) and records `booking.assign_room`. */
export async function assignRoom(actor: Actor, bookingId: string, roomId: string, now = new Date()): Promise<AssignedRoom> {
  const assigned = await assignBookingRoom(actor.client_id, bookingId, roomId, now);
  const { booking, room, delivery_id } = assigned;
  await recordActionQuietly(
    actor,
    {
      action: 'booking.assign_room',
      target: booking.id,
      changes: {
        room_id: room.id,
        room_number: room.room_number,
        check_in_date: booking.check_in_date,
        check_out_date: booking.check_out_date,
        booking_confirmed_delivery: delivery_id ?? null,
      },
    },
    now,
  );
  return assigned;
}
