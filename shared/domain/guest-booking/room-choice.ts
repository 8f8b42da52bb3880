/**
 * Which rooms a guest's booking may hold, and what it costs (docs/behaviour.md "The guest's
 * booking page as a storefront"): the guest books a room type, and the service picks the room.
 * The candidates are the type's rooms free for the stay at its cheapest total (the price the
 * guest was shown), cheapest first; the hold takes the first one still free, in the hold's own
 * transaction (checkout-holds.ts holdOneOf). A booking naming one room (operator tools and tests)
 * has that room alone. The price is the room price with the hotel's taxes (stay-price.ts).
 */
import { errors } from '../../errors';
import type { RoomRecord } from '../../store/room-store';
import { getRoom } from '../../store/service-booking-store';
import { type StayPrice, stayPrice } from '../bookings/stay-price';
import type { PlanOnStay } from '../rates/stay-rates';
import { stayCharge } from '../rates/room-rates';
import type { BookingInput, StayQuery } from './booking-input';
import { MAX_ROOM_CANDIDATES } from './checkout-holds';
import { chosenRoom, type GuestClient } from './guest-client';
import { type OfferedRoomFigures, roomTypeOf, searchRooms } from './room-search';

export interface RoomChoice {
  /** The rooms to try, in order (one, when the booking names it). */
  rooms: RoomRecord[];
  /** The room type booked, when the guest booked a type. */
  room_type?: string;
  /** The room price of the stay (the plan's total, or price x nights) and the plan it is on. */
  total: number;
  plan?: PlanOnStay;
  price: StayPrice;
}

/** What the attempt's identity says was chosen (tokens.ts): the type and plan, or the room. */
export function choiceOf(input: Pick<BookingInput, 'room_id' | 'room_type' | 'rate_plan'>): string {
  return input.room_type !== undefined ? JSON.stringify(['type', input.room_type, input.rate_plan ?? null]) : String(input.room_id ?? '');
}

/** A room's total on the plan asked for (else its cheapest); undefined when that plan does not take the stay. */
const totalOn = (room: OfferedRoomFigures, ratePlanId: string | undefined) =>
  !room.plans ? room.total : ratePlanId === undefined ? room.plans[0]?.total : room.plans.find((p) => p.external_rate_plan_id === ratePlanId)?.total;

/**
 * The rooms the booking may hold and the stay's price. 409 ROOM_NOT_AVAILABLE when no room of the
 * type is free for the stay (on that plan); 404 for an unknown room; the plan's refusals as stayCharge's.
 * `heldBefore`: the room an earlier submit of the same attempt holds (a repeat, a double click). It
 * is not free to the search (its own hold takes it), so it comes first if it is of the type: the
 * repeat finds its hold and writes nothing, instead of holding a second room, or being told the
 * type is taken when it held the last one.
 */
export async function roomChoice(client: GuestClient, input: Pick<BookingInput, 'room_id' | 'room_type' | 'rate_plan'>, stay: StayQuery, now: Date, heldBefore?: string): Promise<RoomChoice> {
  let rooms: RoomRecord[];
  if (input.room_type !== undefined) {
    const type = input.room_type;
    const found = await searchRooms(client.client_id, stay, now);
    const priced = (found.categories.find((c) => c.name === type)?.rooms ?? []).flatMap((room) => {
      const total = totalOn(room, input.rate_plan);
      return total === undefined ? [] : [{ room, total }];
    });
    const cheapest = Math.min(...priced.map((p) => p.total));
    let ids = priced.filter((p) => p.total === cheapest).map((p) => p.room.room_id);
    if (heldBefore && (ids.includes(heldBefore) || (await roomTypeOf(client.client_id, heldBefore)) === type)) ids = [heldBefore, ...ids.filter((id) => id !== heldBefore)];
    rooms = (await Promise.all(ids.slice(0, MAX_ROOM_CANDIDATES).map((id) => getRoom(client.client_id, id)))).filter((room): room is RoomRecord => room !== undefined);
    if (!rooms.length) throw errors.roomTypeTaken(type);
  } else {
    rooms = [await chosenRoom(client.client_id, input.room_id)];
  }
  // Rooms of one type at one total: the first's charge is every candidate's.
  const { total, plan } = await stayCharge(client.client_id, rooms[0]!, stay, client.currency, input.rate_plan);
  return {
    rooms,
    ...(input.room_type !== undefined ? { room_type: input.room_type } : {}),
    total,
    ...(plan ? { plan } : {}),
    price: stayPrice(total, client, client.currency),
  };
}
