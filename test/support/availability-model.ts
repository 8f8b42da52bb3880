/**
 * A small in-memory model of what docs/behaviour.md ("Sync writes", "Availability", "Payment orders",
 * "Local stack and operator CLI") says about rooms, bookings and availability, for the stateful
 * model test (test/integration/availability-model.test.ts). Plain TypeScript written from the
 * contract, independent of the product code on purpose: computing expectations with the
 * service's own functions would test the code against itself.
 *
 * Rooms and bookings are named by model keys (`room#1`, `sync:pms:B1`, `svc#1`); the test maps
 * them to the ids the service minted. A room sync request is modelled only when its rooms are
 * independent (roomsIndependent: how rooms of one request that trade numbers interact is not in
 * the contract).
 */

export type BookingStatus = 'pending' | 'confirmed' | 'checked_in' | 'checked_out' | 'cancelled' | 'no_show';
export const BOOKING_STATUSES: readonly BookingStatus[] = ['pending', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'no_show'];
/** docs/behaviour.md "Sync writes": "Active (blocks a room): `pending`, `confirmed`, `checked_in`". */
const ACTIVE: ReadonlySet<BookingStatus> = new Set(['pending', 'confirmed', 'checked_in']);

export interface CategoryInput {
  external_category_id: string;
  name: string;
  base_price?: number;
}

export interface RoomInput {
  external_room_id: string;
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
  is_active?: boolean;
  external_category_id?: string;
}

export interface ServiceRoomInput {
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
}

export interface BookingInput {
  external_booking_id: string;
  external_room_id: string;
  guests: number;
  check_in_date: string;
  check_out_date: string;
  status: BookingStatus;
}

export interface CheckinInput {
  external_checkin_id: string;
  external_booking_id: string;
  event: 'check_in' | 'check_out';
  occurred_at: string;
  external_room_id?: string;
}

export interface Stay {
  check_in_date: string;
  check_out_date: string;
  guests: number;
}

export interface AvailabilityQuery extends Stay {
  external_source?: string;
  external_category_id?: string;
  room_type?: string;
}

/** A write the contract refuses: its status, and the codes it may carry. */
export interface Refusal {
  refused: true;
  status: number;
  codes: string[];
}

export type Action = 'created' | 'updated' | 'unchanged' | 'linked';

export interface CategoryView {
  external_category_id: string;
  name: string;
  base_price: number | null;
}

/** A room of the availability answer; `id` is the model key. */
export interface RoomView {
  id: string;
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
  external_source: string | null;
  external_room_id: string | null;
  external_category_id: string | null;
  category: CategoryView | null;
}

export interface AvailabilityAnswer {
  check_in_date: string;
  check_out_date: string;
  nights: number;
  guests: number;
  available_rooms: RoomView[];
  categories: (CategoryView & { available_count: number })[];
}

export interface Conflict {
  external_booking_id: string;
  room: string;
  overlapping: string;
}

interface Room {
  key: string;
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
  is_active: boolean;
  external_source: string | null;
  external_room_id: string | null;
  external_category_id: string | null;
}

interface Statement {
  status: BookingStatus;
  room: string;
  external_room_id: string;
}

interface Booking {
  key: string;
  origin: 'sync' | 'reception' | 'payment';
  room: string | null;
  check_in_date: string;
  check_out_date: string;
  status: BookingStatus;
  /** Synced bookings: what the PMS said last (status and room), the content it sent, the latest check-in event applied. */
  said?: Statement;
  content?: string;
  last_activity_at?: string;
}

const refusal = (status: number, ...codes: string[]): Refusal => ({ refused: true, status, codes });

export const isRefusal = (outcome: unknown): outcome is Refusal => (outcome as Refusal | undefined)?.refused === true;

const overlaps = (a: { check_in_date: string; check_out_date: string }, b: { check_in_date: string; check_out_date: string }) =>
  a.check_in_date < b.check_out_date && a.check_out_date > b.check_in_date;

export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000);
}

/** "Natural room-number order": digit runs compared as numbers, the rest as text. */
export function naturalCompare(a: string, b: string): number {
  const parts = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const [x, y] = [pa[i]!, pb[i]!];
    const numeric = /^\d/.test(x) && /^\d/.test(y);
    const order = numeric ? Number(x) - Number(y) : x.toLowerCase().localeCompare(y.toLowerCase());
    if (order) return order;
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

export class AvailabilityModel {
  private readonly categories = new Map<string, CategoryView & { content: string }>();
  private readonly rooms: Room[] = [];
  private readonly bookings = new Map<string, Booking>();
  /** Check-in records by source + external_checkin_id: their content. */
  private readonly checkins = new Map<string, string>();
  /** Guests of the service's own bookings (a room assigned later must hold them). */
  private readonly guests = new Map<string, number>();
  private roomCount = 0;
  private serviceBookingCount = 0;

  // ---- lookups the commands use

  roomByNumber(number: string): string | undefined {
    return this.rooms.find((r) => r.room_number === number)?.key;
  }

  /** The external id under which `source` knows the room of this number, if it does. */
  externalRoomIdOf(source: string, roomNumber: string): string | undefined {
    const room = this.rooms.find((r) => r.room_number === roomNumber);
    return room?.external_source === source ? room.external_room_id! : undefined;
  }

  /** The room a source knows under this external id, as that source would send it now. */
  roomOf(source: string, externalRoomId: string): RoomInput | undefined {
    const room = this.synced(source, externalRoomId);
    if (!room) return undefined;
    return {
      external_room_id: externalRoomId,
      room_number: room.room_number,
      room_type: room.room_type,
      price: room.price,
      max_occupancy: room.max_occupancy,
      is_active: room.is_active,
      ...(room.external_category_id ? { external_category_id: room.external_category_id } : {}),
    };
  }

  /** The external ids of the bookings a source synced, in the order they were first synced. */
  syncedBookingIds(source: string): string[] {
    const prefix = syncedKey(source, '');
    return [...this.bookings.keys()].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
  }

  /** The last booking a source synced under this id, as it sent it. */
  syncedBookingInput(source: string, externalBookingId: string): BookingInput | undefined {
    const content = this.bookings.get(syncedKey(source, externalBookingId))?.content;
    return content ? (JSON.parse(content) as BookingInput) : undefined;
  }

  /** Paid bookings recorded for manual assignment (no room yet), in the order they were made. */
  manualBookings(): string[] {
    return [...this.bookings.values()].filter((b) => b.origin === 'payment' && b.room === null).map((b) => b.key);
  }

  /** The service's own bookings (reception, paid orders), in the order they were made. */
  serviceBookings(): string[] {
    return [...this.bookings.values()].filter((b) => b.origin !== 'sync').map((b) => b.key);
  }

  // ---- writes

  syncCategories(source: string, categories: CategoryInput[]): { items: { external_category_id: string; action: Action }[] } {
    const items = categories.map((input) => {
      const key = `${source}\u0000${input.external_category_id}`;
      const view = { external_category_id: input.external_category_id, name: input.name, base_price: input.base_price ?? null };
      const content = JSON.stringify(view);
      const previous = this.categories.get(key);
      this.categories.set(key, { ...view, content });
      const action: Action = !previous ? 'created' : previous.content === content ? 'unchanged' : 'updated';
      return { external_category_id: input.external_category_id, action };
    });
    return { items };
  }

  /**
   * Whether the rooms of one PUT rooms request are independent: no two of them act on the same
   * stored room (the one they update or link, the one holding their number). Only such requests
   * are modelled: how items of one request that trade rooms or numbers interact is not in the
   * contract. External ids and room numbers are distinct within the request.
   */
  roomsIndependent(source: string, inputs: RoomInput[]): boolean {
    const touched = inputs.flatMap((input) => [
      ...new Set([this.synced(source, input.external_room_id), this.rooms.find((r) => r.room_number === input.room_number)].filter((r) => r !== undefined)),
    ]);
    return touched.length === new Set(touched).size;
  }

  /** PUT rooms (independent rooms, see roomsIndependent): the whole request is checked before anything is written. */
  syncRooms(source: string, inputs: RoomInput[]): Refusal | { items: { external_room_id: string; action: Action; room: string }[] } {
    const unknownCategory = inputs.some((i) => i.external_category_id !== undefined && !this.categories.has(`${source}\u0000${i.external_category_id}`));
    const conflict = inputs.some((i) => this.roomNumberConflict(source, i));
    // Both refusals at once: the contract does not order them.
    if (unknownCategory) return conflict ? refusal(422, 'UNKNOWN_REFERENCE', 'ROOM_NUMBER_CONFLICT') : refusal(422, 'UNKNOWN_REFERENCE');
    if (conflict) return refusal(422, 'ROOM_NUMBER_CONFLICT');
    return { items: inputs.map((input) => ({ external_room_id: input.external_room_id, ...this.putRoom(source, input) })) };
  }

  /** A room set up in the service (ops CLI `rooms create`): no external ids. */
  createServiceRoom(input: ServiceRoomInput): Refusal | { room: string } {
    if (this.rooms.some((r) => r.room_number === input.room_number)) return refusal(422, 'ROOM_NUMBER_CONFLICT');
    const room: Room = {
      key: `room#${++this.roomCount}`,
      ...input,
      is_active: true,
      external_source: null,
      external_room_id: null,
      external_category_id: null,
    };
    this.rooms.push(room);
    return { room: room.key };
  }

  syncBookings(
    source: string,
    inputs: BookingInput[],
  ): Refusal | { items: { external_booking_id: string; booking: string; action: Action }[]; conflicts: Conflict[] } {
    if (inputs.some((b) => !this.synced(source, b.external_room_id))) return refusal(422, 'UNKNOWN_REFERENCE');
    const decided = inputs.map((input) => {
      const key = syncedKey(source, input.external_booking_id);
      const room = this.synced(source, input.external_room_id)!.key;
      const content = JSON.stringify(input);
      const statement: Statement = { status: input.status, room, external_room_id: input.external_room_id };
      const previous = this.bookings.get(key);
      if (!previous) {
        const booking: Booking = { key, origin: 'sync', room, check_in_date: input.check_in_date, check_out_date: input.check_out_date, status: input.status, said: statement, content };
        return { input, action: 'created' as Action, booking };
      }
      if (previous.content === content && previous.said!.room === room) return { input, action: 'unchanged' as Action, booking: previous };
      // The PMS's fields are its own; status and room change only where the PMS changed what it
      // said, so a check-in applied since is not undone by a re-sync that did not touch them.
      const said = previous.said!;
      const booking: Booking = {
        ...previous,
        check_in_date: input.check_in_date,
        check_out_date: input.check_out_date,
        status: statement.status !== said.status ? statement.status : previous.status,
        room: statement.room !== said.room || statement.external_room_id !== said.external_room_id ? statement.room : previous.room,
        said: statement,
        content,
      };
      return { input, action: 'updated' as Action, booking };
    });

    // Overlaps of each written booking with the other active bookings of its room, as they are once this request is applied.
    const inRequest = new Set(decided.map((d) => d.booking.key));
    const after = [...[...this.bookings.values()].filter((b) => !inRequest.has(b.key)), ...decided.map((d) => d.booking)];
    const conflicts = decided
      .filter((d) => d.action !== 'unchanged' && holdsRoom(d.booking))
      .flatMap((d) =>
        after
          .filter((other) => other.key !== d.booking.key && holdsRoom(other) && other.room === d.booking.room && overlaps(other, d.booking))
          .map((other) => ({ external_booking_id: d.input.external_booking_id, room: d.booking.room!, overlapping: other.key })),
      );
    for (const d of decided) this.bookings.set(d.booking.key, d.booking);
    return { items: decided.map((d) => ({ external_booking_id: d.input.external_booking_id, booking: d.booking.key, action: d.action })), conflicts };
  }

  syncCheckins(source: string, inputs: CheckinInput[]): Refusal | { items: { external_checkin_id: string; action: Action }[] } {
    const unknown = inputs.some(
      (c) => !this.bookings.has(syncedKey(source, c.external_booking_id)) || (c.external_room_id !== undefined && !this.synced(source, c.external_room_id)),
    );
    if (unknown) return refusal(422, 'UNKNOWN_REFERENCE');
    const latest = new Map<string, CheckinInput & { at: string }>();
    const items = inputs.map((input) => {
      const at = new Date(input.occurred_at).toISOString();
      const content = JSON.stringify([input.external_booking_id, input.event, at, input.external_room_id ?? null]);
      const key = `${source}\u0000${input.external_checkin_id}`;
      const previous = this.checkins.get(key);
      this.checkins.set(key, content);
      const action: Action = previous === undefined ? 'created' : previous === content ? 'unchanged' : 'updated';
      // A record already stored as it is had its effect when it was stored.
      if (action !== 'unchanged') {
        const current = latest.get(input.external_booking_id);
        if (!current || at >= current.at) latest.set(input.external_booking_id, { ...input, at });
      }
      return { external_checkin_id: input.external_checkin_id, action };
    });
    // Per booking the latest event decides; one older than an event already applied changes nothing.
    for (const event of latest.values()) {
      const booking = this.bookings.get(syncedKey(source, event.external_booking_id))!;
      if (booking.last_activity_at !== undefined && booking.last_activity_at > event.at) continue;
      booking.last_activity_at = event.at;
      booking.status = event.event === 'check_in' ? 'checked_in' : 'checked_out';
      if (event.external_room_id !== undefined) booking.room = this.synced(source, event.external_room_id)!.key;
    }
    return { items };
  }

  /** A reception booking (ops CLI `bookings create`): confirmed in the chosen room, refused when the room cannot take the stay. */
  receptionBooking(room: string, stay: Stay): Refusal | { booking: string } {
    if (!this.roomFree(room, stay)) return refusal(409, 'ROOM_NOT_AVAILABLE');
    return { booking: this.addServiceBooking('reception', room, stay) };
  }

  /** A paid room_booking order: locked to its room when the room is free for the stay, else recorded for manual assignment. */
  paidOrder(room: string | undefined, stay: Stay): { booking: string; room: string | null; room_assignment: 'locked' | 'manual' } {
    const locked = room !== undefined && this.roomFree(room, stay) ? room : null;
    return { booking: this.addServiceBooking('payment', locked, stay), room: locked, room_assignment: locked ? 'locked' : 'manual' };
  }

  /** An operator gives a manual paid booking a room (ops CLI `bookings assign`). */
  assignRoom(bookingKey: string, room: string): Refusal | { booking: string } {
    const booking = this.bookings.get(bookingKey)!;
    if (booking.room !== null) return refusal(409, 'BOOKING_ALREADY_ASSIGNED');
    const stay = { check_in_date: booking.check_in_date, check_out_date: booking.check_out_date, guests: this.guests.get(bookingKey)! };
    if (!this.roomFree(room, stay)) return refusal(409, 'ROOM_NOT_AVAILABLE');
    booking.room = room;
    return { booking: bookingKey };
  }

  /**
   * Staff or the guest cancel a service booking ("Booking changes, cancellations and refunds"):
   * its nights are free at once; a cancelled one answers as it is; checked in or out: refused.
   */
  cancelBooking(bookingKey: string): Refusal | { booking: string } {
    const booking = this.bookings.get(bookingKey)!;
    if (booking.status === 'cancelled') return { booking: bookingKey };
    if (booking.status !== 'confirmed' && booking.status !== 'pending') return refusal(409, 'BOOKING_NOT_CANCELLABLE');
    booking.status = 'cancelled';
    return { booking: bookingKey };
  }

  /**
   * Staff change a confirmed service booking's stay or room: the availability rules with the
   * booking's own nights left out; a clash changes nothing. A booking without a room keeps none
   * unless one is given.
   */
  modifyBooking(bookingKey: string, change: { stay?: Stay; room?: string }): Refusal | { booking: string } {
    const booking = this.bookings.get(bookingKey)!;
    if (booking.status !== 'confirmed') return refusal(409, 'BOOKING_NOT_CANCELLABLE');
    const stay = change.stay ?? { check_in_date: booking.check_in_date, check_out_date: booking.check_out_date, guests: this.guests.get(bookingKey)! };
    const room = change.room ?? booking.room;
    if (room !== null && !this.roomFree(room, stay, bookingKey)) return refusal(409, 'ROOM_NOT_AVAILABLE');
    Object.assign(booking, { room, check_in_date: stay.check_in_date, check_out_date: stay.check_out_date });
    this.guests.set(bookingKey, stay.guests);
    return { booking: bookingKey };
  }

  // ---- the read

  availability(query: AvailabilityQuery): AvailabilityAnswer {
    const available = this.rooms
      .filter(
        (room) =>
          this.roomFree(room.key, query) &&
          (query.external_source === undefined || room.external_source === query.external_source) &&
          (query.external_category_id === undefined || room.external_category_id === query.external_category_id) &&
          (query.room_type === undefined || room.room_type === query.room_type),
      )
      .sort((a, b) => naturalCompare(a.room_number, b.room_number))
      .map((room): RoomView => {
        const category = room.external_category_id ? this.categories.get(`${room.external_source}\u0000${room.external_category_id}`) : undefined;
        return {
          id: room.key,
          room_number: room.room_number,
          room_type: room.room_type,
          price: room.price,
          max_occupancy: room.max_occupancy,
          external_source: room.external_source,
          external_room_id: room.external_room_id,
          external_category_id: room.external_category_id,
          category: category ? { external_category_id: category.external_category_id, name: category.name, base_price: category.base_price } : null,
        };
      });
    const counts = new Map<string, CategoryView & { available_count: number }>();
    for (const room of available) {
      if (!room.category) continue;
      const key = `${room.external_source}\u0000${room.category.external_category_id}`;
      const summary = counts.get(key) ?? { ...room.category, available_count: 0 };
      summary.available_count++;
      counts.set(key, summary);
    }
    return {
      check_in_date: query.check_in_date,
      check_out_date: query.check_out_date,
      nights: nightsBetween(query.check_in_date, query.check_out_date),
      guests: query.guests,
      available_rooms: available,
      categories: [...counts.values()],
    };
  }

  // ---- internals

  private putRoom(source: string, input: RoomInput): { action: Action; room: string } {
    const content = {
      room_number: input.room_number,
      room_type: input.room_type,
      price: input.price,
      max_occupancy: input.max_occupancy,
      is_active: input.is_active ?? true,
      external_source: source,
      external_room_id: input.external_room_id,
      external_category_id: input.external_category_id ?? null,
    };
    const previous = this.synced(source, input.external_room_id);
    if (previous) {
      const same = (Object.keys(content) as (keyof typeof content)[]).every((name) => previous[name] === content[name]);
      Object.assign(previous, content);
      return { action: same ? 'unchanged' : 'updated', room: previous.key };
    }
    const holder = this.rooms.find((r) => r.room_number === input.room_number);
    if (holder) {
      // Linked: the room of that number takes this source's external ids (and moves away from any other source).
      Object.assign(holder, content);
      return { action: 'linked', room: holder.key };
    }
    const room: Room = { key: `room#${++this.roomCount}`, ...content };
    this.rooms.push(room);
    return { action: 'created', room: room.key };
  }

  private addServiceBooking(origin: 'reception' | 'payment', room: string | null, stay: Stay): string {
    const key = `svc#${++this.serviceBookingCount}`;
    this.bookings.set(key, { key, origin, room, check_in_date: stay.check_in_date, check_out_date: stay.check_out_date, status: 'confirmed' });
    this.guests.set(key, stay.guests);
    return key;
  }

  /** The contract's availability rule for one room: active, big enough, no active booking of any origin overlapping the stay. */
  private roomFree(key: string, stay: Stay, except?: string): boolean {
    const room = this.rooms.find((r) => r.key === key)!;
    if (!room.is_active || room.max_occupancy < stay.guests) return false;
    return ![...this.bookings.values()].some((b) => b.key !== except && b.room === key && ACTIVE.has(b.status) && overlaps(b, stay));
  }

  /** The room a source knows under its external id (a room taken over by another source is no longer that source's). */
  private synced(source: string, externalRoomId: string): Room | undefined {
    return this.rooms.find((r) => r.external_source === source && r.external_room_id === externalRoomId);
  }

  private roomNumberConflict(source: string, input: RoomInput): boolean {
    const previous = this.synced(source, input.external_room_id);
    const holder = this.rooms.find((r) => r.room_number === input.room_number);
    if (previous) return holder !== undefined && holder !== previous;
    return holder !== undefined && holder.external_source === source && holder.external_room_id !== null;
  }
}

export function syncedKey(source: string, externalBookingId: string): string {
  return `sync:${source}:${externalBookingId}`;
}

function holdsRoom(booking: Booking): boolean {
  return booking.room !== null && ACTIVE.has(booking.status);
}
