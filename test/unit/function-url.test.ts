/**
 * The sandbox checkout's function behind a Lambda function URL: what Lambda hands it (a payload
 * format 2.0 event, shaped as in https://docs.aws.amazon.com/lambda/latest/dg/urls-invocation.html#urls-payloads)
 * reaches the route handlers as the REST proxy event they take, through the route table, and their
 * answer goes back as a function URL response.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyStructuredResultV2, Context, LambdaFunctionURLEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Route } from '../../definitions/routes';
import { functionUrlHandler, type RouteHandler } from '../../shared/http/function-url';

// The sandbox function's configuration, read when its modules load; DynamoDB is stubbed below.
process.env.STAGE = 'unit';
process.env.TABLE_NAME = 'unit-test-table';
process.env.AWS_REGION = 'us-east-1';
process.env.SANDBOX_PAYMENTS = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';

const route = (id: string, method: Route['method']): Route => ({
  id,
  function: 'Checkout',
  method,
  path: '/checkout/{provider_reference}',
  handler: 'checkout',
  auth: { kind: 'public' },
  access: { dynamodb: { actions: ['GetItem'] } },
  description: 'test',
  origin: 'sandbox',
});
const routes = [route('Page', 'GET'), route('Submit', 'POST')];

const context = { getRemainingTimeInMillis: () => 10_000, functionName: 'Checkout', awsRequestId: 'aws-1' } as unknown as Context;

/** A function URL request as Lambda sends it: a form POST with a cookie, its body base64-encoded. */
function functionUrlEvent(overrides: Partial<LambdaFunctionURLEvent> & { method?: string } = {}): LambdaFunctionURLEvent {
  const { method = 'POST', ...rest } = overrides;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/checkout/sbx_abc%20def',
    rawQueryString: 'lang=en&tag=a&tag=b',
    cookies: ['theme=dark', 'seen=1'],
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      host: 'abcdefg.lambda-url.eu-west-1.on.aws',
      origin: 'https://abcdefg.lambda-url.eu-west-1.on.aws',
      'user-agent': 'Mozilla/5.0',
      'x-forwarded-proto': 'https',
    },
    queryStringParameters: { lang: 'en', tag: 'a,b' },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abcdefg',
      domainName: 'abcdefg.lambda-url.eu-west-1.on.aws',
      domainPrefix: 'abcdefg',
      http: { method, path: '/checkout/sbx_abc%20def', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'Mozilla/5.0' },
      requestId: 'req-123',
      routeKey: '$default',
      stage: '$default',
      time: '12/Mar/2027:19:03:58 +0000',
      timeEpoch: 1_805_483_038_000,
    },
    body: Buffer.from('outcome=paid&note=caf%C3%A9').toString('base64'),
    isBase64Encoded: true,
    ...rest,
  };
}

describe('the function URL adapter', () => {
  it('hands the matched route the REST proxy event: decoded body and path parameters, cookies as a header, every query value', async () => {
    const seen: APIGatewayProxyEvent[] = [];
    const record: RouteHandler = async (event) => {
      seen.push(event);
      return { statusCode: 303, headers: { Location: 'https://api.example/verify?reference=PO-1' }, multiValueHeaders: { 'Set-Cookie': ['a=1', 'b=2'] }, body: '' };
    };
    const handler = functionUrlHandler(routes, { Page: record, Submit: record });
    const result = await handler(functionUrlEvent(), context);

    expect(seen).toHaveLength(1);
    const event = seen[0]!;
    expect(event).toMatchObject({
      resource: '/checkout/{provider_reference}',
      path: '/checkout/sbx_abc%20def',
      httpMethod: 'POST',
      pathParameters: { provider_reference: 'sbx_abc def' },
      queryStringParameters: { lang: 'en', tag: 'b' },
      multiValueQueryStringParameters: { lang: ['en'], tag: ['a', 'b'] },
      body: 'outcome=paid&note=caf%C3%A9',
      isBase64Encoded: false,
    });
    expect(event.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', cookie: 'theme=dark; seen=1', host: 'abcdefg.lambda-url.eu-west-1.on.aws' });
    expect(event.requestContext).toMatchObject({ requestId: 'req-123', httpMethod: 'POST', resourcePath: '/checkout/{provider_reference}', identity: { sourceIp: '203.0.113.7' } });
    expect(result).toEqual({
      statusCode: 303,
      headers: { Location: 'https://api.example/verify?reference=PO-1' },
      cookies: ['a=1', 'b=2'],
      body: '',
      isBase64Encoded: false,
    });
  });

  it('passes a text body as it came, and no body as null', async () => {
    const bodies: (string | null)[] = [];
    const record: RouteHandler = async (event) => {
      bodies.push(event.body);
      return { statusCode: 200, body: 'ok' };
    };
    const handler = functionUrlHandler(routes, { Page: record, Submit: record });
    await handler(functionUrlEvent({ body: 'outcome=failed', isBase64Encoded: false }), context);
    await handler(functionUrlEvent({ method: 'GET', body: undefined, isBase64Encoded: false, rawQueryString: '', queryStringParameters: undefined }), context);
    expect(bodies).toEqual(['outcome=failed', null]);
  });

  it('answers a path of no route 404, another method 405 with Allow, a malformed escape 400: the error envelope with the request id', async () => {
    const never: RouteHandler = async () => {
      throw new Error('not routed');
    };
    const handler = functionUrlHandler([route('Page', 'GET')], { Page: never });
    const answer = async (event: LambdaFunctionURLEvent) => {
      const result = await handler(event, context);
      return { status: result.statusCode, headers: result.headers, error: JSON.parse(result.body!).error };
    };
    const missing = await answer(functionUrlEvent({ rawPath: '/sandbox/checkout/sbx_1' }));
    expect(missing).toMatchObject({ status: 404, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-123' }, error: { code: 'NOT_FOUND', request_id: 'req-123' } });
    const wrongMethod = await answer(functionUrlEvent({ method: 'DELETE' }));
    expect(wrongMethod).toMatchObject({ status: 405, headers: { Allow: 'GET' }, error: { code: 'METHOD_NOT_ALLOWED' } });
    const malformed = await answer(functionUrlEvent({ method: 'GET', rawPath: '/checkout/sbx_%E0%A4%A' }));
    expect(malformed).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR' } });
  });

  it('refuses to serve a route without a handler', () => {
    expect(() => functionUrlHandler(routes, { Page: async () => ({ statusCode: 200, body: '' }) })).toThrow(/No handler for route Submit/);
  });
});

describe('the sandbox checkout function (functions/sandbox-checkout.ts) behind its function URL', () => {
  type Handler = (event: LambdaFunctionURLEvent, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
  let handler: Handler;
  let db: { send: (...args: unknown[]) => Promise<unknown> };
  const session = {
    pk: 'SANDBOX#sbx_abc def',
    sk: 'SANDBOX',
    entity: 'sandbox_session',
    provider_reference: 'sbx_abc def',
    order_reference: 'PO-7KQ2M9XR4TLP',
    amount_minor: 36000,
    currency: 'EUR',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    description: 'Payment INV-1',
    return_url: 'https://api.example/prod/api/v1/payments/payment-orders/verify?reference=PO-7KQ2M9XR4TLP',
    state: 'open',
    created_at: '2027-03-12T19:00:00.000Z',
  };

  beforeAll(async () => {
    ({ handler } = (await import('../../functions/sandbox-checkout')) as never);
    ({ db } = (await import('../../shared/store/dynamo')) as never);
  });

  afterEach(() => vi.restoreAllMocks());

  it('GET: the page, with its CSP; a form POST (base64 as Lambda sends it): 303 to the return URL on the API', async () => {
    const commands: string[] = [];
    vi.spyOn(db, 'send').mockImplementation(async (command: unknown) => {
      const name = (command as { constructor: { name: string } }).constructor.name;
      commands.push(name);
      return name === 'GetCommand' ? { Item: session } : { Attributes: { ...session, state: 'paid', completed_at: '2027-03-12T19:03:58.000Z' } };
    });
    const page = await handler(functionUrlEvent({ method: 'GET', body: undefined, isBase64Encoded: false }), context);
    expect(page.statusCode).toBe(200);
    expect(page.headers).toMatchObject({ 'Content-Type': 'text/html; charset=utf-8', 'X-Request-Id': 'req-123', 'X-Frame-Options': 'DENY' });
    expect(String(page.headers!['Content-Security-Policy'])).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+='; frame-ancestors 'none'; base-uri 'none'$/);
    expect(page.body).toContain('360.00 EUR');

    const submitted = await handler(functionUrlEvent(), context);
    expect(submitted).toMatchObject({ statusCode: 303, headers: { Location: session.return_url }, body: '' });
    expect(commands).toEqual(['GetCommand', 'UpdateCommand']);
  });

  it('answers in the error envelope: an unknown session 404, a wrong outcome 400, a JSON body 415, a form over 1 MiB 413, another path 404', async () => {
    vi.spyOn(db, 'send').mockImplementation(async () => ({}));
    const errorOf = (result: APIGatewayProxyStructuredResultV2) => ({ status: result.statusCode, code: JSON.parse(result.body!).error.code });
    expect(errorOf(await handler(functionUrlEvent({ method: 'GET', body: undefined }), context))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(errorOf(await handler(functionUrlEvent({ body: Buffer.from('outcome=maybe').toString('base64') }), context))).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(
      errorOf(await handler(functionUrlEvent({ headers: { 'content-type': 'application/json' }, body: '{"outcome":"paid"}', isBase64Encoded: false }), context)),
    ).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const huge = Buffer.from(`outcome=paid&pad=${'x'.repeat(1024 * 1024)}`).toString('base64');
    expect(errorOf(await handler(functionUrlEvent({ body: huge }), context))).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(errorOf(await handler(functionUrlEvent({ rawPath: '/api/v1/payments/payment-orders' }), context))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});
