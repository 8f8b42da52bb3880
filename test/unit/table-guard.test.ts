/**
 * The local table guard refuses what IAM would refuse a function granted its declared table
 * access, including each item of a transaction, and holds nothing outside an invocation. The
 * client never reaches the network: a stub answers every call the guard lets through.
 */
import { DeleteItemCommand, DynamoDBClient, ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalFunction, withinInvocation } from '../../infra/local/lambda-runtime';
import { installTableGuard } from '../../infra/local/table-guard';

const client = new DynamoDBClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const sent: string[] = [];
client.middlewareStack.add(
  (_next, context) => async () => {
    sent.push(context.commandName!);
    return { output: { $metadata: {} }, response: {} };
  },
  { step: 'build', priority: 'low', name: 'answerWithoutNetwork' },
);
installTableGuard(client);
const db = DynamoDBDocumentClient.from(client);
afterAll(() => client.destroy());

const TableName = 't';
const publicRoute: LocalFunction = {
  name: 'VerifyPaymentOrder',
  handler: 'verify-payment-order',
  tableAccess: { actions: ['GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'], writes: ['ORDER#', 'CLIENT#'] },
};
const roomsRoute: LocalFunction = {
  name: 'PutRooms',
  handler: 'put-rooms',
  tableAccess: { actions: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'BatchWriteItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['CLIENT#', 'IDEMPOTENCY#'] },
};

const as = (fn: LocalFunction, send: () => Promise<unknown>) => withinInvocation(fn, send);
const denied = (action: string) => expect.objectContaining({ name: 'AccessDeniedException', message: expect.stringContaining(`dynamodb:${action}`) });

describe('table guard', () => {
  it('lets declared actions through', async () => {
    sent.length = 0;
    await as(publicRoute, () => db.send(new GetCommand({ TableName, Key: { pk: 'ORDER#1', sk: 'ORDER' } })));
    await as(publicRoute, () => db.send(new QueryCommand({ TableName, IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': 'x' } })));
    await as(publicRoute, () => db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName, Item: { pk: 'ORDER#1', sk: 'ORDER' } } }] })));
    expect(sent).toEqual(['GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
  });

  it('refuses undeclared actions, Scan, and Query on an undeclared index or on the table', async () => {
    const query = (IndexName?: string) =>
      new QueryCommand({ TableName, IndexName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'x' } });
    await expect(as(publicRoute, () => db.send(query('gsi1')))).rejects.toEqual(denied('Query'));
    await expect(as(publicRoute, () => db.send(query()))).rejects.toEqual(denied('Query'));
    await expect(as(publicRoute, () => client.send(new ScanCommand({ TableName })))).rejects.toEqual(denied('Scan'));
    await expect(
      as(publicRoute, () => db.send(new BatchWriteCommand({ RequestItems: { [TableName]: [{ PutRequest: { Item: { pk: 'a', sk: 'b' } } }] } }))),
    ).rejects.toEqual(denied('BatchWriteItem'));
  });

  it('checks each item of a transaction as the action IAM authorizes it as', async () => {
    const transaction = (extra: object) =>
      new TransactWriteCommand({ TransactItems: [{ Put: { TableName, Item: { pk: 'CLIENT#c', sk: 'ROOM#1' } } }, extra] });
    await expect(
      as(publicRoute, () => db.send(transaction({ Delete: { TableName, Key: { pk: 'CLIENT#c', sk: 'ROOMNUM#1' } } }))),
    ).rejects.toEqual(denied('DeleteItem'));
    await expect(
      as(publicRoute, () => db.send(transaction({ ConditionCheck: { TableName, Key: { pk: 'CLIENT#c', sk: 'X' }, ConditionExpression: 'attribute_exists(pk)' } }))),
    ).rejects.toEqual(denied('ConditionCheckItem'));
    await expect(as(roomsRoute, () => db.send(transaction({ Delete: { TableName, Key: { pk: 'CLIENT#c', sk: 'ROOMNUM#1' } } })))).resolves.toBeDefined();
  });

  it('allows DeleteItem only under the declared partition-key prefixes, marshalled or not', async () => {
    await expect(as(roomsRoute, () => client.send(new DeleteItemCommand({ TableName, Key: { pk: { S: 'IDEMPOTENCY#abc' }, sk: { S: 'IDEMPOTENCY' } } })))).resolves.toBeDefined();
    await expect(as(roomsRoute, () => db.send(new DeleteCommand({ TableName, Key: { pk: 'CLIENT#c', sk: 'ROOMNUM#1' } })))).resolves.toBeDefined();
    await expect(as(roomsRoute, () => db.send(new DeleteCommand({ TableName, Key: { pk: 'APIKEY#abc', sk: 'APIKEY' } })))).rejects.toEqual(
      expect.objectContaining({ name: 'AccessDeniedException', message: expect.stringContaining('partition key APIKEY#abc') }),
    );
    await expect(as(publicRoute, () => db.send(new DeleteCommand({ TableName, Key: { pk: 'IDEMPOTENCY#abc', sk: 'IDEMPOTENCY' } })))).rejects.toEqual(
      denied('DeleteItem'),
    );
  });

  it('allows PutItem, UpdateItem and BatchWriteItem only under the declared write prefixes, each item of a transaction or batch', async () => {
    const underKey = (pk: string) => expect.objectContaining({ name: 'AccessDeniedException', message: expect.stringContaining(`partition key ${pk}`) });
    await expect(as(publicRoute, () => db.send(new PutCommand({ TableName, Item: { pk: 'ORDER#1', sk: 'ORDER' } })))).resolves.toBeDefined();
    await expect(as(publicRoute, () => db.send(new PutCommand({ TableName, Item: { pk: 'APIKEY#abc', sk: 'APIKEY' } })))).rejects.toEqual(underKey('APIKEY#abc'));
    await expect(
      as(publicRoute, () => client.send(new UpdateItemCommand({ TableName, Key: { pk: { S: 'APIKEYID#k' }, sk: { S: 'APIKEYID' } }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': { S: '1' } } }))),
    ).rejects.toEqual(underKey('APIKEYID#k'));
    await expect(
      as(publicRoute, () => db.send(new UpdateCommand({ TableName, Key: { pk: 'CLIENT#c', sk: 'ROOMHOLD#1' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } }))),
    ).resolves.toBeDefined();
    // `CLIENT#` (bookings, holds) does not cover the client's configuration, as IAM's `CLIENT#*` does not.
    await expect(
      as(publicRoute, () => db.send(new PutCommand({ TableName, Item: { pk: 'CLIENTCONFIG#c', sk: 'PROVIDER', provider: 'stripe', account: 'acct_x' } }))),
    ).rejects.toEqual(underKey('CLIENTCONFIG#c'));
    await expect(
      as(publicRoute, () => db.send(new UpdateCommand({ TableName, Key: { pk: 'CLIENTCONFIG#c', sk: 'PROFILE' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } }))),
    ).rejects.toEqual(underKey('CLIENTCONFIG#c'));
    // A transaction is refused for its one item outside the prefixes.
    await expect(
      as(publicRoute, () =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName, Item: { pk: 'ORDER#1', sk: 'ORDER' } } },
              { Update: { TableName, Key: { pk: 'USAGEKEY#u', sk: 'USAGEKEY' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } } },
            ],
          }),
        ),
      ),
    ).rejects.toEqual(underKey('USAGEKEY#u'));
    // So is a batch: one action whose leading keys are every item's.
    const batch = (pk: string) =>
      new BatchWriteCommand({ RequestItems: { [TableName]: [{ PutRequest: { Item: { pk: 'CLIENT#c', sk: 'CHECKIN#1' } } }, { PutRequest: { Item: { pk, sk: 'x' } } }] } });
    await expect(as(roomsRoute, () => db.send(batch('CLIENT#d')))).resolves.toBeDefined();
    await expect(as(roomsRoute, () => db.send(batch('ORDER#1')))).rejects.toEqual(underKey('ORDER#1'));
    // `APIKEY#` does not cover `APIKEYID#`, as IAM's `APIKEY#*` does not.
    const keysOnly: LocalFunction = { name: 'authorizer', handler: 'authorizer', tableAccess: { actions: ['GetItem', 'UpdateItem'], writes: ['APIKEY#'] } };
    const touch = (pk: string) => new UpdateCommand({ TableName, Key: { pk, sk: 'x' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } });
    await expect(as(keysOnly, () => db.send(touch('APIKEY#h')))).resolves.toBeDefined();
    await expect(as(keysOnly, () => db.send(touch('APIKEYID#k')))).rejects.toEqual(underKey('APIKEYID#k'));
    await expect(as(keysOnly, () => db.send(touch('CLIENT#c')))).rejects.toEqual(underKey('CLIENT#c'));
  });

  it('holds nothing outside an invocation', async () => {
    sent.length = 0;
    await client.send(new ScanCommand({ TableName }));
    await db.send(new DeleteCommand({ TableName, Key: { pk: 'APIKEY#abc', sk: 'APIKEY' } }));
    expect(sent).toEqual(['ScanCommand', 'DeleteItemCommand']);
  });

  it('names the function in the denial', async () => {
    await expect(as(publicRoute, () => client.send(new ScanCommand({ TableName })))).rejects.toThrow(/^VerifyPaymentOrder is not authorized to perform: dynamodb:Scan on resource: table\//);
  });
});
