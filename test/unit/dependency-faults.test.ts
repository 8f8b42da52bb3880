/**
 * A throttled or timed-out DynamoDB answers 503 SERVICE_UNAVAILABLE with Retry-After, never a
 * 500. DynamoDB Local cannot throttle, so this unit test stubs the client's send.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

process.env.STAGE = 'unit';
process.env.TABLE_NAME = 'unit-test-table';
process.env.AWS_REGION = 'us-east-1';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';

let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; headers?: Record<string, unknown>; body: string }>;
let db: { send: (...args: unknown[]) => Promise<unknown> };

beforeAll(async () => {
  ({ handler } = (await import('../../functions/get-availability')) as never);
  ({ db } = (await import('../../shared/store/dynamo')) as never);
});

afterEach(() => vi.restoreAllMocks());

function event(): APIGatewayProxyEvent {
  return {
    resource: '/api/v1/property-sync/availability',
    path: '/api/v1/property-sync/availability',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: { check_in_date: '2027-01-01', check_out_date: '2027-01-02', guests: '1' },
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'req-1',
      authorizer: { client_id: 'c1', key_id: 'k1', key_kind: 'sync', scopes: 'availability:read' },
    } as never,
  };
}

const context = { functionName: 'GetAvailability', awsRequestId: 'a', getRemainingTimeInMillis: () => 10_000 } as Context;

describe('dependency faults', () => {
  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException', 'TimeoutError'])(
    '%s answers 503 SERVICE_UNAVAILABLE with Retry-After',
    async (name) => {
      vi.spyOn(db, 'send').mockRejectedValue(Object.assign(new Error('dependency failed'), { name }));
      const response = await handler(event(), context);
      expect(response.statusCode).toBe(503);
      expect(response.headers?.['Retry-After']).toBe('1');
      expect(response.headers?.['X-Request-Id']).toBe('req-1');
      expect(JSON.parse(response.body).error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', request_id: 'req-1' });
    },
  );

  it('an unexpected error answers 500 INTERNAL_ERROR without its message or stack', async () => {
    vi.spyOn(db, 'send').mockRejectedValue(new Error('secret internal detail at line 42'));
    const response = await handler(event(), context);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret internal detail');
    expect(JSON.parse(response.body).error).toEqual({ code: 'INTERNAL_ERROR', message: 'Internal error', request_id: 'req-1' });
  });
});
