/**
 * A stateful model test (issue #17, item 4). fast-check generates random sequences of category,
 * room (room-number linking included), booking and check-in syncs, rooms set up in the service,
 * reception bookings, paid (and unpaid) room orders, manual room assignments, staff cancelling and
 * changing the service's own bookings, and status changes;
 * each sequence runs against the local stack (a fresh client per run) and against the in-memory
 * model of the contract (test/support/availability-model.ts). Every write's outcome (status,
 * refusal code, actions, ids, conflicts, room assignment) must be the model's, and after every
 * step GET availability for a few random ranges, guest counts and filters must answer what the
 * model says. A failure shrinks to a minimal sequence of steps, printed with the seed and path.
 *
 * Size: MODEL_RUNS (sequences), MODEL_MAX_COMMANDS (steps per sequence), MODEL_SEED; a printed
 * failure replays with MODEL_SEED, MODEL_PATH (its `path`) and MODEL_REPLAY_PATH (its `replayPath`).
 * Figures go to test-results/figures/availability-model.json.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Action,
  type AvailabilityAnswer,
  type AvailabilityQuery,
  AvailabilityModel,
  BOOKING_STATUSES,
  type BookingInput,
  type BookingStatus,
  type CategoryInput,
  type CheckinInput,
  isRefusal,
  type Refusal,
  type RoomInput,
  type ServiceRoomInput,
  type Stay,
} from '../support/availability-model';
import { recordFigures } from '../support/figures';
import { orderStatus, paidRoomBooking } from '../support/paid-orders';
import { type ApiResponse, startTestStack, type Tenant, type TestStack } from '../support/stack';

const RUNS = Number(process.env.MODEL_RUNS ?? 20);
const MAX_COMMANDS = Number(process.env.MODEL_MAX_COMMANDS ?? 30);
const SEED = Number(process.env.MODEL_SEED ?? 20_260_417);
/** A failure prints its `path` and the commands' `replayPath`: given back, they replay the shrunk case at once. */
const PATH = process.env.MODEL_PATH;
const REPLAY_PATH = process.env.MODEL_REPLAY_PATH;

const BASE = '/api/v1/property-sync';
/** A small window, a few rooms and ids: collisions are frequent. */
const WINDOW_START = '2031-03-01';
const WINDOW_DAYS = 10;
const SOURCES = ['pms', 'chan'] as const;
/** Digits and letters: the answer lists rooms in natural room-number order. */
const ROOM_NUMBERS = ['1', '2', '3', '10', '2a', 'A1'];
const EXTERNAL_ROOM_IDS = ['R1', 'R2', 'R3', 'R4'];
const BOOKING_IDS = ['B1', 'B2', 'B3', 'B4'];
const CHECKIN_IDS = ['C1', 'C2', 'C3', 'C4'];
const CATEGORY_IDS = ['std', 'suite'];
const ROOM_TYPES = ['double', 'suite'];

let stack: TestStack;
let domain: {
  reception: typeof import('../../shared/domain/bookings/reception-bookings');
  rooms: typeof import('../../shared/domain/rooms/service-rooms');
  assign: typeof import('../../shared/domain/bookings/assign-room');
  changes: typeof import('../../shared/domain/bookings/booking-changes');
};

beforeAll(async () => {
  stack = await startTestStack();
  domain = {
    reception: await import('../../shared/domain/bookings/reception-bookings'),
    rooms: await import('../../shared/domain/rooms/service-rooms'),
    assign: await import('../../shared/domain/bookings/assign-room'),
    changes: await import('../../shared/domain/bookings/booking-changes'),
  };
});

afterAll(async () => {
  await stack?.stop();
});

// ---- the system side of a run

/** One run's client and the ids the service minted for the model's keys. */
class Real {
  readonly ids = new Map<string, string>();
  readonly keys = new Map<string, string>();
  /** The last requests of the run, for the failure message. */
  readonly log: string[] = [];

  constructor(readonly tenant: Tenant) {}

  idOf(key: string): string {
    const id = this.ids.get(key);
    if (!id) throw new Error(`no id known for ${key}`);
    return id;
  }

  keyOf(id: string | null): string | null {
    return id === null ? null : (this.keys.get(id) ?? `unknown-id:${id}`);
  }

  /** Records the id the service gave a new model key; an id given to another key is a failure. */
  learn(key: string, id: string, context: string): void {
    const known = this.keys.get(id);
    if (known !== undefined && known !== key) fail(context, `id ${id} is ${known}'s, the model made a new ${key}`);
    const previous = this.ids.get(key);
    if (previous !== undefined && previous !== id) fail(context, `${key} was ${previous}, now answered as ${id}`);
    this.ids.set(key, id);
    this.keys.set(id, key);
  }

  note(line: string): void {
    this.log.push(line);
    if (this.log.length > 30) this.log.shift();
  }
}

const figures = { propertyRuns: 0, commands: 0, availabilityChecks: 0, refusedWrites: {} as Record<string, number>, byCommand: {} as Record<string, number> };

function fail(context: string, message: string): never {
  throw new Error(`${context}: ${message}`);
}

async function put(real: Real, route: string, body: unknown): Promise<ApiResponse> {
  const response = await stack.request('PUT', `${BASE}/${route}`, { key: real.tenant.syncKey, body });
  real.note(`PUT ${route} ${JSON.stringify(body)} -> ${response.status}${response.status === 200 ? '' : ` ${response.text}`}`);
  return response;
}

/** A refusal must be the model's (status and one of its codes); an acceptance must be one. */
function expectOutcome(context: string, response: { status: number; code?: string; text?: string }, expected: Refusal | object): boolean {
  if (isRefusal(expected)) {
    const code = response.code ?? String(response.status);
    figures.refusedWrites[code] = (figures.refusedWrites[code] ?? 0) + 1;
    if (response.status !== expected.status || !expected.codes.includes(response.code ?? '')) {
      fail(context, `expected ${expected.status} ${expected.codes.join(' or ')}, got ${response.status} ${response.code ?? ''} ${response.text ?? ''}`);
    }
    return false;
  }
  if (response.status !== 200) fail(context, `expected 200, got ${response.status} ${response.text ?? ''}`);
  return true;
}

function expectActions(context: string, got: { action: string }[], expected: { action: Action }[]): void {
  const [a, b] = [got.map((i) => i.action).join(','), expected.map((i) => i.action).join(',')];
  if (a !== b) fail(context, `actions expected [${b}], got [${a}]`);
}

// ---- availability: the check after every step

function availabilityPath(query: AvailabilityQuery): string {
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
  return `${BASE}/availability?${params}`;
}

/** The answer with the service's ids put back as model keys, categories in one order. */
function normalized(answer: AvailabilityAnswer, real?: Real): AvailabilityAnswer {
  return {
    ...answer,
    available_rooms: answer.available_rooms.map((room) => ({ ...room, id: real ? real.keyOf(room.id)! : room.id })),
    categories: [...answer.categories].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}

const describeQuery = (q: AvailabilityQuery) =>
  `${q.check_in_date}..${q.check_out_date} guests=${q.guests}` +
  (['external_source', 'external_category_id', 'room_type'] as const).map((f) => (q[f] === undefined ? '' : ` ${f}=${q[f]}`)).join('');

/** What differs between the model's answer and the service's, line by line. */
function difference(expected: AvailabilityAnswer, actual: AvailabilityAnswer): string[] {
  const lines: string[] = [];
  for (const field of ['check_in_date', 'check_out_date', 'nights', 'guests'] as const) {
    if (expected[field] !== actual[field]) lines.push(`${field}: expected ${expected[field]}, got ${actual[field]}`);
  }
  const numbers = (a: AvailabilityAnswer) => a.available_rooms.map((r) => r.room_number).join(' ');
  if (numbers(expected) !== numbers(actual)) lines.push(`rooms: expected [${numbers(expected)}], got [${numbers(actual)}]`);
  const byNumber = new Map(actual.available_rooms.map((r) => [r.room_number, r]));
  for (const room of expected.available_rooms) {
    const other = byNumber.get(room.room_number);
    if (!other) continue;
    for (const [name, value] of Object.entries(room)) {
      const got = other[name as keyof typeof other];
      if (JSON.stringify(value) !== JSON.stringify(got)) lines.push(`room ${room.room_number} ${name}: expected ${JSON.stringify(value)}, got ${JSON.stringify(got)}`);
    }
  }
  if (JSON.stringify(expected.categories) !== JSON.stringify(actual.categories)) {
    lines.push(`categories: expected ${JSON.stringify(expected.categories)}, got ${JSON.stringify(actual.categories)}`);
  }
  return lines;
}

async function checkAvailability(model: AvailabilityModel, real: Real, queries: AvailabilityQuery[], after: string): Promise<void> {
  for (const query of queries) {
    const response = await stack.request('GET', availabilityPath(query), { key: real.tenant.syncKey });
    figures.availabilityChecks++;
    if (response.status !== 200) fail(`availability ${describeQuery(query)} after ${after}`, `got ${response.status} ${response.text}`);
    const expected = normalized(model.availability(query));
    const actual = normalized(response.body, real);
    const lines = difference(expected, actual);
    if (lines.length) {
      throw new Error([`availability ${describeQuery(query)} after ${after} differs from the model:`, ...lines.map((l) => `  ${l}`)].join('\n'));
    }
  }
}

// ---- the steps

abstract class Step implements fc.AsyncCommand<AvailabilityModel, Real> {
  constructor(readonly queries: AvailabilityQuery[]) {}

  check(_model: Readonly<AvailabilityModel>): boolean {
    return true;
  }

  abstract apply(model: AvailabilityModel, real: Real): Promise<void>;

  async run(model: AvailabilityModel, real: Real): Promise<void> {
    figures.commands++;
    figures.byCommand[this.constructor.name] = (figures.byCommand[this.constructor.name] ?? 0) + 1;
    try {
      await this.apply(model, real);
      await checkAvailability(model, real, this.queries, `\`${this.toString()}\``);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error([message, 'last requests of the run:', ...real.log.map((l) => `  ${l}`)].join('\n'));
    }
  }

  abstract toString(): string;
}

const roomText = (r: RoomInput) =>
  `${r.external_room_id}#${r.room_number} ${r.room_type} ${r.price} occ${r.max_occupancy}${r.is_active === false ? ' inactive' : ''}${r.external_category_id ? ` cat=${r.external_category_id}` : ''}`;
const stayText = (s: Stay) => `${s.check_in_date.slice(5)}..${s.check_out_date.slice(5)} x${s.guests}`;

class SyncCategories extends Step {
  constructor(readonly source: string, readonly categories: CategoryInput[], queries: AvailabilityQuery[]) {
    super(queries);
  }
  async apply(model: AvailabilityModel, real: Real) {
    const expected = model.syncCategories(this.source, this.categories);
    const response = await put(real, 'room-categories', { external_source: this.source, categories: this.categories });
    expectOutcome(this.toString(), response, expected);
    expectActions(this.toString(), response.body.items, expected.items);
  }
  toString() {
    return `categories(${this.source}: ${this.categories.map((c) => `${c.external_category_id} "${c.name}" ${c.base_price ?? '-'}`).join(', ')})`;
  }
}

async function putRooms(model: AvailabilityModel, real: Real, source: string, rooms: RoomInput[], context: string) {
  const expected = model.syncRooms(source, rooms);
  const response = await put(real, 'rooms', { external_source: source, rooms });
  if (!expectOutcome(context, { status: response.status, code: response.body?.error?.code, text: response.text }, expected)) return;
  const outcome = expected as Exclude<typeof expected, Refusal>;
  expectActions(context, response.body.items, outcome.items);
  outcome.items.forEach((item, i) => real.learn(item.room, response.body.items[i].id, context));
}

/** PUT rooms with one to three rooms that do not act on the same stored room. */
class SyncRooms extends Step {
  constructor(readonly source: string, readonly rooms: RoomInput[], queries: AvailabilityQuery[]) {
    super(queries);
  }
  override check(model: Readonly<AvailabilityModel>) {
    return model.roomsIndependent(this.source, this.rooms);
  }
  apply(model: AvailabilityModel, real: Real) {
    return putRooms(model, real, this.source, this.rooms, this.toString());
  }
  toString() {
    return `rooms(${this.source}: ${this.rooms.map(roomText).join(', ')})`;
  }
}

/** A room's is_active turned over by its PMS: its last content with only that changed. */
class SetRoomActive extends Step {
  constructor(readonly source: string, readonly externalRoomId: string, readonly active: boolean, queries: AvailabilityQuery[]) {
    super(queries);
  }
  override check(model: Readonly<AvailabilityModel>) {
    return model.roomOf(this.source, this.externalRoomId) !== undefined;
  }
  apply(model: AvailabilityModel, real: Real) {
    const room = { ...model.roomOf(this.source, this.externalRoomId)!, is_active: this.active };
    return putRooms(model, real, this.source, [room], this.toString());
  }
  toString() {
    return `room-active(${this.source} ${this.externalRoomId} ${this.active})`;
  }
}

class CreateServiceRoom extends Step {
  constructor(readonly room: ServiceRoomInput, queries: AvailabilityQuery[]) {
    super(queries);
  }
  async apply(model: AvailabilityModel, real: Real) {
    const expected = model.createServiceRoom(this.room);
    const created = await domain.rooms.createServiceRoom(real.tenant.clientId, this.room).then(
      (room) => ({ status: 200, id: room.id }),
      (e: { status?: number; code?: string; message: string }) => ({ status: e.status ?? 0, code: e.code, text: e.message }),
    );
    real.note(`rooms create ${JSON.stringify(this.room)} -> ${created.status}`);
    if (expectOutcome(this.toString(), created, expected)) real.learn((expected as { room: string }).room, (created as { id: string }).id, this.toString());
  }
  toString() {
    return `service-room(#${this.room.room_number} ${this.room.room_type} ${this.room.price} occ${this.room.max_occupancy})`;
  }
}

async function putBookings(model: AvailabilityModel, real: Real, source: string, bookings: BookingInput[], context: string) {
  const expected = model.syncBookings(source, bookings);
  const response = await put(real, 'bookings', { external_source: source, bookings: bookings.map(bookingBody) });
  if (!expectOutcome(context, { status: response.status, code: response.body?.error?.code, text: response.text }, expected)) return;
  const outcome = expected as Exclude<typeof expected, Refusal>;
  expectActions(context, response.body.items, outcome.items);
  outcome.items.forEach((item, i) => real.learn(item.booking, response.body.items[i].id, context));
  const conflictText = (c: { external_booking_id: string; room: string | null; overlapping: string | null }) => `${c.external_booking_id}@${c.room}~${c.overlapping}`;
  const got = (response.body.conflicts as { external_booking_id: string; room_id: string; overlapping_booking_id: string }[])
    .map((c) => conflictText({ external_booking_id: c.external_booking_id, room: real.keyOf(c.room_id), overlapping: real.keyOf(c.overlapping_booking_id) }))
    .sort();
  const want = outcome.conflicts.map(conflictText).sort();
  if (got.join(' ') !== want.join(' ')) fail(context, `conflicts expected [${want.join(' ')}], got [${got.join(' ')}]`);
}

function bookingBody(b: BookingInput) {
  return { ...b, guest_name: 'Grace Guest', guest_email: 'grace@example.com', total_amount: 240, payment_status: 'paid' };
}

/** A booking as generated: its room named by room number, resolved to the source's external id when the step runs. */
type BookingSpec = Omit<BookingInput, 'external_room_id'> & { room_number: string };
type CheckinSpec = Omit<CheckinInput, 'external_room_id'> & { room_number?: string };

/** The source's external id of the room of that number; a room the source does not know gets an id it never synced. */
const externalRoomId = (model: AvailabilityModel, source: string, roomNumber: string) => model.externalRoomIdOf(source, roomNumber) ?? `X${roomNumber}`;

class SyncBookings extends Step {
  constructor(readonly source: string, readonly bookings: BookingSpec[], queries: AvailabilityQuery[]) {
    super(queries);
  }
  apply(model: AvailabilityModel, real: Real) {
    const bookings = this.bookings.map(({ room_number, ...b }): BookingInput => ({
      external_booking_id: b.external_booking_id,
      external_room_id: externalRoomId(model, this.source, room_number),
      guests: b.guests,
      check_in_date: b.check_in_date,
      check_out_date: b.check_out_date,
      status: b.status,
    }));
    return putBookings(model, real, this.source, bookings, this.toString());
  }
  toString() {
    return `bookings(${this.source}: ${this.bookings.map((b) => `${b.external_booking_id}@#${b.room_number} ${stayText(b)} ${b.status}`).join(', ')})`;
  }
}

/** What a PMS changes in a booking it sent before: its status, its guests or its dates. */
type BookingEdit = { status: BookingStatus } | { guests: number } | { check_in_date: string; check_out_date: string };

/**
 * The PMS sends one of its bookings again with one change (cancels it, marks a no-show, confirms
 * it, or changes guests or dates while still saying the status it said before, as a PMS that
 * has not caught up with a check-in does). `which` picks among the source's bookings in the
 * order they were made.
 */
class EditBooking extends Step {
  constructor(readonly source: string, readonly which: number, readonly edit: BookingEdit, queries: AvailabilityQuery[]) {
    super(queries);
  }
  override check(model: Readonly<AvailabilityModel>) {
    return model.syncedBookingIds(this.source).length > 0;
  }
  apply(model: AvailabilityModel, real: Real) {
    const ids = model.syncedBookingIds(this.source);
    const booking = { ...model.syncedBookingInput(this.source, ids[this.which % ids.length]!)!, ...this.edit };
    return putBookings(model, real, this.source, [booking], this.toString());
  }
  toString() {
    const change = Object.entries(this.edit).map(([k, v]) => `${k}=${v}`).join(' ');
    return `edit(${this.source} booking[${this.which}] ${change})`;
  }
}

class SyncCheckins extends Step {
  constructor(readonly source: string, readonly checkins: CheckinSpec[], queries: AvailabilityQuery[]) {
    super(queries);
  }
  async apply(model: AvailabilityModel, real: Real) {
    const checkins = this.checkins.map(({ room_number, ...c }): CheckinInput => ({
      ...c,
      ...(room_number === undefined ? {} : { external_room_id: externalRoomId(model, this.source, room_number) }),
    }));
    const expected = model.syncCheckins(this.source, checkins);
    const response = await put(real, 'checkins', { external_source: this.source, checkins });
    if (!expectOutcome(this.toString(), { status: response.status, code: response.body?.error?.code, text: response.text }, expected)) return;
    expectActions(this.toString(), response.body.items, (expected as Exclude<typeof expected, Refusal>).items);
  }
  toString() {
    const text = (c: CheckinSpec) => `${c.external_checkin_id} ${c.external_booking_id} ${c.event} ${c.occurred_at}${c.room_number ? ` room=#${c.room_number}` : ''}`;
    return `checkins(${this.source}: ${this.checkins.map(text).join(', ')})`;
  }
}

class ReceptionBooking extends Step {
  constructor(readonly roomNumber: string, readonly stay: Stay, queries: AvailabilityQuery[]) {
    super(queries);
  }
  override check(model: Readonly<AvailabilityModel>) {
    return model.roomByNumber(this.roomNumber) !== undefined;
  }
  async apply(model: AvailabilityModel, real: Real) {
    const room = model.roomByNumber(this.roomNumber)!;
    const expected = model.receptionBooking(room, this.stay);
    const input = { guest_name: 'Walk In', guest_email: 'walk.in@example.com', total_amount: 200, ...this.stay };
    const made = await domain.reception.createReceptionBooking(real.tenant.clientId, real.idOf(room), input).then(
      (confirmed) => ({ status: 200, id: confirmed.booking.id, room: confirmed.room?.id ?? null }),
      (e: { status?: number; code?: string; message: string }) => ({ status: e.status ?? 0, code: e.code, text: e.message, id: '', room: null }),
    );
    real.note(`bookings create --room ${this.roomNumber} ${stayText(this.stay)} -> ${made.status}`);
    if (!expectOutcome(this.toString(), made, expected)) return;
    real.learn((expected as { booking: string }).booking, made.id, this.toString());
    if (made.room !== real.idOf(room)) fail(this.toString(), `booked in ${made.room}, not in room ${this.roomNumber}`);
  }
  toString() {
    return `reception(#${this.roomNumber} ${stayText(this.stay)})`;
  }
}

/** A guest pays (or not) a room_booking order on the sandbox checkout, for a chosen room or none. */
class PaidOrder extends Step {
  constructor(readonly roomNumber: string | undefined, readonly stay: Stay, readonly outcome: 'paid' | 'cancelled' | 'failed', queries: AvailabilityQuery[]) {
    super(queries);
  }
  async apply(model: AvailabilityModel, real: Real) {
    const room = this.roomNumber === undefined ? undefined : model.roomByNumber(this.roomNumber);
    const serviceRoomId = room === undefined ? undefined : real.idOf(room);
    if (this.outcome !== 'paid') return this.unpaid(real, serviceRoomId);
    const expected = model.paidOrder(room, this.stay);
    const { sync } = await paidRoomBooking(stack, real.tenant, { ...this.stay, serviceRoomId });
    real.note(`paid order room=${this.roomNumber ?? '-'} ${stayText(this.stay)} -> ${sync.room_assignment} ${real.keyOf(sync.room_id)}`);
    real.learn(expected.booking, sync.booking_id, this.toString());
    const got = `${sync.room_assignment} ${real.keyOf(sync.room_id)}`;
    if (got !== `${expected.room_assignment} ${expected.room}`) fail(this.toString(), `expected ${expected.room_assignment} ${expected.room}, got ${got}`);
  }
  /** Cancelled or failed at the checkout: the order is not paid and books nothing. */
  private async unpaid(real: Real, serviceRoomId: string | undefined) {
    const created = await stack.request('POST', '/api/v1/payments/payment-orders', {
      key: real.tenant.paymentKey,
      body: {
        reference: `INV-${randomUUID()}`,
        amount_minor: 24000,
        currency: 'USD',
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        success_url: 'https://partner.example/return',
        cancel_url: 'https://partner.example/cancel',
        context: { type: 'room_booking', ...this.stay, ...(serviceRoomId ? { service_room_id: serviceRoomId } : {}) },
      },
    });
    if (created.status !== 201) fail(this.toString(), `order not created: ${created.status} ${created.text}`);
    const checkout = await fetch(created.body.checkout_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome: this.outcome }).toString(),
      redirect: 'manual',
    });
    await checkout.text();
    await stack.request('GET', `/api/v1/payments/payment-orders/verify?reference=${encodeURIComponent(created.body.order_reference)}`);
    const status = await orderStatus(stack, real.tenant, created.body.order_reference);
    real.note(`${this.outcome} order room=${this.roomNumber ?? '-'} ${stayText(this.stay)} -> ${status.body.status}`);
    if (status.body.status === 'paid' || status.body.service_booking_sync?.status !== 'not_applicable') {
      fail(this.toString(), `an order ${this.outcome} at the checkout is ${status.body.status}, booking ${JSON.stringify(status.body.service_booking_sync)}`);
    }
  }
  toString() {
    return `order(${this.outcome} room=${this.roomNumber === undefined ? '-' : `#${this.roomNumber}`} ${stayText(this.stay)})`;
  }
}

/** An operator gives a paid booking awaiting a room one (ops CLI `bookings assign`). */
class AssignRoom extends Step {
  constructor(readonly which: number, readonly roomNumber: string, queries: AvailabilityQuery[]) {
    super(queries);
  }
  override check(model: Readonly<AvailabilityModel>) {
    return model.manualBookings().length > 0 && model.roomByNumber(this.roomNumber) !== undefined;
  }
  async apply(model: AvailabilityModel, real: Real) {
    const manual = model.manualBookings();
    const booking = manual[this.which % manual.length]!;
    const room = model.roomByNumber(this.roomNumber)!;
    const expected = model.assignRoom(booking, room);
    const assigned = await domain.assign.assignBookingRoom(real.tenant.clientId, real.idOf(booking), real.idOf(room)).then(
      () => ({ status: 200 }),
      (e: { status?: number; code?: string; message: string }) => ({ status: e.status ?? 0, code: e.code, text: e.message }),
    );
    real.note(`bookings assign ${booking} --room ${this.roomNumber} -> ${assigned.status}`);
    expectOutcome(this.toString(), assigned, expected);
  }
  toString() {
    return `assign(manual[${this.which}] -> #${this.roomNumber})`;
  }
}

/** Staff (or the guest) cancel one of the service's own bookings. */
class CancelBooking extends Step {
  constructor(readonly which: number, queries: AvailabilityQuery[]) {
    super(queries);
  }
  override check(model: Readonly<AvailabilityModel>) {
    return model.serviceBookings().length > 0;
  }
  async apply(model: AvailabilityModel, real: Real) {
    const bookings = model.serviceBookings();
    const booking = bookings[this.which % bookings.length]!;
    const expected = model.cancelBooking(booking);
    const cancelled = await domain.changes.cancelServiceBooking(real.tenant.clientId, real.idOf(booking), { source: 'staff', reason: 'model' }).then(
      () => ({ status: 200 }),
      (e: { status?: number; code?: string; message: string }) => ({ status: e.status ?? 0, code: e.code, text: e.message }),
    );
    real.note(`bookings cancel ${booking} -> ${cancelled.status}`);
    expectOutcome(this.toString(), cancelled, expected);
  }
  toString() {
    return `cancel(service[${this.which}])`;
  }
}

/** Staff change one of the service's own bookings: its stay, its room, or both. */
class ModifyBooking extends Step {
  constructor(readonly which: number, readonly stay: Stay | undefined, readonly roomNumber: string | undefined, queries: AvailabilityQuery[]) {
    super(queries);
  }
  override check(model: Readonly<AvailabilityModel>) {
    return model.serviceBookings().length > 0 && (this.roomNumber === undefined || model.roomByNumber(this.roomNumber) !== undefined);
  }
  async apply(model: AvailabilityModel, real: Real) {
    const bookings = model.serviceBookings();
    const booking = bookings[this.which % bookings.length]!;
    const room = this.roomNumber === undefined ? undefined : model.roomByNumber(this.roomNumber);
    const expected = model.modifyBooking(booking, { stay: this.stay, room });
    const change = { ...(this.stay ?? {}), ...(room ? { room_id: real.idOf(room) } : {}) };
    const modified = await domain.changes.modifyServiceBooking(real.tenant.clientId, real.idOf(booking), change).then(
      () => ({ status: 200 }),
      (e: { status?: number; code?: string; message: string }) => ({ status: e.status ?? 0, code: e.code, text: e.message }),
    );
    real.note(`bookings modify ${booking} ${this.stay ? stayText(this.stay) : ''} room=${this.roomNumber ?? '-'} -> ${modified.status}`);
    expectOutcome(this.toString(), modified, expected);
  }
  toString() {
    return `modify(service[${this.which}] ${this.stay ? stayText(this.stay) : '-'} room=${this.roomNumber === undefined ? '-' : `#${this.roomNumber}`})`;
  }
}

// ---- generators

const day = (n: number) => new Date(Date.parse(`${WINDOW_START}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** Mostly the PMS of the opening; sometimes a channel manager with rooms of its own (and links to the PMS's). */
const source = fc.constantFrom<string>('pms', 'pms', 'pms', 'pms', 'pms', 'chan');
const guests = fc.integer({ min: 1, max: 4 });
const dates = fc
  .tuple(fc.integer({ min: 0, max: WINDOW_DAYS - 1 }), fc.integer({ min: 1, max: 4 }))
  .map(([start, nights]) => ({ check_in_date: day(start), check_out_date: day(Math.min(start + nights, WINDOW_DAYS)) }));
const stay: fc.Arbitrary<Stay> = fc.tuple(dates, guests).map(([d, g]) => ({ ...d, guests: g }));
/** The arbitrary's value with probability `p`, else undefined. */
const maybe = <T>(arbitrary: fc.Arbitrary<T>, p: number) =>
  fc.oneof({ arbitrary, weight: Math.round(p * 100) }, { arbitrary: fc.constant(undefined), weight: Math.round((1 - p) * 100) });

/** A few availability queries: ranges (some reaching past the window), guest counts and filters. */
const queries: fc.Arbitrary<AvailabilityQuery[]> = fc.array(
  fc
    .record({
      start: fc.integer({ min: 0, max: WINDOW_DAYS - 1 }),
      nights: fc.integer({ min: 1, max: 5 }),
      guests,
      external_source: maybe(fc.constantFrom<string>(...SOURCES, 'nobody'), 0.25),
      external_category_id: maybe(fc.constantFrom(...CATEGORY_IDS), 0.2),
      room_type: maybe(fc.constantFrom(...ROOM_TYPES), 0.2),
    })
    .map(({ start, nights, ...rest }) => ({ check_in_date: day(start), check_out_date: day(start + nights), ...rest })),
  { minLength: 1, maxLength: 3 },
);

const categoryInput: fc.Arbitrary<CategoryInput> = fc.record(
  { external_category_id: fc.constantFrom(...CATEGORY_IDS), name: fc.constantFrom('Standard', 'Suite', 'Deluxe'), base_price: fc.constantFrom(80, 99.5, 200) },
  { requiredKeys: ['external_category_id', 'name'] },
);

/** Mostly each external room under its own number; sometimes another one (renumbering, linking, conflicts). */
const roomInput: fc.Arbitrary<RoomInput> = fc
  .record({
    index: fc.nat({ max: EXTERNAL_ROOM_IDS.length - 1 }),
    otherNumber: maybe(fc.constantFrom(...ROOM_NUMBERS), 0.25),
    room_type: fc.constantFrom(...ROOM_TYPES),
    price: fc.constantFrom(80, 100, 120.5),
    max_occupancy: fc.integer({ min: 1, max: 4 }),
    is_active: maybe(fc.boolean(), 0.3),
    external_category_id: maybe(fc.constantFrom(...CATEGORY_IDS), 0.5),
  })
  .map(({ index, otherNumber, is_active, external_category_id, ...rest }) => ({
    external_room_id: EXTERNAL_ROOM_IDS[index]!,
    room_number: otherNumber ?? ROOM_NUMBERS[index]!,
    ...rest,
    ...(is_active === undefined ? {} : { is_active }),
    ...(external_category_id === undefined ? {} : { external_category_id }),
  }));

/** Two or three rooms in one request, external ids and numbers distinct. */
const roomsInput = fc
  .uniqueArray(roomInput, { minLength: 2, maxLength: 3, selector: (r) => r.external_room_id })
  .filter((rooms) => new Set(rooms.map((r) => r.room_number)).size === rooms.length);

const serviceRoomInput: fc.Arbitrary<ServiceRoomInput> = fc.record({
  room_number: fc.constantFrom(...ROOM_NUMBERS),
  room_type: fc.constantFrom(...ROOM_TYPES),
  price: fc.constantFrom(90, 150),
  max_occupancy: fc.integer({ min: 1, max: 4 }),
});

const status = fc.constantFrom<BookingStatus>(...BOOKING_STATUSES, 'confirmed', 'confirmed', 'pending');
/** Mostly the opening's rooms, so that bookings pile up on a few rooms. */
const bookedRoomNumber = fc.oneof({ arbitrary: fc.constantFrom('1', '2', '3'), weight: 4 }, { arbitrary: fc.constantFrom(...ROOM_NUMBERS), weight: 1 });
const bookingSpec: fc.Arbitrary<BookingSpec> = fc
  .record({ external_booking_id: fc.constantFrom(...BOOKING_IDS), room_number: bookedRoomNumber, guests, dates, status })
  .map(({ dates: d, ...rest }) => ({ ...rest, ...d }));

const bookingEdit: fc.Arbitrary<BookingEdit> = fc.oneof(
  { arbitrary: status.map((s) => ({ status: s })), weight: 3 },
  { arbitrary: guests.map((g) => ({ guests: g })), weight: 1 },
  { arbitrary: dates, weight: 1 },
);

/** Events at a few times of the window's days; some the same instant written with an offset. */
const occurredAt = fc
  .tuple(fc.integer({ min: 0, max: WINDOW_DAYS - 1 }), fc.constantFrom(9, 15), fc.boolean())
  .map(([d, hour, offset]) => (offset ? `${day(d)}T${String(hour + 2).padStart(2, '0')}:00:00+02:00` : `${day(d)}T${String(hour).padStart(2, '0')}:00:00Z`));
const checkinSpec: fc.Arbitrary<CheckinSpec> = fc.record(
  {
    external_checkin_id: fc.constantFrom(...CHECKIN_IDS),
    external_booking_id: fc.constantFrom(...BOOKING_IDS),
    event: fc.constantFrom<'check_in' | 'check_out'>('check_in', 'check_out'),
    occurred_at: occurredAt,
    room_number: bookedRoomNumber,
  },
  { requiredKeys: ['external_checkin_id', 'external_booking_id', 'event', 'occurred_at'] },
);

const steps: fc.Arbitrary<Step>[] = [
  fc.tuple(source, fc.uniqueArray(categoryInput, { minLength: 1, maxLength: 2, selector: (c) => c.external_category_id }), queries).map((a) => new SyncCategories(...a)),
  fc.tuple(source, fc.uniqueArray(categoryInput, { minLength: 1, maxLength: 2, selector: (c) => c.external_category_id }), queries).map((a) => new SyncCategories(...a)),
  fc.tuple(source, roomInput, queries).map(([s, room, q]) => new SyncRooms(s, [room], q)),
  fc.tuple(source, roomInput, queries).map(([s, room, q]) => new SyncRooms(s, [room], q)),
  fc.tuple(source, roomsInput, queries).map((a) => new SyncRooms(...a)),
  fc.tuple(serviceRoomInput, queries).map((a) => new CreateServiceRoom(...a)),
  fc.tuple(source, fc.constantFrom(...EXTERNAL_ROOM_IDS), fc.boolean(), queries).map((a) => new SetRoomActive(...a)),
  fc.tuple(source, fc.uniqueArray(bookingSpec, { minLength: 1, maxLength: 2, selector: (b) => b.external_booking_id }), queries).map((a) => new SyncBookings(...a)),
  fc.tuple(source, fc.uniqueArray(bookingSpec, { minLength: 1, maxLength: 2, selector: (b) => b.external_booking_id }), queries).map((a) => new SyncBookings(...a)),
  fc.tuple(source, fc.uniqueArray(bookingSpec, { minLength: 1, maxLength: 2, selector: (b) => b.external_booking_id }), queries).map((a) => new SyncBookings(...a)),
  fc.tuple(source, fc.nat({ max: BOOKING_IDS.length - 1 }), bookingEdit, queries).map((a) => new EditBooking(...a)),
  fc.tuple(source, fc.nat({ max: BOOKING_IDS.length - 1 }), bookingEdit, queries).map((a) => new EditBooking(...a)),
  fc.tuple(source, fc.nat({ max: BOOKING_IDS.length - 1 }), bookingEdit, queries).map((a) => new EditBooking(...a)),
  fc.tuple(source, fc.uniqueArray(checkinSpec, { minLength: 1, maxLength: 2, selector: (c) => c.external_checkin_id }), queries).map((a) => new SyncCheckins(...a)),
  fc.tuple(source, fc.uniqueArray(checkinSpec, { minLength: 1, maxLength: 2, selector: (c) => c.external_checkin_id }), queries).map((a) => new SyncCheckins(...a)),
  fc.tuple(source, fc.uniqueArray(checkinSpec, { minLength: 1, maxLength: 2, selector: (c) => c.external_checkin_id }), queries).map((a) => new SyncCheckins(...a)),
  fc.tuple(fc.constantFrom(...ROOM_NUMBERS), stay, queries).map((a) => new ReceptionBooking(...a)),
  fc.tuple(fc.constantFrom(...ROOM_NUMBERS), stay, queries).map((a) => new ReceptionBooking(...a)),
  fc.tuple(maybe(fc.constantFrom(...ROOM_NUMBERS), 0.8), stay, fc.constantFrom<'paid' | 'cancelled' | 'failed'>('paid', 'paid', 'paid', 'cancelled', 'failed'), queries).map((a) => new PaidOrder(...a)),
  fc.tuple(maybe(fc.constantFrom(...ROOM_NUMBERS), 0.8), stay, fc.constant<'paid'>('paid'), queries).map((a) => new PaidOrder(...a)),
  fc.tuple(fc.nat({ max: 5 }), fc.constantFrom(...ROOM_NUMBERS), queries).map((a) => new AssignRoom(...a)),
  fc.tuple(fc.nat({ max: 7 }), queries).map((a) => new CancelBooking(...a)),
  fc.tuple(fc.nat({ max: 7 }), maybe(stay, 0.7), maybe(fc.constantFrom(...ROOM_NUMBERS), 0.5), queries).map((a) => new ModifyBooking(...a)),
];

/**
 * Every run starts from a small hotel its PMS set up (two categories, three rooms), so that most
 * random steps find something to act on; the other source, the other numbers and the service's
 * own rooms start empty.
 */
const OPENING: Step[] = [
  new SyncCategories('pms', [{ external_category_id: 'std', name: 'Standard', base_price: 80 }, { external_category_id: 'suite', name: 'Suite' }], []),
  new SyncRooms(
    'pms',
    [
      { external_room_id: 'R1', room_number: '1', room_type: 'double', price: 100, max_occupancy: 2, external_category_id: 'std' },
      { external_room_id: 'R2', room_number: '2', room_type: 'double', price: 100, max_occupancy: 3, external_category_id: 'std' },
      { external_room_id: 'R3', room_number: '3', room_type: 'suite', price: 120.5, max_occupancy: 4, external_category_id: 'suite' },
    ],
    [],
  ),
];

async function newRun(): Promise<{ model: AvailabilityModel; real: Real }> {
  const model = new AvailabilityModel();
  const real = new Real(await stack.createTenant());
  for (const step of OPENING) await step.apply(model, real);
  return { model, real };
}

describe('availability against a model of the contract', () => {
  it(
    `answers what the model says after every step of random sequences (seed ${SEED}, ${RUNS} runs of up to ${MAX_COMMANDS} steps)`,
    async () => {
      const started = Date.now();
      let failure: unknown;
      try {
        await fc.assert(
          fc.asyncProperty(fc.commands(steps, { maxCommands: MAX_COMMANDS, size: 'max', replayPath: REPLAY_PATH }), async (commands) => {
            figures.propertyRuns++;
            await fc.asyncModelRun(newRun, commands);
          }),
          { seed: SEED, numRuns: RUNS, path: PATH },
        );
      } catch (error) {
        failure = error;
      }
      recordFigures('availability-model', {
        seed: SEED,
        runs: RUNS,
        max_commands: MAX_COMMANDS,
        property_runs_including_shrinking: figures.propertyRuns,
        commands_executed: figures.commands,
        availability_checks_compared: figures.availabilityChecks,
        writes_refused_as_predicted: figures.refusedWrites,
        commands_by_kind: figures.byCommand,
        passed: failure === undefined,
        duration_ms: Date.now() - started,
      });
      if (failure) throw failure;
      expect(figures.availabilityChecks).toBeGreaterThan(0);
    },
    120_000 + RUNS * MAX_COMMANDS * 3_000,
  );
});
