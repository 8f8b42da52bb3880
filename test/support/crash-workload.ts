/**
 * The crash test (docs/behaviour.md "Nothing lost across crashes", issue #17 item 3), one function at
 * every size: `npm test` runs it with a few kills, `npm run stress` with twenty or more.
 *
 * `npm start` runs as a detached process group on its own ports and LOCAL_DATA_DIR. A mixed
 * workload runs against it without a pause: PMS writers sync categories, rooms, bookings and
 * check-ins with Idempotency-Keys, one write at a time each; guests pay room-booking orders on
 * the sandbox, racing for the same few rooms and nights; the client's callback URL is a loopback
 * receiver that answers 503 to the first attempt of every delivery. Meanwhile the whole group is
 * killed with SIGKILL at seeded random moments and started again on the same data. Every client
 * retries as the contract allows: the same Idempotency-Key and body (or the same order
 * reference) on a lost connection, a 5xx, a 429 or a 409 IDEMPOTENCY_REQUEST_IN_PROGRESS.
 *
 * Then the invariants, read through the API and the operator CLI: every acknowledged write is
 * there as acknowledged and replays its answer; every paid order is mirrored once, locked to its
 * room or recorded for manual assignment (and only when its room was taken); no room is held
 * twice for a night; a third of the paid orders are then half refunded by their partner, and
 * every other one of those cancelled by the PMS: no refund is made twice, and a cancelled
 * booking's nights are free; every paid booking's `booking.confirmed` arrived, under one delivery id with
 * identical signed bytes; every delivery ends `delivered`.
 *
 * Two kinds of kill (`mode`). `stack`: the whole group, the emulators with it, as `npm start`
 * dies. DynamoDB Local may then drop the last transaction it acknowledged (LOCAL-EMULATORS.md):
 * a partner whose acknowledged order is gone (404) creates it again with the same reference, pays
 * again and must end with exactly one paid order. `service`: only the service's process
 * (test/support/service-process.ts: gateway, functions, sender, sweeper), on emulators this
 * process runs and never kills, as a Lambda instance dies with DynamoDB and SQS alive: then
 * nothing acknowledged may be lost, and a partner never finds its order gone.
 *
 * The seed fixes every choice of the workload and every kill delay; how far the workload gets
 * between two kills depends on the machine. Each request and each run's output is written to
 * test-results/crash/ for a failing seed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifySignature } from '../../shared/receiver-kit';
import {
  exited,
  freeStackPorts,
  killAllStackProcesses,
  portsClosed,
  signalGroup,
  startStackProcess,
  type StackPorts,
  type StackProcess,
} from './local-stack-process';
import { startDynamoLocal, startSqsEmulator } from '../../infra/local/emulators';
import { runOps } from './ops-cli';

export type CrashMode = 'stack' | 'service';

export interface CrashWorkloadOptions {
  seed: number;
  /** What a kill takes: the whole `npm start` group, or the service's process alone. @default 'stack' */
  mode?: CrashMode;
  /** SIGKILLs of the whole process group, each followed by a start on the same data. */
  kills: number;
  /** PMS writers, each its own external_source and one write at a time. @default 2 */
  pmsWriters?: number;
  /** Guests paying orders at the same time. @default 5 */
  guests?: number;
  /** Rooms the guests race for. @default 3 */
  guestRooms?: number;
  /** A kill comes this long after the workload is answered again (uniform, ms). @default [500, 6000] */
  killDelayMs?: [number, number];
  /** The workload goes on this long after the last start (once answered) before it winds down. @default 5000 */
  tailMs?: number;
  /** How long to wait, after the workload, for every booking.confirmed. @default 180000 */
  deliveryWaitMs?: number;
  /**
   * The stack's callback retry delays: short, so a test need not wait long for the retry of a
   * first 503, yet long enough that kills catch deliveries waiting on the queue. @default '4,4,4,4,4'
   */
  retryDelaysSeconds?: string;
  /** A request retried this long without an answer the contract lets it stop at is given up. @default 240000 */
  opDeadlineMs?: number;
}

/** The invariants, in the order the test reports them. */
export const INVARIANTS = [
  'every request was answered as the contract allows',
  'every acknowledged sync write is present as acknowledged',
  'a retried sync write replays its acknowledged answer',
  'every paid order is paid and mirrored once, locked to its room or manual',
  'a retried order creation reaches the same paid order',
  'no room is held twice for the same nights',
  'no refund is made twice, however retried',
  'a cancelled booking frees its nights and nothing holds them twice',
  'every booking.confirmed arrived under one delivery id with identical signed bytes',
  'every delivery ends delivered',
  'no acknowledged order is lost while the emulators run',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

/**
 * The invariants a mode is held to. Whole-stack kills may cost DynamoDB Local's last acknowledged
 * transaction (an order: its partner creates it again, and the other invariants hold it to one
 * paid order), so only service kills are held to losing nothing.
 */
export function invariantsOf(mode: CrashMode): readonly Invariant[] {
  return mode === 'service' ? INVARIANTS : INVARIANTS.filter((i) => i !== 'no acknowledged order is lost while the emulators run');
}

export interface CrashResult {
  seed: number;
  kills: number;
  violations: Record<Invariant, string[]>;
  figures: Record<string, unknown>;
  /** Where the request log and each run's output were written. */
  logDir: string;
}

// ---- seeded choices

/** mulberry32: a tiny seeded PRNG, one stream per worker so their choices do not depend on timing. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function streamOf(seed: number, name: string): Rng {
  let h = 2166136261 ^ seed;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  const next = prng(h);
  return {
    next,
    int: (n) => Math.floor(next() * n),
    between: (lo, hi) => lo + next() * (hi - lo),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

interface Rng {
  next(): number;
  /** 0 to n - 1. */
  int(n: number): number;
  between(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// ---- the stack under test

class CrashStack {
  readonly runs: StackProcess[] = [];
  restartMs: number[] = [];

  constructor(
    readonly ports: StackPorts,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
    /** Service kills: the service's process alone, on emulators that run elsewhere (these endpoints). */
    private readonly service?: { dynamodbEndpoint: string; sqsEndpoint: string },
  ) {}

  /** The ports a kill frees: all of them, or the service's own (API and sandbox origin). */
  private get killedPorts(): Partial<StackPorts> {
    return this.service ? { api: this.ports.api, sandbox: this.ports.sandbox } : this.ports;
  }

  get current(): StackProcess {
    return this.runs[this.runs.length - 1]!;
  }

  get url(): string {
    return `http://127.0.0.1:${this.ports.api}`;
  }

  failedStarts = 0;

  /**
   * Starts it on the same ports and data. A start that is not ready in time (a loaded machine)
   * is killed like any other run and started again: only this file's stacks run in this process.
   */
  async start(): Promise<StackProcess> {
    const began = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const run = this.service
          ? await startStackProcess(
              this.ports,
              this.dataDir,
              { ...this.env, DYNAMODB_ENDPOINT: this.service.dynamodbEndpoint, SQS_ENDPOINT: this.service.sqsEndpoint },
              'test/support/service-process.ts',
            )
          : await startStackProcess(this.ports, this.dataDir, this.env);
        this.runs.push(run);
        this.restartMs.push(Date.now() - began);
        return run;
      } catch (error) {
        this.failedStarts++;
        killAllStackProcesses();
        await portsClosed(this.killedPorts, 30_000);
        if (attempt === 3) throw error;
      }
    }
  }

  /** SIGKILL to the whole group (the emulators with it, unless they run elsewhere), as a crash or an OOM kill takes it. */
  async kill(): Promise<void> {
    const { child } = this.current;
    signalGroup(child, 'SIGKILL');
    await exited(child);
    await portsClosed(this.killedPorts, 30_000);
  }
}

// ---- the client: every request recorded, retried as the contract allows

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

interface LoggedRequest {
  at: number;
  run: number;
  worker: string;
  method: string;
  path: string;
  status?: number;
  error?: string;
  ms: number;
}

class Client {
  readonly log: LoggedRequest[] = [];
  /** When a request last got an answer (epoch ms). */
  answeredAt = 0;
  retries = 0;
  inProgress409 = 0;

  constructor(
    private readonly stack: CrashStack,
    private readonly started: number,
    private readonly deadlineMs: number,
  ) {}

  /** One request (`path` on the API, or an absolute URL); undefined when no complete answer came (a refused or cut connection). */
  async once(worker: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer | undefined> {
    const began = Date.now();
    const entry: LoggedRequest = { at: began - this.started, run: this.stack.runs.length, worker, method, path, ms: 0 };
    this.log.push(entry);
    try {
      const response = await fetch(/^https?:\/\//.test(path) ? path : this.stack.url + path, {
        method,
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(40_000),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      entry.status = response.status;
      this.answeredAt = Date.now();
      return { status: response.status, headers: response.headers, text, json };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      entry.error = cause ?? (error as Error).name;
      return undefined;
    } finally {
      entry.ms = Date.now() - began;
    }
  }

  /**
   * Sends until an answer the client may stop at: no answer, a 5xx, a 429 and a 409
   * IDEMPOTENCY_REQUEST_IN_PROGRESS are retried (Retry-After honoured, backoff up to 1 s).
   * Throws when the op deadline passes.
   */
  async until(worker: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const deadline = Date.now() + this.deadlineMs;
    let backoff = 200;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) this.retries++;
      const answer = await this.once(worker, method, path, init);
      let wait = backoff;
      if (answer) {
        const retryable =
          answer.status >= 500 || answer.status === 429 || (answer.status === 409 && answer.json?.error?.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
        if (!retryable) return answer;
        if (answer.status === 409) this.inProgress409++;
        const retryAfter = Number(answer.headers.get('retry-after'));
        if (retryAfter > 0) wait = Math.min(retryAfter * 1000, 5_000);
      }
      if (Date.now() + wait > deadline) {
        throw new Error(`${worker}: ${method} ${path} gave up after ${this.deadlineMs / 1000} s (last: ${answer ? `${answer.status} ${answer.text.slice(0, 200)}` : 'no answer'})`);
      }
      await sleep(wait);
      backoff = Math.min(backoff * 2, 1_000);
    }
  }
}

// ---- the callback receiver: 503 to the first attempt of each delivery, then 200

interface Receipt {
  at: number;
  deliveryId: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  answered: number;
}

async function startFlakyReceiver(started: number) {
  const receipts: Receipt[] = [];
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const deliveryId = String(req.headers['x-service-delivery'] ?? '');
      const answered = seen.has(deliveryId) ? 200 : 503;
      seen.add(deliveryId);
      receipts.push({ at: Date.now() - started, deliveryId, headers: req.headers, rawBody: Buffer.concat(chunks), answered });
      res.writeHead(answered, { 'Content-Type': 'application/json' });
      res.end(answered === 200 ? '{"ok":true}' : '{"error":"try again"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/booking`,
    receipts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- PMS writers: sequential sync writes, and a model of what was acknowledged

interface ModelRoom {
  external_room_id: string;
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
  external_category_id: string;
}

interface ModelBooking {
  external_booking_id: string;
  external_room_id: string;
  guest_name: string;
  guests: number;
  check_in_date: string;
  check_out_date: string;
  status: 'confirmed' | 'checked_in' | 'cancelled';
}

interface Acknowledged {
  worker: string;
  path: string;
  key: string;
  body: string;
  status: number;
  json: unknown;
}

interface PmsModel {
  source: string;
  categories: Map<string, { name: string; base_price: number }>;
  rooms: Map<string, ModelRoom>;
  bookings: Map<string, ModelBooking>;
}

const SYNC = '/api/v1/property-sync';
const ORDERS = '/api/v1/payments/payment-orders';
const ACTIVE = new Set(['pending', 'confirmed', 'checked_in']);

interface Workload {
  seed: number;
  client: Client;
  syncKey: string;
  paymentKey: string;
  /** Set once the workload is to wind down: each worker finishes the write in hand and stops. */
  stopping: () => boolean;
  problems: string[];
  /** Acknowledged orders a partner later found gone (404), and created again. */
  lostOrders: string[];
}

async function syncWrite(w: Workload, worker: string, what: string, key: string, body: unknown, acks: Acknowledged[]): Promise<Answer | undefined> {
  const path = `${SYNC}/${what}`;
  const text = JSON.stringify(body);
  const answer = await w.client.until(worker, 'PUT', path, {
    headers: { Authorization: `Bearer ${w.syncKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: text,
  });
  if (answer.status !== 200) {
    w.problems.push(`seed ${w.seed}: ${worker} PUT ${what} (${key}) answered ${answer.status} ${answer.text.slice(0, 300)}`);
    return undefined;
  }
  acks.push({ worker, path, key, body: text, status: answer.status, json: answer.json });
  return answer;
}

async function runPmsWriter(w: Workload, index: number, acks: Acknowledged[], model: PmsModel): Promise<number> {
  const worker = `pms${index}`;
  const rng = streamOf(w.seed, worker);
  const source = model.source;
  let op = 0;
  let slot = 0;
  const key = () => `crash-${w.seed}-${worker}-${op++}`;

  const categoryIds = ['C1', 'C2'];
  const categories = categoryIds.map((id) => ({ external_category_id: id, name: `${worker} ${id} v0`, base_price: 80 + rng.int(100) }));
  if (!(await syncWrite(w, worker, 'room-categories', key(), { external_source: source, categories }, acks))) return op;
  for (const c of categories) model.categories.set(c.external_category_id, { name: c.name, base_price: c.base_price });

  const rooms: ModelRoom[] = ['R1', 'R2', 'R3'].map((id) => ({
    external_room_id: id,
    room_number: `${worker.toUpperCase()}-${id}`,
    room_type: rng.pick(['single', 'double', 'suite']),
    price: 50 + rng.int(200),
    max_occupancy: 1 + rng.int(3),
    external_category_id: rng.pick(categoryIds),
  }));
  if (!(await syncWrite(w, worker, 'rooms', key(), { external_source: source, rooms }, acks))) return op;
  for (const r of rooms) model.rooms.set(r.external_room_id, r);

  while (!w.stopping()) {
    const roll = rng.next();
    const confirmed = [...model.bookings.values()].filter((b) => b.status === 'confirmed');
    if (roll < 0.15) {
      const id = rng.pick(categoryIds);
      const category = { external_category_id: id, name: `${worker} ${id} v${op}`, base_price: 80 + rng.int(100) };
      if (!(await syncWrite(w, worker, 'room-categories', key(), { external_source: source, categories: [category] }, acks))) return op;
      model.categories.set(id, { name: category.name, base_price: category.base_price });
    } else if (roll < 0.35) {
      const room = { ...rng.pick([...model.rooms.values()]), price: 50 + rng.int(200), external_category_id: rng.pick(categoryIds) };
      if (!(await syncWrite(w, worker, 'rooms', key(), { external_source: source, rooms: [room] }, acks))) return op;
      model.rooms.set(room.external_room_id, room);
    } else if (roll < 0.45 && confirmed.length) {
      const booking = { ...rng.pick(confirmed), status: 'cancelled' as const };
      if (!(await syncWrite(w, worker, 'bookings', key(), { external_source: source, bookings: [booking] }, acks))) return op;
      model.bookings.set(booking.external_booking_id, booking);
    } else if (roll < 0.65 && confirmed.length) {
      const booking = rng.pick(confirmed);
      const checkin = {
        external_checkin_id: `CI-${booking.external_booking_id}`,
        external_booking_id: booking.external_booking_id,
        event: 'check_in',
        occurred_at: `${booking.check_in_date}T15:00:00Z`,
      };
      if (!(await syncWrite(w, worker, 'checkins', key(), { external_source: source, checkins: [checkin] }, acks))) return op;
      model.bookings.set(booking.external_booking_id, { ...booking, status: 'checked_in' });
    } else {
      // New bookings, each in a stay slot of its own: no two synced bookings share a night.
      const bookings: ModelBooking[] = Array.from({ length: 1 + rng.int(3) }, () => {
        const checkIn = addDays('2030-01-01', 3 * slot++);
        return {
          external_booking_id: `B${slot}`,
          external_room_id: rng.pick([...model.rooms.keys()]),
          guest_name: `Guest ${slot}`,
          guests: 1,
          check_in_date: checkIn,
          check_out_date: addDays(checkIn, 2),
          status: 'confirmed',
        };
      });
      if (!(await syncWrite(w, worker, 'bookings', key(), { external_source: source, bookings }, acks))) return op;
      for (const b of bookings) model.bookings.set(b.external_booking_id, b);
    }
    await sleep(rng.between(50, 500));
  }
  return op;
}

// ---- guests: room-booking orders paid on the sandbox

interface GuestOrder {
  guest: string;
  reference: string;
  body: string;
  roomId: string;
  checkIn: string;
  checkOut: string;
  orderReference?: string;
  /** The sandbox answered 303 to `outcome=paid`: the provider marked it paid. */
  paid: boolean;
  /** The part refunded once paid (201), with the Idempotency-Key of every retry. */
  refundedMinor?: number;
  /** Its booking, cancelled by the PMS (200) once paid and refunded. */
  cancelledBooking?: string;
}

/**
 * The way back for some paid orders: the partner refunds half of it, then (every other time) the
 * PMS cancels its booking, each retried with its own Idempotency-Key through every crash until
 * answered as the contract allows. Neither may happen twice, and a cancelled booking's nights
 * must be free.
 */
async function takeBack(w: Workload, worker: string, order: GuestOrder, rng: Rng): Promise<void> {
  const ref = encodeURIComponent(order.orderReference!);
  const payAuth = { Authorization: `Bearer ${w.paymentKey}`, 'Content-Type': 'application/json' };
  const amount = JSON.parse(order.body).amount_minor as number;
  const half = Math.floor(amount / 2);
  const refund = await w.client.until(worker, 'POST', `${ORDERS}/${ref}/refunds`, {
    headers: { ...payAuth, 'Idempotency-Key': `refund-${order.reference}` },
    body: JSON.stringify({ amount_minor: half, reason: 'crash workload' }),
  });
  if (refund.status !== 201 || refund.json.amount_minor !== half) {
    w.problems.push(`seed ${w.seed}: ${worker} refund of ${order.reference} answered ${refund.status} ${refund.text.slice(0, 300)}`);
    return;
  }
  order.refundedMinor = half;
  if (rng.int(2) !== 0) return;
  const status = await w.client.until(worker, 'GET', `${ORDERS}/${ref}`, { headers: payAuth });
  const bookingId = status.json?.service_booking_sync?.booking_id as string | undefined;
  if (!bookingId) {
    w.problems.push(`seed ${w.seed}: ${worker} order ${order.reference} has no booking to cancel: ${status.status} ${status.text.slice(0, 300)}`);
    return;
  }
  const cancel = await w.client.until(worker, 'POST', `${SYNC}/service-bookings/${encodeURIComponent(bookingId)}/cancel`, {
    headers: { Authorization: `Bearer ${w.syncKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': `cancel-${order.reference}` },
    body: JSON.stringify({ reason: 'crash workload' }),
  });
  if (cancel.status !== 200 || cancel.json.status !== 'cancelled') {
    w.problems.push(`seed ${w.seed}: ${worker} cancel of ${order.reference} (${bookingId}) answered ${cancel.status} ${cancel.text.slice(0, 300)}`);
    return;
  }
  order.cancelledBooking = bookingId;
}

/**
 * One order of a guest through its partner: create (again on a lost answer: the same order), pay
 * on the sandbox checkout on its own origin, then follow the redirect to verify, and again after a
 * crash, until the status lookup shows it paid and its booking synced. 'lost' when an order the
 * service acknowledged is answered 404 (its creation's transaction is gone).
 */
async function payForOrder(w: Workload, worker: string, order: GuestOrder, auth: Record<string, string>, rng: Rng): Promise<'done' | 'lost' | 'problem'> {
  const { reference } = order;
  const created = await w.client.until(worker, 'POST', ORDERS, { headers: auth, body: order.body });
  if (created.status !== 201 && created.status !== 200) {
    w.problems.push(`seed ${w.seed}: ${worker} create ${reference} answered ${created.status} ${created.text.slice(0, 300)}`);
    return 'problem';
  }
  order.orderReference = created.json.order_reference;
  // A completed session answers its redirect again.
  const paid = await w.client.until(worker, 'POST', created.json.checkout_url as string, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(created.json.checkout_url as string).origin },
    body: 'outcome=paid',
  });
  if (paid.status !== 303) {
    w.problems.push(`seed ${w.seed}: ${worker} sandbox checkout of ${reference} answered ${paid.status} ${paid.text.slice(0, 300)}`);
    return 'problem';
  }
  order.paid = true;
  await sleep(rng.between(0, 200));

  const verifyPath = `${ORDERS}/verify?reference=${encodeURIComponent(order.orderReference!)}`;
  const deadline = Date.now() + 240_000;
  for (;;) {
    const verified = await w.client.until(worker, 'GET', verifyPath);
    if (verified.status === 404) return 'lost';
    if (verified.status !== 303) {
      w.problems.push(`seed ${w.seed}: ${worker} verify of ${reference} answered ${verified.status} ${verified.text.slice(0, 300)}`);
      return 'problem';
    }
    const status = await w.client.until(worker, 'GET', `${ORDERS}/${encodeURIComponent(order.orderReference!)}`, { headers: auth });
    if (status.status === 404) return 'lost';
    if (status.status === 200 && status.json.status === 'paid' && status.json.service_booking_sync?.status === 'synced') return 'done';
    if (Date.now() > deadline) {
      w.problems.push(`seed ${w.seed}: ${worker} order ${reference} not paid and synced after 240 s of verifying: ${status.status} ${status.text.slice(0, 300)}`);
      return 'problem';
    }
    await sleep(1_000);
  }
}

async function runGuest(w: Workload, index: number, guestRooms: string[], orders: GuestOrder[]): Promise<void> {
  const worker = `guest${index}`;
  const rng = streamOf(w.seed, worker);
  const auth = { Authorization: `Bearer ${w.paymentKey}`, 'Content-Type': 'application/json' };
  for (let k = 0; !w.stopping(); k++) {
    // The k-th order of every guest falls in the same week: they race for its rooms and nights.
    const roomId = rng.pick(guestRooms);
    const checkIn = addDays('2029-01-01', 7 * k + rng.int(4));
    const checkOut = addDays(checkIn, 1 + rng.int(3));
    const reference = `CRASH-${w.seed}-${worker}-${k}`;
    const body = JSON.stringify({
      reference,
      amount_minor: 10_000 + 100 * rng.int(50),
      currency: 'USD',
      customer: { name: `Guest ${index}`, email: `guest${index}@example.com` },
      success_url: 'https://partner.example/return',
      cancel_url: 'https://partner.example/cancel',
      context: { type: 'room_booking', check_in_date: checkIn, check_out_date: checkOut, guests: 1, service_room_id: roomId },
    });
    const order: GuestOrder = { guest: worker, reference, body, roomId, checkIn, checkOut, paid: false };
    orders.push(order);

    // An order that the service acknowledged and later answers 404 for was lost: created again
    // with the same reference (the same order_reference), paid again, verified again.
    for (let round = 0; ; round++) {
      const outcome = await payForOrder(w, worker, order, auth, rng);
      if (outcome === 'done' && rng.int(3) === 0) await takeBack(w, worker, order, rng);
      if (outcome !== 'lost') break;
      w.lostOrders.push(`${reference} (${order.orderReference}), round ${round + 1}`);
      order.paid = false;
      if (round >= 3) {
        w.problems.push(`seed ${w.seed}: ${worker} order ${reference} lost ${round + 1} times`);
        break;
      }
    }
    await sleep(rng.between(0, 300));
  }
}

// ---- reading the stack

async function ops<T>(stackFile: string, args: string[]): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const run = await runOps(stackFile, [...args, '--json']);
    if (run.code === 0) return JSON.parse(run.stdout) as T;
    if (attempt >= 2) throw new Error(`ops ${args.join(' ')} exited ${run.code}: ${run.stdout}${run.stderr}`);
    await sleep(2_000);
  }
}

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, pollMs = 500): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(pollMs);
  }
}

const overlaps = (a: { check_in_date: string; check_out_date: string }, b: { check_in_date: string; check_out_date: string }) =>
  a.check_in_date < b.check_out_date && b.check_in_date < a.check_out_date;

interface BookingRow {
  booking_id: string;
  origin: string;
  status: string;
  payment_status: string;
  room_id: string | null;
  room_number: string | null;
  check_in_date: string;
  check_out_date: string;
  external_source: string | null;
  external_booking_id: string | null;
  payment_order_reference: string | null;
}

interface DeliveryRow {
  delivery_id: string;
  event: string;
  status: string;
  booking_id: string | null;
  attempts: unknown[];
}

// ---- the invariants

/** What the checks read: the run's record, and the stack as it is after the workload. */
interface Outcome {
  seed: number;
  client: Client;
  stackFile: string;
  clientId: string;
  syncKey: string;
  paymentKey: string;
  secret: string;
  models: PmsModel[];
  acks: Acknowledged[];
  orders: GuestOrder[];
  /** Every booking of the client, of every origin (`ops bookings list`). */
  allBookings: BookingRow[];
  receipts: Receipt[];
  fail: (invariant: Invariant, message: string) => void;
}

type BookingSync = { booking_id: string; room_id: string | null; room_assignment: string };

/** Acknowledged sync writes: each present as acknowledged (availability, bookings list), each replaying its answer. */
async function checkSyncWrites(o: Outcome): Promise<void> {
  const { client, models, acks, allBookings, fail } = o;
  const { seed } = o;
  const presence: Invariant = 'every acknowledged sync write is present as acknowledged';
  const syncAuth = { Authorization: `Bearer ${o.syncKey}` };
  const availability = async (source: string, checkIn: string, checkOut: string) => {
    const query = new URLSearchParams({ check_in_date: checkIn, check_out_date: checkOut, guests: '1', external_source: source });
    const answer = await client.until('verify', 'GET', `${SYNC}/availability?${query}`, { headers: syncAuth });
    if (answer.status !== 200) throw new Error(`seed ${seed}: availability answered ${answer.status} ${answer.text.slice(0, 300)}`);
    return answer.json as { available_rooms: Record<string, any>[] };
  };
  for (const model of models) {
    const free = await availability(model.source, '2035-01-01', '2035-01-02');
    const listed = new Map(free.available_rooms.map((r) => [r.external_room_id as string, r]));
    if (listed.size !== model.rooms.size) fail(presence, `${model.source}: ${listed.size} rooms listed, ${model.rooms.size} acknowledged`);
    for (const room of model.rooms.values()) {
      const got = listed.get(room.external_room_id);
      const category = model.categories.get(room.external_category_id)!;
      const expected = {
        room_number: room.room_number,
        room_type: room.room_type,
        price: room.price,
        max_occupancy: room.max_occupancy,
        external_category_id: room.external_category_id,
        category: { external_category_id: room.external_category_id, name: category.name, base_price: category.base_price },
      };
      const actual = got && {
        room_number: got.room_number,
        room_type: got.room_type,
        price: got.price,
        max_occupancy: got.max_occupancy,
        external_category_id: got.external_category_id,
        category: got.category && { external_category_id: got.category.external_category_id, name: got.category.name, base_price: got.category.base_price },
      };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        fail(presence, `${model.source} room ${room.external_room_id}: acknowledged ${JSON.stringify(expected)}, listed ${JSON.stringify(actual)}`);
      }
    }
    // Each acknowledged booking blocks its room for its nights while active, and only then.
    for (const booking of model.bookings.values()) {
      const free = await availability(model.source, booking.check_in_date, booking.check_out_date);
      const listedIds = free.available_rooms.map((r) => r.external_room_id as string).sort();
      const expectedIds = [...model.rooms.keys()]
        .filter((id) => ![...model.bookings.values()].some((b) => b.external_room_id === id && ACTIVE.has(b.status) && overlaps(b, booking)))
        .sort();
      if (JSON.stringify(listedIds) !== JSON.stringify(expectedIds)) {
        fail(presence, `${model.source} booking ${booking.external_booking_id} (${booking.status}, ${booking.check_in_date}..${booking.check_out_date}): rooms free ${listedIds.join(',')}, expected ${expectedIds.join(',')}`);
      }
    }
    const stored = allBookings.filter((b) => b.origin === 'sync' && b.external_source === model.source);
    if (stored.length !== model.bookings.size) fail(presence, `${model.source}: ${stored.length} synced bookings stored, ${model.bookings.size} acknowledged`);
    for (const booking of model.bookings.values()) {
      const row = stored.find((b) => b.external_booking_id === booking.external_booking_id);
      const roomNumber = model.rooms.get(booking.external_room_id)!.room_number;
      if (!row || row.status !== booking.status || row.room_number !== roomNumber || row.check_in_date !== booking.check_in_date || row.check_out_date !== booking.check_out_date) {
        fail(presence, `${model.source} booking ${booking.external_booking_id}: acknowledged ${booking.status} in ${roomNumber}, stored ${row ? `${row.status} in ${row.room_number}` : 'nothing'}`);
      }
    }
  }

  // Replays: the same key and body answer what was acknowledged.
  const replays: Invariant = 'a retried sync write replays its acknowledged answer';
  for (const ack of acks) {
    const replay = await client.until('replay', 'PUT', ack.path, {
      headers: { ...syncAuth, 'Content-Type': 'application/json', 'Idempotency-Key': ack.key },
      body: ack.body,
    });
    if (replay.status !== ack.status || JSON.stringify(replay.json) !== JSON.stringify(ack.json) || replay.headers.get('idempotent-replayed') !== 'true') {
      fail(replays, `${ack.worker} ${ack.path} (${ack.key}): acknowledged ${ack.status} ${JSON.stringify(ack.json).slice(0, 300)}, replay ${replay.status} replayed=${replay.headers.get('idempotent-replayed')} ${replay.text.slice(0, 300)}`);
    }
  }
}

/** Paid orders: paid, mirrored once, locked or manual; a created order again is the same order; no room held twice. Returns each paid order's booking. */
async function checkOrders(o: Outcome): Promise<Map<string, BookingSync>> {
  const { client, orders, allBookings, fail } = o;
  const mirrored: Invariant = 'every paid order is paid and mirrored once, locked to its room or manual';
  const payAuth = { Authorization: `Bearer ${o.paymentKey}`, 'Content-Type': 'application/json' };
  const paidOrders = orders.filter((order) => order.paid);
  const syncOf = new Map<string, BookingSync>();
  for (const order of paidOrders) {
    const status = await client.until('verify', 'GET', `${ORDERS}/${encodeURIComponent(order.orderReference!)}`, { headers: payAuth });
    const sync = status.json?.service_booking_sync;
    const orderStatus = order.refundedMinor ? 'partially_refunded' : 'paid';
    if (status.status !== 200 || status.json.status !== orderStatus || sync?.status !== 'synced' || !sync.booking_id) {
      fail(mirrored, `order ${order.reference}: ${status.status} ${status.text.slice(0, 300)}`);
      continue;
    }
    syncOf.set(order.orderReference!, sync);
    const assignmentRight =
      (sync.room_assignment === 'locked' && sync.room_id === order.roomId) || (sync.room_assignment === 'manual' && sync.room_id === null);
    if (!assignmentRight) fail(mirrored, `order ${order.reference} for room ${order.roomId}: ${JSON.stringify(sync)}`);
    const rows = allBookings.filter((b) => b.payment_order_reference === order.orderReference);
    if (rows.length !== 1) fail(mirrored, `order ${order.reference}: ${rows.length} bookings (${rows.map((r) => r.booking_id).join(', ')})`);
    const row = rows.find((b) => b.booking_id === sync.booking_id);
    const bookingStatus = order.cancelledBooking ? 'cancelled' : 'confirmed';
    if (!row || row.status !== bookingStatus || row.payment_status !== 'paid' || row.room_id !== sync.room_id) {
      fail(mirrored, `order ${order.reference}: booking ${sync.booking_id} stored as ${JSON.stringify(row)}`);
    }
  }
  const ourReferences = new Set(paidOrders.map((order) => order.orderReference));
  for (const row of allBookings.filter((b) => b.payment_order_reference && !ourReferences.has(b.payment_order_reference))) {
    fail(mirrored, `booking ${row.booking_id} mirrors ${row.payment_order_reference}, an order no guest saw paid`);
  }
  // Recorded for manual assignment only when its room was taken (by a booking active then: one
  // still active, or one the workload cancelled since).
  const cancelledIds = new Set(orders.map((order) => order.cancelledBooking).filter(Boolean));
  for (const order of paidOrders) {
    const sync = syncOf.get(order.orderReference!);
    if (sync?.room_assignment !== 'manual') continue;
    const holder = allBookings.find(
      (b) =>
        b.room_id === order.roomId &&
        (ACTIVE.has(b.status) || cancelledIds.has(b.booking_id)) &&
        overlaps(b, { check_in_date: order.checkIn, check_out_date: order.checkOut }),
    );
    if (!holder) fail(mirrored, `order ${order.reference} recorded for manual assignment, yet room ${order.roomId} is free ${order.checkIn}..${order.checkOut}`);
  }

  // Created again with the same reference: the same order, still paid.
  const recreated: Invariant = 'a retried order creation reaches the same paid order';
  for (const order of orders.filter((order) => order.orderReference)) {
    const again = await client.until('replay', 'POST', ORDERS, { headers: payAuth, body: order.body });
    const expected = order.refundedMinor ? 'partially_refunded' : order.paid ? 'paid' : again.json.status;
    if (again.status !== 200 || again.json.reused !== true || again.json.order_reference !== order.orderReference || again.json.status !== expected) {
      fail(recreated, `order ${order.reference}: created as ${order.orderReference}, again ${again.status} ${again.text.slice(0, 300)}`);
    }
  }

  // No room held twice: over every active booking of every origin.
  const held: Invariant = 'no room is held twice for the same nights';
  const active = allBookings.filter((b) => b.room_id && ACTIVE.has(b.status));
  for (let i = 0; i < active.length; i++) {
    for (let j = i + 1; j < active.length; j++) {
      const [a, b] = [active[i]!, active[j]!];
      if (a.room_id === b.room_id && overlaps(a, b)) {
        fail(held, `room ${a.room_number ?? a.room_id}: ${a.booking_id} (${a.origin} ${a.check_in_date}..${a.check_out_date}) and ${b.booking_id} (${b.origin} ${b.check_in_date}..${b.check_out_date})`);
      }
    }
  }

  // Refunded once, whatever the crashes and retries: the order shows exactly the one refund.
  const once: Invariant = 'no refund is made twice, however retried';
  for (const order of paidOrders.filter((order) => order.refundedMinor)) {
    const status = await client.until('verify', 'GET', `${ORDERS}/${encodeURIComponent(order.orderReference!)}`, { headers: payAuth });
    const refunds = (status.json?.refunds ?? []) as { amount_minor: number; status: string }[];
    if (status.json?.amount_refunded_minor !== order.refundedMinor || refunds.length !== 1 || refunds[0]!.amount_minor !== order.refundedMinor) {
      fail(once, `order ${order.reference} refunded ${order.refundedMinor} once, reads ${status.json?.amount_refunded_minor} in ${refunds.length} refunds`);
    }
  }

  // A cancelled booking holds nothing: its room is free for its nights unless another active booking has them.
  const freed: Invariant = 'a cancelled booking frees its nights and nothing holds them twice';
  for (const order of paidOrders.filter((order) => order.cancelledBooking)) {
    const row = allBookings.find((b) => b.booking_id === order.cancelledBooking);
    if (!row || row.status !== 'cancelled') {
      fail(freed, `booking ${order.cancelledBooking} of ${order.reference} acknowledged cancelled, stored as ${JSON.stringify(row)}`);
      continue;
    }
    if (!row.room_id) continue;
    const nights = { check_in_date: row.check_in_date, check_out_date: row.check_out_date };
    const other = active.some((b) => b.room_id === row.room_id && overlaps(b, nights));
    const answer = await client.until('verify', 'GET', `${SYNC}/availability?check_in_date=${row.check_in_date}&check_out_date=${row.check_out_date}&guests=1`, {
      headers: { Authorization: `Bearer ${o.syncKey}` },
    });
    const offered = ((answer.json?.available_rooms ?? []) as { id: string }[]).some((r) => r.id === row.room_id);
    if (answer.status !== 200 || offered === other) {
      fail(freed, `room ${row.room_id} for ${row.check_in_date}..${row.check_out_date} after cancelling ${row.booking_id}: ${offered ? 'offered' : 'not offered'}, other active booking: ${other}`);
    }
  }
  return syncOf;
}

/**
 * Callbacks: waits (bounded) until every paid booking's booking.confirmed was answered 200 and
 * every delivery is `delivered`, then checks ids, bytes and signatures. Returns the deliveries.
 */
async function checkCallbacks(o: Outcome, syncOf: Map<string, BookingSync>, waitMs: number, timings: Record<string, number>, lastStart: number): Promise<DeliveryRow[]> {
  const { fail, secret, stackFile, clientId } = o;
  const confirmedOf = (r: Receipt) => {
    try {
      const payload = JSON.parse(r.rawBody.toString('utf8')) as { event?: string; booking?: { id?: string } };
      return payload.event === 'booking.confirmed' ? payload.booking?.id : undefined;
    } catch {
      return undefined;
    }
  };
  const expectedBookings = new Set([...syncOf.values()].map((s) => s.booking_id));
  const deliveredBookings = () => new Set(o.receipts.filter((r) => r.answered === 200).map(confirmedOf));
  const waitBegan = Date.now();
  await waitUntil(() => {
    const delivered = deliveredBookings();
    return [...expectedBookings].every((id) => delivered.has(id));
  }, waitMs);
  timings.callbacks_wait_ms = Date.now() - waitBegan;
  timings.callbacks_complete_after_last_start_ms = Date.now() - lastStart;
  let deliveries: DeliveryRow[] = [];
  await waitUntil(async () => {
    ({ deliveries } = await ops<{ deliveries: DeliveryRow[] }>(stackFile, ['deliveries', 'list', '--client', clientId]));
    return deliveries.every((d) => d.status === 'delivered');
  }, 90_000, 3_000);
  timings.deliveries_settled_after_last_start_ms = Date.now() - lastStart;

  const callbacks: Invariant = 'every booking.confirmed arrived under one delivery id with identical signed bytes';
  const delivered = deliveredBookings();
  for (const id of expectedBookings) if (!delivered.has(id)) fail(callbacks, `booking ${id}: no booking.confirmed answered 200 within the wait`);
  const byDelivery = new Map<string, Receipt[]>();
  for (const r of o.receipts) byDelivery.set(r.deliveryId, [...(byDelivery.get(r.deliveryId) ?? []), r]);
  const deliveryIdsOfBooking = new Map<string, Set<string>>();
  for (const [deliveryId, receipts] of byDelivery) {
    if (!deliveryId) fail(callbacks, `${receipts.length} callbacks without an X-Service-Delivery header`);
    const bytes = receipts[0]!.rawBody;
    if (receipts.some((r) => !r.rawBody.equals(bytes))) fail(callbacks, `delivery ${deliveryId}: ${receipts.length} attempts with different bodies`);
    for (const r of receipts) {
      if (!verifySignature(r.rawBody, r.headers['x-service-signature'] as string | undefined, secret)) {
        fail(callbacks, `delivery ${deliveryId}: a bad signature on the attempt at ${r.at} ms`);
      }
    }
    const bookingId = confirmedOf(receipts[0]!);
    if (!bookingId) continue;
    if (!expectedBookings.has(bookingId)) fail(callbacks, `delivery ${deliveryId}: booking.confirmed for ${bookingId}, no paid order's booking`);
    deliveryIdsOfBooking.set(bookingId, (deliveryIdsOfBooking.get(bookingId) ?? new Set()).add(deliveryId));
    const payload = JSON.parse(bytes.toString('utf8')) as { room: { id: string } | null };
    const sync = [...syncOf.values()].find((s) => s.booking_id === bookingId);
    if (sync && (payload.room?.id ?? null) !== sync.room_id) fail(callbacks, `delivery ${deliveryId}: room ${payload.room?.id ?? null}, booking's room ${sync.room_id}`);
  }
  for (const [bookingId, ids] of deliveryIdsOfBooking) {
    if (ids.size !== 1) fail(callbacks, `booking ${bookingId}: booking.confirmed under ${ids.size} delivery ids (${[...ids].join(', ')})`);
  }

  const settled: Invariant = 'every delivery ends delivered';
  for (const d of deliveries.filter((d) => d.status !== 'delivered')) {
    fail(settled, `delivery ${d.delivery_id} (${d.event}, booking ${d.booking_id}) is ${d.status} after ${d.attempts.length} attempts`);
  }
  const recordsPerBooking = new Map<string, number>();
  for (const d of deliveries.filter((d) => d.event === 'booking.confirmed' && d.booking_id)) {
    recordsPerBooking.set(d.booking_id!, (recordsPerBooking.get(d.booking_id!) ?? 0) + 1);
  }
  for (const id of expectedBookings) {
    if (recordsPerBooking.get(id) !== 1) fail(settled, `booking ${id}: ${recordsPerBooking.get(id) ?? 0} booking.confirmed delivery records`);
  }
  return deliveries;
}

// ---- the run

export async function runCrashWorkload(options: CrashWorkloadOptions): Promise<CrashResult> {
  const { seed, kills } = options;
  const mode = options.mode ?? 'stack';
  const pmsWriters = options.pmsWriters ?? 2;
  const guestCount = options.guests ?? 5;
  const guestRoomCount = options.guestRooms ?? 3;
  const [killMin, killMax] = options.killDelayMs ?? [500, 6_000];
  const started = Date.now();
  const violations = Object.fromEntries(INVARIANTS.map((name) => [name, [] as string[]])) as Record<Invariant, string[]>;
  const fail = (invariant: Invariant, message: string) => violations[invariant].push(`seed ${seed}: ${message}`);

  const logDir = join(process.cwd(), 'test-results', 'crash', mode === 'stack' ? `seed-${seed}` : `seed-${seed}-${mode}`);
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), `crash-${seed}-`));
  const stackFile = join(dataDir, 'stack.json');
  const receiver = await startFlakyReceiver(started);
  // Service kills: the emulators run here, where no kill reaches them.
  const emulators = mode === 'service' ? await Promise.all([startDynamoLocal(), startSqsEmulator()]) : [];
  const stack = new CrashStack(
    await freeStackPorts(),
    dataDir,
    { CALLBACK_RETRY_DELAYS_SECONDS: options.retryDelaysSeconds ?? '4,4,4,4,4' },
    mode === 'service' ? { dynamodbEndpoint: emulators[0]!.endpoint, sqsEndpoint: emulators[1]!.endpoint } : undefined,
  );
  const client = new Client(stack, started, options.opDeadlineMs ?? 240_000);
  const killRng = streamOf(seed, 'kills');
  const killTimes: number[] = [];
  const timings: Record<string, number> = {};

  try {
    // ---- set up: the demo client's keys, the callback URL, the rooms the guests race for
    const first = await stack.start();
    const syncKey = /demo sync key \(shown once\):\s+(svc_sync_\S+)/.exec(first.output())![1]!;
    const paymentKey = /demo payment key \(shown once\):\s+(svc_pay_\S+)/.exec(first.output())![1]!;
    const { client_id: clientId } = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { client_id: string };
    const { secret } = await ops<{ secret: string }>(stackFile, ['callbacks', 'set', '--client', clientId, '--url', receiver.url]);

    let stopping = false;
    const problems: string[] = [];
    const lostOrders: string[] = [];
    const w: Workload = { seed, client, syncKey, paymentKey, stopping: () => stopping, problems, lostOrders };
    const acks: Acknowledged[] = [];
    const setup = await syncWrite(
      w,
      'setup',
      'rooms',
      `crash-${seed}-setup`,
      {
        external_source: 'hotel',
        rooms: Array.from({ length: guestRoomCount }, (_, i) => ({
          external_room_id: `G${i + 1}`, room_number: `G${i + 1}`, room_type: 'double', price: 120, max_occupancy: 2,
        })),
      },
      acks,
    );
    if (!setup) throw new Error(`seed ${seed}: the guest rooms were not created: ${problems.join('; ')}`);
    const guestRooms = (setup.json.items as { id: string }[]).map((item) => item.id);
    timings.setup_ms = Date.now() - started;

    // ---- the workload, and the kills while it runs
    const models: PmsModel[] = Array.from({ length: pmsWriters }, (_, i) => ({
      source: `pms${i + 1}`,
      categories: new Map(),
      rooms: new Map(),
      bookings: new Map(),
    }));
    const orders: GuestOrder[] = [];
    const workloadStarted = Date.now();
    const workers = [
      ...models.map((model, i) => runPmsWriter(w, i + 1, acks, model)),
      ...Array.from({ length: guestCount }, (_, i) => runGuest(w, i + 1, guestRooms, orders)),
    ].map((worker) => worker.catch((error: Error) => void problems.push(`seed ${seed}: ${error.message}`)));

    // Each kill comes a seeded delay after the workload is answered again (on a loaded machine a
    // start takes seconds, and the clients' backoff more), so every run of the stack does work.
    const answeredAgain = () => waitUntil(() => client.answeredAt > stack.current.readyAt, 30_000, 50);
    for (let k = 0; k < kills; k++) {
      await answeredAgain();
      await sleep(killRng.between(killMin, killMax));
      killTimes.push(Date.now() - started);
      await stack.kill();
      await stack.start();
    }
    const lastStart = stack.current.readyAt;
    timings.kill_phase_ms = Date.now() - workloadStarted;
    await answeredAgain();
    await sleep(options.tailMs ?? 5_000);
    stopping = true;
    await Promise.all(workers);
    timings.workload_ms = Date.now() - workloadStarted;
    timings.drain_after_last_start_ms = Date.now() - lastStart;
    for (const problem of problems) violations['every request was answered as the contract allows'].push(problem);
    if (mode === 'service') for (const lost of lostOrders) fail('no acknowledged order is lost while the emulators run', `order ${lost} was acknowledged, then answered 404`);

    const { bookings: allBookings } = await ops<{ bookings: BookingRow[] }>(stackFile, ['bookings', 'list', '--client', clientId]);
    const outcome: Outcome = { seed, client, stackFile, clientId, syncKey, paymentKey, secret, models, acks, orders, allBookings, receipts: receiver.receipts, fail };
    await checkSyncWrites(outcome);
    const syncOf = await checkOrders(outcome);
    const deliveries = await checkCallbacks(outcome, syncOf, options.deliveryWaitMs ?? 180_000, timings, lastStart);
    const paidOrders = orders.filter((order) => order.paid);
    const answered200 = receiver.receipts.filter((r) => r.answered === 200);
    const syncValues = [...syncOf.values()];
    const figures = {
      seed,
      mode,
      kills,
      restarts: stack.runs.length - 1,
      refunds: orders.filter((order) => order.refundedMinor).length,
      cancellations: orders.filter((order) => order.cancelledBooking).length,
      failed_starts: stack.failedStarts,
      kill_at_ms: killTimes,
      requests: client.log.length,
      requests_without_answer: client.log.filter((r) => r.error).length,
      retries: client.retries,
      idempotency_in_progress_409: client.inProgress409,
      acknowledged_writes: acks.length,
      orders: orders.length,
      paid: paidOrders.length,
      // Whole-stack kills: acknowledged orders DynamoDB Local dropped, each created again by its partner.
      orders_lost_and_created_again: lostOrders.length,
      locked: syncValues.filter((s) => s.room_assignment === 'locked').length,
      manual: syncValues.filter((s) => s.room_assignment === 'manual').length,
      callbacks_received: receiver.receipts.length,
      callbacks_answered_200: answered200.length,
      deliveries: deliveries.length,
      duplicates: answered200.length - new Set(answered200.map((r) => r.deliveryId)).size,
      violations: Object.values(violations).reduce((n, v) => n + v.length, 0),
      start_ms: stack.restartMs,
      ...timings,
      total_ms: Date.now() - started,
    };
    return { seed, kills, violations, figures, logDir };
  } finally {
    writeFileSync(join(logDir, 'requests.jsonl'), client.log.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(
      join(logDir, 'callbacks.jsonl'),
      receiver.receipts.map((r) => JSON.stringify({ at: r.at, delivery: r.deliveryId, answered: r.answered, body: r.rawBody.toString('utf8') })).join('\n') + '\n',
    );
    stack.runs.forEach((run, i) => writeFileSync(join(logDir, `stack-${i}.log`), run.output()));
    writeFileSync(join(logDir, 'kills.json'), `${JSON.stringify({ seed, kills, kill_at_ms: killTimes }, null, 2)}\n`);
    // Earlier runs are gone (each kill waited for its exit); the last one is killed here.
    const last = stack.runs[stack.runs.length - 1];
    if (last && last.child.exitCode === null && last.child.signalCode === null) {
      signalGroup(last.child, 'SIGKILL');
      await exited(last.child);
    }
    await receiver.close();
    await Promise.all(emulators.map((e) => e.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
