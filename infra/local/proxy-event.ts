/**
 * API Gateway's Lambda proxy integration (REST, payload v1): the request read into the event's
 * fields (headers, query, body within the gateway's payload limit, request context), and the
 * function's proxy result written back as the HTTP response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Route } from '../../definitions/routes';

/** API Gateway's own payload limit; the functions enforce the service's 1 MiB. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const STAGE = 'local';

function headerMaps(req: IncomingMessage) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

function queryMaps(url: URL) {
  if ([...url.searchParams.keys()].length === 0) {
    return { queryStringParameters: null, multiValueQueryStringParameters: null };
  }
  const queryStringParameters: Record<string, string> = {};
  const multiValueQueryStringParameters: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    queryStringParameters[name] = value;
    (multiValueQueryStringParameters[name] ??= []).push(value);
  }
  return { queryStringParameters, multiValueQueryStringParameters };
}

export async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The request as the route's function (and its REQUEST authorizer) sees it: `request` holds what
 * the authorizer event and the proxy event share; `requestContext.authorizer` is filled in once
 * the authorizer has allowed the request.
 */
export function proxyRequest(req: IncomingMessage, url: URL, method: string, route: Route, params: Record<string, string>, requestId: string) {
  const { headers, multiValueHeaders } = headerMaps(req);
  const query = queryMaps(url);
  const now = new Date();
  const requestContext = {
    accountId: '000000000000',
    apiId: 'local',
    resourceId: route.id,
    stage: STAGE,
    requestId,
    extendedRequestId: requestId,
    requestTime: now.toUTCString(),
    requestTimeEpoch: now.getTime(),
    path: `/${STAGE}${url.pathname}`,
    protocol: `HTTP/${req.httpVersion}`,
    httpMethod: method,
    resourcePath: route.path,
    identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['User-Agent'] ?? headers['user-agent'] ?? null },
    authorizer: null as Record<string, unknown> | null,
  };
  const pathParameters = Object.keys(params).length ? params : null;
  // What the REQUEST authorizer event and the proxy event share.
  const request = {
    resource: route.path,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    ...query,
    pathParameters,
    stageVariables: null,
  };
  return { request, requestContext };
}

export type ProxyRequest = ReturnType<typeof proxyRequest>;

export function proxyEvent({ request, requestContext }: ProxyRequest, body: Buffer): APIGatewayProxyEvent {
  return {
    ...request,
    requestContext: requestContext as unknown as APIGatewayProxyEvent['requestContext'],
    body: body.length ? body.toString('utf8') : null,
    isBase64Encoded: false,
  };
}

export function isProxyResult(value: unknown): value is APIGatewayProxyResult {
  return !!value && typeof value === 'object' && typeof (value as APIGatewayProxyResult).statusCode === 'number';
}

export function writeProxyResult(res: ServerResponse, result: APIGatewayProxyResult, requestId: string) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  headers['x-amzn-RequestId'] = requestId;
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
