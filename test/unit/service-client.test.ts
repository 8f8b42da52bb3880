/**
 * The service's AWS SDK clients (shared/observability.ts serviceClient, shared/sdk-logger.ts): the SDK's logger
 * middleware is removed, so no call's input and output go through the SDK's sensitive-data
 * filter for a logger that logs nothing. Should an SDK upgrade rename that middleware, the
 * filter would silently come back: this catches it. The requests are answered by a canned
 * handler (what is under test is the client's own middleware, not DynamoDB).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { serviceClient } from '../../shared/observability';

const item = { Item: { pk: { S: 'CLIENT#1' }, sk: { S: 'PROFILE' }, name: { S: 'Hotel' } } };

function client() {
  const requestHandler = {
    handle: async () => ({
      response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(JSON.stringify(item))]) },
    }),
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
  const info = vi.fn();
  return {
    info,
    make: () =>
      new DynamoDBClient({
        region: 'eu-west-1',
        credentials: { accessKeyId: 'unit', secretAccessKey: 'unit' },
        requestHandler,
        logger: { debug() {}, info, warn() {}, error() {} },
      }),
  };
}

describe('serviceClient', () => {
  it("takes the SDK's logger middleware off a client, which still answers", async () => {
    const plain = client();
    const get = () => new GetCommand({ TableName: 't', Key: { pk: 'CLIENT#1', sk: 'PROFILE' } });
    // The control: a client as the SDK makes it hands every call, filtered, to its logger.
    expect((await DynamoDBDocumentClient.from(plain.make()).send(get())).Item).toEqual({ pk: 'CLIENT#1', sk: 'PROFILE', name: 'Hotel' });
    expect(plain.info).toHaveBeenCalledTimes(1);
    expect(plain.info.mock.calls[0]![0]).toMatchObject({ commandName: 'GetItemCommand', input: { TableName: 't' } });

    const ours = client();
    expect((await DynamoDBDocumentClient.from(serviceClient(ours.make())).send(get())).Item).toEqual({ pk: 'CLIENT#1', sk: 'PROFILE', name: 'Hotel' });
    expect(ours.info).not.toHaveBeenCalled();
  });
});
