/**
 * Faults of the dependencies: DynamoDB throttling and timeouts (injected with an SDK
 * middleware inside the SDK's retry layer, against the real DynamoDB Local), a callback
 * receiver that hangs, and the whole local stack killed in the middle of a sync.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../definitions/local-stack';
import { freeStackPorts, killAllStackProcesses, signalGroup, type StackPorts, type StackProcess, startStackProcess } from '../support/local-stack-process';
import { waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let tenant: Tenant;
/** Failures still to inject, and which command they hit. */
const inject = { remaining: 0, command: 'QueryCommand', name: 'ThrottlingException' };

const availability = '/api/v1/property-sync/availability?check_in_date=2027-04-01&check_out_date=2027-04-03&guests=1';

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  const { dynamoClient } = await import('../../shared/store/dynamo');
  // finalizeRequest/low runs inside the SDK's retry middleware: injected failures are retried as real ones would be.
  dynamoClient.middlewareStack.add(
    (next, context) => async (args) => {
      if (inject.remaining > 0 && context.commandName === inject.command) {
        inject.remaining--;
        throw Object.assign(new Error(`injected ${inject.name}`), {
          name: inject.name,
          $fault: 'client',
          $metadata: { httpStatusCode: inject.name === 'ThrottlingException' ? 400 : undefined },
        });
      }
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'faultInjection' },
  );
});

afterAll(() => stack?.stop());

describe('DynamoDB faults', () => {
  it.each(['ThrottlingException', 'ProvisionedThroughputExceededException', 'TimeoutError'])(
    'a passing %s is absorbed by the SDK retries',
    async (name) => {
      Object.assign(inject, { remaining: 2, name });
      const response = await stack.request('GET', availability, { key: tenant.syncKey });
      expect(response.status).toBe(200);
      expect(inject.remaining).toBe(0);
    },
  );

  it.each(['ThrottlingException', 'TimeoutError'])('a lasting %s answers 503 SERVICE_UNAVAILABLE with Retry-After, then recovers', async (name) => {
    Object.assign(inject, { remaining: 1000, name });
    const failed = await stack.request('GET', availability, { key: tenant.syncKey });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('1');
    expect(failed.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', request_id: failed.headers.get('x-request-id') });
    inject.remaining = 0;
    expect((await stack.request('GET', availability, { key: tenant.syncKey })).status).toBe(200);
  });

  it('a throttled write is not stored under its Idempotency-Key: the retry runs', async () => {
    const body = { external_source: 'pms', rooms: [{ external_room_id: 'F1', room_number: 'F1', room_type: 'single', price: 10, max_occupancy: 1 }] };
    Object.assign(inject, { remaining: 1000, name: 'ThrottlingException', command: 'QueryCommand' });
    const failed = await stack.request('PUT', '/api/v1/property-sync/rooms', { key: tenant.syncKey, body, headers: { 'Idempotency-Key': 'fault-1' } });
    expect(failed.status).toBe(503);
    inject.remaining = 0;
    const retried = await stack.request('PUT', '/api/v1/property-sync/rooms', { key: tenant.syncKey, body, headers: { 'Idempotency-Key': 'fault-1' } });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ created: 1 });
  });
});

describe('callback receiver faults', () => {
  it('a receiver that never answers is cut at 10 s and the attempt is recorded', async () => {
    const { createServer } = await import('node:http');
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hook`;
    try {
      const { configureEndpoint, listDeliveries } = await import('../../shared/domain/callbacks/deliveries');
      const { confirmServiceBooking } = await import('../../shared/domain/bookings/service-bookings');
      const { listRooms } = await import('../../shared/store/room-store');
      const own = await stack.createTenant();
      await stack.request('PUT', '/api/v1/property-sync/rooms', {
        key: own.syncKey,
        body: { external_source: 'pms', rooms: [{ external_room_id: 'H1', room_number: 'H1', room_type: 'single', price: 10, max_occupancy: 1 }] },
      });
      const [room] = await listRooms(own.clientId);
      await configureEndpoint(own.clientId, 'callback', { url });
      await confirmServiceBooking(own.clientId, {
        origin: 'reception', roomId: room!.id, requireRoom: true, guest_name: 'H', guest_email: 'h@example.com', guests: 1,
        check_in_date: '2027-05-01', check_out_date: '2027-05-02', total_amount: 10, payment_status: 'unpaid', payment_method: 'pay_at_property',
      });
      const attempt = await waitFor(
        'the timed-out attempt',
        async () => (await listDeliveries(own.clientId))[0]?.attempts[0],
        20_000,
      );
      expect(attempt).toMatchObject({ status_code: null, error: 'no response within 10 s' });
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(10_000);
      expect(attempt.duration_ms).toBeLessThan(12_000);
      const [delivery] = await listDeliveries(own.clientId);
      expect(['retrying', 'pending']).toContain(delivery!.status);
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  }, 30_000);
});

describe('the local stack killed in the middle of a sync', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'killed-stack-'));
  let stackProcess: StackProcess | undefined;

  // Its own process group, so a SIGKILL takes DynamoDB Local and the other emulators down with it.
  async function startStack(ports: StackPorts) {
    stackProcess = await startStackProcess(ports, dataDir);
    return stackProcess.output();
  }

  function killGroup() {
    try {
      if (stackProcess) signalGroup(stackProcess.child, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  afterAll(() => {
    killAllStackProcesses();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves exactly the intended data once the same request is retried with its Idempotency-Key', async () => {
    const ports = await freeStackPorts();
    const output = await startStack(ports);
    const key = /demo sync key \(shown once\):\s+(svc_sync_\S+)/.exec(output)![1]!;
    const clientId = /demo client: (\S+)/.exec(output)![1]!;
    const api = `http://127.0.0.1:${ports.api}`;
    const rooms = Array.from({ length: 500 }, (_, i) => ({
      external_room_id: `K${i}`, room_number: String(1000 + i), room_type: 'double', price: 100, max_occupancy: 2,
    }));
    const send = () =>
      fetch(`${api}/api/v1/property-sync/rooms`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'kill-sync-1' },
        body: JSON.stringify({ external_source: 'pms', rooms }),
        signal: AbortSignal.timeout(30_000),
      });

    const dynamo = new DynamoDBClient({ endpoint: `http://127.0.0.1:${ports.dynamodb}`, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const roomCount = async () => {
      let count = 0;
      let cursor: Record<string, never> | undefined;
      do {
        const page = await dynamo.send(
          new QueryCommand({
            TableName: 'hotel-integration',
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :room)',
            ExpressionAttributeValues: { ':pk': { S: `CLIENT#${clientId}` }, ':room': { S: 'ROOM#' } },
            Select: 'COUNT',
            ExclusiveStartKey: cursor,
          }),
        );
        count += page.Count ?? 0;
        cursor = page.LastEvaluatedKey as typeof cursor;
      } while (cursor);
      return count;
    };

    const inFlight = send().then(
      (r) => r.status,
      () => 'no answer' as const,
    );
    // Kill everything once part of the sync is written, and before it is all written.
    const written = await waitFor('some rooms written', async () => {
      const n = await roomCount();
      return n > 0 ? n : undefined;
    }, 20_000);
    killGroup();
    expect(await inFlight).toBe('no answer');
    expect(written).toBeLessThan(500);
    dynamo.destroy();

    await startStack(ports);
    const dynamoAgain = new DynamoDBClient({ endpoint: `http://127.0.0.1:${ports.dynamodb}`, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const partial = await roomCount.call(null).catch(() => -1);
    // The in-progress record of the killed run expires with its function timeout (28 s); until then the retry hears 409.
    // On a loaded machine a run may also stop at its deadline (503, Retry-After); the next one completes the sync.
    const final = await waitFor('the retried sync to run', async () => {
      const response = await send();
      if (response.status === 409 || response.status === 503) return undefined;
      return { status: response.status, body: (await response.json()) as { received: number; created: number; unchanged: number; updated: number } };
    }, 75_000);
    expect(final.status).toBe(200);
    expect(final.body.received).toBe(500);
    expect(final.body.created + final.body.unchanged + final.body.updated).toBe(500);

    const listed = await fetch(`${api}/api/v1/property-sync/availability?check_in_date=2027-01-01&check_out_date=2027-01-02&guests=1`, {
      headers: { Authorization: `Bearer ${key}` },
    }).then((r) => r.json() as Promise<{ available_rooms: { room_number: string; external_room_id: string }[] }>);
    expect(listed.available_rooms).toHaveLength(500);
    expect(new Set(listed.available_rooms.map((r) => r.external_room_id)).size).toBe(500);
    expect(partial === -1 || partial >= written).toBe(true);
    dynamoAgain.destroy();

    // And the retried request is now stored: another retry replays it.
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  }, 150_000);
});
