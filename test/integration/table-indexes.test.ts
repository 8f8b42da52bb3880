/**
 * Index projections (docs/data-model.md, "Index projections"): each index holds its keys and
 * only what its queries read, so availability never reads guest data; listings that need whole
 * records read them from the table. A local table made by an earlier version (indexes projecting
 * ALL) is brought to the definition when the local stack starts.
 */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../definitions/local-stack';
import { ensureTable } from '../../infra/local/local-table';
import { runningFunction } from '../../infra/local/lambda-runtime';
import { createTableInput, tableDefinition } from '../../definitions/table';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const SOURCE = 'pms';
const GUEST_ATTRIBUTES = ['guest_name', 'guest_email', 'guest_phone'];
let stack: TestStack;
let tenant: Tenant;
let local: DynamoDBClient;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  local = new DynamoDBClient({ endpoint: inject('emulators').dynamodbEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const put = (what: string, body: unknown) =>
    stack.request('PUT', `/api/v1/property-sync/${what}`, { key: tenant.syncKey, body: { external_source: SOURCE, ...(body as object) } });
  expect((await put('rooms', { rooms: [1, 2].map((n) => ({ external_room_id: `R${n}`, room_number: String(n), room_type: 'double', price: 90, max_occupancy: 2 })) })).status).toBe(200);
  const booking = (id: string, room: string, checkIn: string, checkOut: string) => ({
    external_booking_id: id,
    external_room_id: room,
    guest_name: 'Ada Guest',
    guest_email: 'ada@example.com',
    guest_phone: '+14155550123',
    guests: 2,
    check_in_date: checkIn,
    check_out_date: checkOut,
    status: 'confirmed',
  });
  expect((await put('bookings', { bookings: [booking('SHORT', 'R1', '2027-05-10', '2027-05-12'), booking('LONG', 'R2', '2027-04-01', '2027-06-01')] })).status).toBe(200);
});

afterAll(async () => {
  local?.destroy();
  await stack?.stop();
});

describe('the test table', () => {
  it('projects on each index exactly what the definition names, never ALL and never guest data', async () => {
    const { Table } = await local.send(new DescribeTableCommand({ TableName: inject('emulators').tableName }));
    for (const index of tableDefinition.globalSecondaryIndexes) {
      const projection = Table!.GlobalSecondaryIndexes!.find((i) => i.IndexName === index.indexName)!.Projection!;
      expect(projection.ProjectionType).not.toBe('ALL');
      expect([...(projection.NonKeyAttributes ?? [])].sort()).toEqual([...index.projectedAttributes].sort());
      expect(projection.NonKeyAttributes ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/^guest_/)]));
    }
  });

  it('holds a booking on the stay indexes without its guest attributes', async () => {
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const { keys } = await import('../../shared/store/keys');
    const pages = await Promise.all(
      (['short', 'long'] as const).map((length) =>
        db.send(new QueryCommand({ TableName: TABLE, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.activeStays(tenant.clientId, length) } })),
      ),
    );
    const items = pages.flatMap((page) => page.Items ?? []);
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['check_in_date', 'check_out_date', 'gsi1pk', 'gsi1sk', 'pk', 'room_id', 'sk', 'status']);
    }
  });
});

describe('availability', () => {
  it('reads no guest attribute and no booking record: only the stay index, rooms and categories', async () => {
    const { dynamoClient } = await import('../../shared/store/dynamo');
    const calls: { command: string; attributes: string[] }[] = [];
    dynamoClient.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (runningFunction()?.name === 'GetAvailability') {
          const items = ((result.output as { Items?: Record<string, unknown>[]; Item?: Record<string, unknown> }).Items ?? []) as Record<string, unknown>[];
          calls.push({ command: context.commandName ?? '?', attributes: [...new Set(items.flatMap((item) => Object.keys(item)))] });
        }
        return result;
      },
      { step: 'initialize', name: 'recordAvailabilityReads' },
    );
    let response;
    try {
      response = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2027-05-11&check_out_date=2027-05-13&guests=1', { key: tenant.syncKey });
    } finally {
      dynamoClient.middlewareStack.remove('recordAvailabilityReads');
    }
    expect(response.status, response.text).toBe(200);
    expect(response.body.available_rooms).toEqual([]);
    expect(new Set(calls.map((c) => c.command))).toEqual(new Set(['QueryCommand']));
    const read = calls.flatMap((c) => c.attributes);
    expect(read).toContain('room_id');
    for (const attribute of GUEST_ATTRIBUTES) expect(read).not.toContain(attribute);
  });
});

describe('listings that need whole records', () => {
  it("read a client's keys from the table through the key index", async () => {
    const { listApiKeys } = await import('../../shared/store/api-key-store');
    const listed = await listApiKeys(tenant.clientId);
    expect(listed.map((k) => k.key_id).sort()).toEqual([tenant.syncKeyId, tenant.paymentKeyId].sort());
    expect(listed.find((k) => k.key_id === tenant.syncKeyId)).toMatchObject({ kind: 'sync', client_id: tenant.clientId, scopes: expect.any(Array) });
  });
});

describe('a local table made before the projections changed', () => {
  it('gets the defined projections, backfilled, when the local stack starts on it', async () => {
    const tableName = `legacy-${randomUUID().slice(0, 8)}`;
    const legacy = createTableInput(tableName);
    await local.send(
      new CreateTableCommand({ ...legacy, GlobalSecondaryIndexes: legacy.GlobalSecondaryIndexes.map((i) => ({ ...i, Projection: { ProjectionType: 'ALL' } })) }),
    );
    const doc = DynamoDBDocumentClient.from(local);
    try {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk: 'CLIENT#c', sk: 'BOOKING#b', gsi1pk: 'CLIENT#c#STAYS#short', gsi1sk: '2027-05-12#b', room_id: 'r', status: 'confirmed', check_in_date: '2027-05-10', check_out_date: '2027-05-12', guest_name: 'Ada Guest' },
        }),
      );
      await ensureTable(inject('emulators').dynamodbEndpoint, tableName);

      const { Table } = await local.send(new DescribeTableCommand({ TableName: tableName }));
      for (const index of tableDefinition.globalSecondaryIndexes) {
        const described = Table!.GlobalSecondaryIndexes!.find((i) => i.IndexName === index.indexName)!;
        expect(described.IndexStatus).toBe('ACTIVE');
        expect(described.Projection!.ProjectionType).toBe('INCLUDE');
      }
      const { Items } = await doc.send(
        new QueryCommand({ TableName: tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'CLIENT#c#STAYS#short' } }),
      );
      expect(Items).toHaveLength(1);
      expect(Items![0]).toMatchObject({ room_id: 'r', status: 'confirmed' });
      expect(Items![0]!.guest_name).toBeUndefined();

      // Starting again on a table that already matches changes nothing.
      await ensureTable(inject('emulators').dynamodbEndpoint, tableName);
    } finally {
      await local.send(new DeleteTableCommand({ TableName: tableName }));
    }
  }, 60_000);
});
