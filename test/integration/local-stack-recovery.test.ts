/**
 * The local stack stops well and starts well (docs/behaviour.md "Nothing lost across crashes"), run as
 * `npm start` is, on the file's own ports and LOCAL_DATA_DIR:
 * - Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while a sync write is in
 *   flight answers that request before the stack exits, and then the stack exits cleanly;
 * - SIGKILL to the whole group while deliveries wait on the queue for their retry, then a start
 *   on the same data: the emulator's queue is empty, and the sweeper sends every one of them,
 *   under its delivery id with the same bytes, within two minutes.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/receiver-kit';
import {
  exited,
  freeStackPorts,
  killAllStackProcesses,
  portOpen,
  portsClosed,
  signalGroup,
  startStackProcess,
  stopStackProcess,
} from '../support/local-stack-process';
import { runOps } from '../support/ops-cli';
import { startReceiver, waitFor } from '../support/receiver';

const dataDir = mkdtempSync(join(tmpdir(), 'local-stack-recovery-'));
const stackFile = join(dataDir, 'stack.json');

afterAll(() => {
  killAllStackProcesses();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run ops -- ... --json` against the running stack; its parsed result. */
async function ops<T>(...args: string[]): Promise<T> {
  const run = await runOps(stackFile, [...args, '--json']);
  if (run.code !== 0) throw new Error(`ops ${args.join(' ')} exited ${run.code}: ${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

describe('the local stack', () => {
  it('Ctrl-C while a sync write is in flight answers that request, then exits', async () => {
    // The request must have reached the gateway before Ctrl-C: on a loaded machine the stack may
    // read it later than the pause, and then answers it as a new request while stopping (503).
    // That start is tried again with a longer pause, on fresh data; an in-flight request is
    // always held to a full 200.
    async function ctrlCDuringWrite(pauseMs: number): Promise<'in flight' | 'not in flight'> {
      const dir = mkdtempSync(join(tmpdir(), 'local-stack-ctrl-c-'));
      try {
        const ports = await freeStackPorts();
        const stack = await startStackProcess(ports, dir);
        const syncKey = /demo sync key \(shown once\):\s+(svc_sync_\S+)/.exec(stack.output())![1]!;
        const body = JSON.stringify({
          external_source: 'pms',
          rooms: [{ external_room_id: 'R1', room_number: '1', room_type: 'single', price: 50, max_occupancy: 1 }],
        });

        // The sync function is loaded first (another room's sync), so the request in flight has
        // only its writes to do within the 10 s the stack gives it when stopping, however loaded
        // the machine is.
        const warm = await fetch(`${stack.url}/api/v1/property-sync/rooms`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${syncKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'ctrl-c-warm' },
          body: JSON.stringify({ external_source: 'pms', rooms: [{ external_room_id: 'R0', room_number: '0', room_type: 'single', price: 50, max_occupancy: 1 }] }),
        });
        expect(warm.status).toBe(200);

        // The request reaches the gateway, and its body is still on the way when Ctrl-C comes.
        let answeredAt = 0;
        const put = request(`${stack.url}/api/v1/property-sync/rooms`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${syncKey}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Idempotency-Key': 'ctrl-c-1' },
        });
        const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
          put.on('response', (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => {
              answeredAt = Date.now();
              resolve({ status: res.statusCode!, text });
            });
          });
          put.on('error', reject);
        });
        put.write(body.slice(0, 20));
        await new Promise((r) => setTimeout(r, pauseMs));
        const exit = exited(stack.child).then((code) => ({ code, at: Date.now() }));
        signalGroup(stack.child, 'SIGINT');
        await waitFor('the stack stopping', async () => (stack.output().includes('SIGINT: stopping') ? true : undefined));
        // Stopping: it takes no new connection, and waits for the request in flight.
        expect(await portOpen(ports.api)).toBe(false);
        await new Promise((r) => setTimeout(r, 500));
        // Still running while the request in flight waits for its body (a request read only after
        // Ctrl-C is answered at once, and the stack may be gone by now: see below).
        if (answeredAt === 0) expect(stack.child.exitCode).toBeNull();
        put.end(body.slice(20));

        // Answered in full: the write ran after Ctrl-C, on emulators Ctrl-C did not stop.
        const answer = await response;
        // The gateway's own 503 while stopping (its DEFAULT_5XX envelope, INTERNAL_ERROR): it read
        // the request only after Ctrl-C, so the request was never in flight. Not this case.
        if (answer.status === 503 && /"code":"INTERNAL_ERROR"/.test(answer.text)) {
          await exit;
          await portsClosed(ports);
          return 'not in flight';
        }
        expect(answer.status, answer.text).toBe(200);
        expect(JSON.parse(answer.text)).toMatchObject({ created: 1 });
        const { code, at } = await exit;
        expect(code).toBe(0);
        expect(answeredAt).toBeLessThanOrEqual(at);
        expect(stack.output()).toMatch(/PUT \/api\/v1\/property-sync\/rooms 200 \d+ms/);
        await portsClosed(ports);
        return 'in flight';
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    for (const pauseMs of [300, 3_000, 10_000]) if ((await ctrlCDuringWrite(pauseMs)) === 'in flight') return;
    expect.fail('the gateway never read the request before Ctrl-C, even after 10 s');
  }, 180_000);

  it('SIGKILL while deliveries wait for their retry, then a start on the same data: every one arrives within two minutes', async () => {
    const ports = await freeStackPorts();
    // Each delivery's retry waits 15 s on the queue: the stack is killed before that.
    const env = { CALLBACK_RETRY_DELAYS_SECONDS: '15,15' };
    const receiver = await startReceiver();
    try {
      const first = await startStackProcess(ports, dataDir, env);
      const { client_id: clientId } = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { client_id: string };
      const { room_id: roomId } = await ops<{ room_id: string }>(
        'rooms', 'create', '--client', clientId, '--room-number', '701', '--room-type', 'double', '--price', '100', '--max-occupancy', '2',
      );
      const { secret } = await ops<{ secret: string }>('callbacks', 'set', '--client', clientId, '--url', receiver.url);
      const count = 5;
      receiver.respondWith(...Array.from({ length: count }, () => 503));
      const bookings = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          ops<{ booking_id: string }>(
            'bookings', 'create', '--client', clientId, '--room', roomId, '--guest-name', `Guest ${i}`, '--guest-email', `guest${i}@example.com`,
            '--check-in', `2027-10-${String(10 + 2 * i)}`, '--check-out', `2027-10-${String(11 + 2 * i)}`, '--guests', '1', '--total-amount', '100',
          ),
        ),
      );
      // Every first attempt answered 503: each delivery is `retrying`, its retry on the queue.
      await waitFor(`${count} first attempts`, async () => (receiver.received.length >= count ? true : undefined), 30_000);
      await new Promise((r) => setTimeout(r, 1000));
      signalGroup(first.child, 'SIGKILL');
      await exited(first.child);
      await portsClosed(ports);
      const failedOnce = new Map(receiver.received.map((r) => [r.headers['x-service-delivery'] as string, r.rawBody.toString('utf8')]));
      expect(failedOnce.size).toBe(count);

      const second = await startStackProcess(ports, dataDir, env);
      const deliveredIds = () => new Set(receiver.received.slice(count).map((r) => r.headers['x-service-delivery'] as string));
      await waitFor(`${count} deliveries after the restart`, async () => (deliveredIds().size >= count ? true : undefined), 120_000);
      const tookMs = Date.now() - second.readyAt;
      expect(tookMs).toBeLessThan(120_000);
      console.log(`all ${count} deliveries arrived ${Math.round(tookMs / 1000)} s after the restart`);

      // Under the delivery id of its failed attempt, with the same bytes, signed with the client's secret.
      expect([...deliveredIds()].sort()).toEqual([...failedOnce.keys()].sort());
      for (const callback of receiver.received) {
        const id = callback.headers['x-service-delivery'] as string;
        expect(callback.rawBody.toString('utf8')).toBe(failedOnce.get(id));
        expect(verifySignature(callback.rawBody, callback.headers['x-service-signature'] as string, secret)).toBe(true);
      }
      const bookingIds = new Set([...failedOnce.values()].map((payload) => (JSON.parse(payload) as { booking: { id: string } }).booking.id));
      expect(bookingIds).toEqual(new Set(bookings.map((b) => b.booking_id)));
      const { deliveries } = await ops<{ deliveries: { status: string }[] }>('deliveries', 'list', '--client', clientId);
      expect(deliveries.map((d) => d.status)).toEqual(Array.from({ length: count }, () => 'delivered'));
      expect(await stopStackProcess(second.child)).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 240_000);
});
