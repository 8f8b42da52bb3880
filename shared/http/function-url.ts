/**
 * Routes served on an origin of their own by one function behind a Lambda function URL (the
 * sandbox checkout: definitions/routes.ts `sandboxRoutes`). A function URL hands its function every
 * request, whatever its method and path, as a payload format 2.0 event
 * (https://docs.aws.amazon.com/lambda/latest/dg/urls-invocation.html#urls-payloads): header names
 * in lower case, the Cookie header as `cookies`, the raw path with no route and no path
 * parameters, and the body base64-encoded when Lambda takes it for binary. Here the route table
 * picks the route by method and path, the event becomes the REST API proxy event the route
 * handlers take (./handler.ts: the same middleware, limits and error envelope as on the API), and
 * their answer becomes a function URL response.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2, Context, LambdaFunctionURLEvent } from 'aws-lambda';
import { matchPath } from '../../definitions/path-match';
import type { Route } from '../../definitions/routes';
import { AppError, errors } from '../errors';
import { errorBody } from './error-envelope';

/** A route's handler, as ./handler.ts builds it. */
export type RouteHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The function behind a function URL: one handler per route of its origin. */
export function functionUrlHandler(routes: readonly Route[], handlers: Readonly<Record<string, RouteHandler>>) {
  for (const route of routes) if (!handlers[route.id]) throw new Error(`No handler for route ${route.id}`);
  return async (event: LambdaFunctionURLEvent, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const method = event.requestContext.http.method.toUpperCase();
    const requestId = event.requestContext.requestId;
    let resolved: ReturnType<typeof resolve>;
    try {
      resolved = resolve(routes, method, event.rawPath);
    } catch {
      // A path parameter with a malformed percent-escape cannot be decoded.
      return refusal(errors.validation([{ path: 'path', message: 'malformed percent-escape' }], 'Malformed path'), requestId);
    }
    if (resolved === undefined) return refusal(errors.noSuchRoute(), requestId);
    if ('allowed' in resolved) {
      return refusal(errors.methodNotAllowed(resolved.allowed), requestId);
    }
    const result = await handlers[resolved.route.id]!(toRestEvent(event, method, resolved.route, resolved.params), context);
    return toFunctionUrlResult(result);
  };
}

function resolve(routes: readonly Route[], method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length ? { allowed } : undefined;
}

function refusal(error: AppError, requestId: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: error.status,
    headers: { 'Content-Type': 'application/json', ...error.headers, 'X-Request-Id': requestId },
    body: JSON.stringify(errorBody(error, requestId)),
  };
}

/** The REST API proxy event (payload format 1.0) of the same request, for the matched route. */
export function toRestEvent(event: LambdaFunctionURLEvent, method: string, route: Route, params: Record<string, string>): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers[name] = value;
  if (event.cookies?.length) headers.cookie = event.cookies.join('; ');
  // From the raw query: the 2.0 event's map joins a repeated parameter's values with commas.
  const query = new URLSearchParams(event.rawQueryString ?? '');
  const queryStringParameters: Record<string, string> = {};
  const multiValueQueryStringParameters: Record<string, string[]> = {};
  for (const [name, value] of query) {
    queryStringParameters[name] = value;
    (multiValueQueryStringParameters[name] ??= []).push(value);
  }
  const hasQuery = Object.keys(queryStringParameters).length > 0;
  const { http } = event.requestContext;
  return {
    resource: route.path,
    path: event.rawPath,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: hasQuery ? queryStringParameters : null,
    multiValueQueryStringParameters: hasQuery ? multiValueQueryStringParameters : null,
    pathParameters: Object.keys(params).length ? params : null,
    stageVariables: null,
    requestContext: {
      accountId: event.requestContext.accountId,
      apiId: event.requestContext.apiId,
      domainName: event.requestContext.domainName,
      domainPrefix: event.requestContext.domainPrefix,
      stage: event.requestContext.stage,
      requestId: event.requestContext.requestId,
      requestTimeEpoch: event.requestContext.timeEpoch,
      httpMethod: method,
      path: event.rawPath,
      protocol: http.protocol,
      resourceId: route.id,
      resourcePath: route.path,
      identity: { sourceIp: http.sourceIp, userAgent: http.userAgent },
      authorizer: null,
    } as unknown as APIGatewayProxyEvent['requestContext'],
    body: event.body === undefined ? null : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body,
    isBase64Encoded: false,
  };
}

/** A REST proxy result as a function URL response: Set-Cookie values go in `cookies`. */
export function toFunctionUrlResult(result: APIGatewayProxyResult): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  const cookies: string[] = [];
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    if (name.toLowerCase() === 'set-cookie') cookies.push(...values.map(String));
    else headers[name] = values.map(String).join(', ');
  }
  return {
    statusCode: result.statusCode,
    headers,
    body: result.body,
    isBase64Encoded: result.isBase64Encoded ?? false,
    ...(cookies.length ? { cookies } : {}),
  };
}
