/**
 * A local API Gateway (REST, Lambda proxy integration) over the route table the CDK stack
 * deploys: it builds v1 proxy events, runs the REQUEST authorizers as API Gateway does (the sync
 * one's result cached per Authorization header and applied to each route by its method ARN),
 * checks the authorizer's usage key (apiKeySource AUTHORIZER) and its usage plan's rate limits,
 * renders the stack's gateway responses, and invokes the route's function, at most a few
 * invocations of one function at once (Lambda instances), the rest waiting in line.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { authorizerOf, DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS } from '../../definitions/authorizers';
import { type GatewayResponseType, gatewayResponseHeaders, gatewayResponses, methodNotAllowedTemplate } from '../../definitions/gateway-responses';
import type { Plan, PlanLimits } from '../../definitions/plans';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, matchPath, type Route } from '../../definitions/routes';
import { invoke, type LocalFunction, routeFunction, supportFunction } from './lambda-runtime';
import { type ConcurrencyOptions, FunctionConcurrency, FunctionThrottledError, TokenBuckets } from './limits';

/** API Gateway's own payload limit; the functions enforce the service's 1 MiB. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
const STAGE = 'local';
/** API Gateway's integration timeout for REST APIs: 29 s, then INTEGRATION_TIMEOUT. */
const INTEGRATION_TIMEOUT_MS = 29_000;
/** How long the gateway trusts a usage key's plan (API Gateway, too, applies a usage-plan change after a while). */
const USAGE_PLAN_CACHE_MS = 5_000;
/**
 * Enough instances that a burst of requests is served at DynamoDB Local's pace instead of
 * opening more connections than it accepts in time (which surfaced as 503s).
 */
export const DEFAULT_FUNCTION_CONCURRENCY: ConcurrencyOptions = { perFunction: 10, maxQueued: 1_000 };

export interface ExtraRoute {
  method: string;
  path: string;
  respond: () => { status: number; body: string; contentType: string };
}

export interface LocalGatewayOptions {
  port: number;
  host?: string;
  /**
   * Called once per request with a one-line summary: method, the route's resource path (as the
   * stack's access log: never the request's path, which may carry a confirmation token), status, time.
   */
  onRequest?: (line: string) => void;
  /** The stage's routes (routesOfStage): what the CDK stack would deploy for the same settings. */
  routes: readonly Route[];
  /** Routes the local stack serves beside the deployed ones (e.g. documents). */
  extraRoutes?: ExtraRoute[];
  /**
   * API Gateway's usage plans: each plan's limits, and the plan a usage key (the authorizer's
   * usageIdentifierKey) is registered in, which the ops CLI records locally.
   */
  usagePlans: { limits: Readonly<Record<Plan, PlanLimits>>; planOfKey(usageKey: string): Promise<Plan | undefined> };
  /** The sync authorizer's result TTL. @default DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS */
  authorizerCacheTtlSeconds?: number;
  /** @default DEFAULT_FUNCTION_CONCURRENCY */
  functionConcurrency?: ConcurrencyOptions;
}

export interface LocalGateway {
  url: string;
  port: number;
  server: Server;
  /** Invocations of a function so far (CloudWatch's Invocations metric), by function name. */
  invocations(functionName: string): number;
  /**
   * Stops taking requests (the port closes; a request arriving on an open keep-alive connection
   * is answered 503 and the connection closed), lets the requests in flight finish for up to
   * `drainMs` (default 0), then closes every connection.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

interface ResolvedRoute {
  route: Route;
  params: Record<string, string>;
}

/** Literal path segments win over `{param}` ones, as in API Gateway. */
const byLiteralSegments = (routes: readonly Route[]) =>
  [...routes].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));

function resolve(orderedRoutes: readonly Route[], method: string, path: string): ResolvedRoute | 'method-not-allowed' | 'malformed' | undefined {
  let pathKnown = false;
  for (const route of orderedRoutes) {
    let params: Record<string, string> | undefined;
    try {
      params = matchPath(route.path, path);
    } catch {
      // A path parameter with a malformed percent-escape cannot be decoded.
      return 'malformed';
    }
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathKnown = true;
  }
  return pathKnown ? 'method-not-allowed' : undefined;
}

/** The resource path of the route a request matched (`/book/{client_id}/confirmation/{token}`), or `-` (API Gateway's empty value). */
function resourcePathOf(state: GatewayState, req: IncomingMessage): string {
  const method = (req.method ?? 'GET').toUpperCase();
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const extra = state.options.extraRoutes?.find((r) => r.method === method && r.path === path);
  if (extra) return extra.path;
  const resolved = resolve(state.orderedRoutes, method, path);
  return typeof resolved === 'object' ? resolved.route.path : '-';
}

interface TemplateContext {
  requestId: string;
  authorizer?: Record<string, unknown>;
  errorMessage?: string;
}

function renderTemplate(template: string, context: TemplateContext): string {
  return template
    .replaceAll('$context.requestId', context.requestId)
    .replaceAll('$context.error.messageString', JSON.stringify(context.errorMessage ?? ''))
    .replace(/\$context\.authorizer\.([A-Za-z0-9_]+)/g, (_, key: string) => String(context.authorizer?.[key] ?? ''));
}

/** Evaluates a mapping expression: `'literal'` or `context.requestId`. */
function mappingValue(expression: string, context: TemplateContext): string {
  if (expression.startsWith("'") && expression.endsWith("'")) return expression.slice(1, -1);
  if (expression === 'context.requestId') return context.requestId;
  throw new Error(`Unsupported mapping expression ${expression}`);
}

/**
 * The response of that type. `status` is API Gateway's own status for the case: DEFAULT_4XX and
 * DEFAULT_5XX keep it (they define none); a type that defines one always answers that one.
 */
function gatewayResponse(type: GatewayResponseType, context: TemplateContext, status?: number) {
  const definition = gatewayResponses.find((g) => g.type === type);
  if (!definition) throw new Error(`No gateway response ${type}`);
  const headers: Record<string, string> = {};
  for (const [name, expression] of Object.entries({ ...gatewayResponseHeaders, ...definition.headers })) {
    headers[name] = mappingValue(expression, context);
  }
  const answered = definition.statusCode ? Number(definition.statusCode) : status;
  if (answered === undefined) throw new Error(`${type} keeps API Gateway's status: pass it`);
  return { status: answered, headers, body: renderTemplate(definition.template, context) };
}

function sendGatewayResponse(res: ServerResponse, type: GatewayResponseType, context: TemplateContext, status?: number) {
  const response = gatewayResponse(type, context, status);
  res.writeHead(response.status, response.headers);
  res.end(response.body);
  return response.status;
}

/**
 * A request the HTTP parser refuses (oversized or malformed headers, a broken request line):
 * API Gateway answers those itself, so here too they get the DEFAULT_4XX gateway response in
 * the error envelope instead of Node's bare status line.
 */
function refuseMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const message = error.code === 'HPE_HEADER_OVERFLOW' ? 'Request header fields too large' : 'Malformed HTTP request';
  const response = gatewayResponse('DEFAULT_4XX', { requestId: randomUUID(), errorMessage: message }, 400);
  const head = [
    `HTTP/1.1 ${response.status} Bad Request`,
    ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(response.body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${response.body}`);
}

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

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function arnPattern(resource: string): RegExp {
  const escaped = resource.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** API Gateway's policy evaluation: an explicit Deny wins; otherwise an Allow must match. */
function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  let allowed = false;
  for (const statement of statements as { Effect: string; Resource: string | string[] }[]) {
    const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
    if (!resources.some((r) => arnPattern(r).test(methodArn))) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

function writeProxyResult(res: ServerResponse, result: APIGatewayProxyResult, requestId: string) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  headers['x-amzn-RequestId'] = requestId;
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

function isProxyResult(value: unknown): value is APIGatewayProxyResult {
  return !!value && typeof value === 'object' && typeof (value as APIGatewayProxyResult).statusCode === 'number';
}

/** Thrown when a function does not answer within API Gateway's integration timeout. */
class IntegrationTimeoutError extends Error {
  constructor(functionName: string) {
    super(`${functionName} did not answer within ${INTEGRATION_TIMEOUT_MS / 1000} s`);
    this.name = 'IntegrationTimeoutError';
  }
}

/** A REQUEST authorizer's result cache: one result per identity, for the authorizer's TTL. */
class AuthorizerResultCache {
  private readonly results = new Map<string, { result: APIGatewayAuthorizerResult; expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  get(identity: string): APIGatewayAuthorizerResult | undefined {
    const hit = this.results.get(identity);
    if (hit && hit.expiresAt > performance.now()) return hit.result;
    this.results.delete(identity);
    return undefined;
  }

  set(identity: string, result: APIGatewayAuthorizerResult): void {
    if (this.results.size > 10_000) this.results.clear();
    this.results.set(identity, { result, expiresAt: performance.now() + this.ttlMs });
  }
}

/** What one gateway keeps between requests. */
interface GatewayState {
  options: LocalGatewayOptions;
  orderedRoutes: readonly Route[];
  functions: FunctionConcurrency;
  authorizerResults: AuthorizerResultCache;
  buckets: TokenBuckets;
  planOfKey(usageKey: string): Promise<Plan | undefined>;
  invocations: Map<string, number>;
}

/**
 * The plan of a usage key, asked once per key for a few seconds however many requests carry it.
 * A failed lookup answers the plan found last, if any, and is tried again on the next request.
 */
function cachedPlanLookup(planOfKey: (usageKey: string) => Promise<Plan | undefined>) {
  interface Entry {
    plan: Promise<Plan | undefined>;
    at: number;
    last?: Plan;
  }
  const known = new Map<string, Entry>();
  return (usageKey: string): Promise<Plan | undefined> => {
    const hit = known.get(usageKey);
    if (hit && performance.now() - hit.at < USAGE_PLAN_CACHE_MS) return hit.plan;
    if (known.size > 10_000) known.clear();
    const entry: Entry = { plan: Promise.resolve(undefined), at: performance.now(), last: hit?.last };
    entry.plan = planOfKey(usageKey).then(
      (plan) => (entry.last = plan),
      (error: unknown) => {
        entry.at = -Infinity;
        if (entry.last) return entry.last;
        throw error;
      },
    );
    known.set(usageKey, entry);
    return entry.plan;
  };
}

/** One invocation in a slot of its function, given up on (as API Gateway does) after `giveUpMs`. */
async function invokeBounded(state: GatewayState, fn: LocalFunction, event: unknown, timeoutMs: number, giveUpMs: number): Promise<unknown> {
  const givenUp = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new IntegrationTimeoutError(fn.name);
      givenUp.abort(error);
      reject(error);
    }, giveUpMs);
  });
  try {
    const run = () => {
      state.invocations.set(fn.name, (state.invocations.get(fn.name) ?? 0) + 1);
      return invoke(fn, event, timeoutMs);
    };
    return await Promise.race([state.functions.run(fn.name, run, givenUp.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A request header by name, in any case (API Gateway's identity sources ignore case). */
function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

async function handle(req: IncomingMessage, res: ServerResponse, state: GatewayState): Promise<number> {
  const { options, orderedRoutes } = state;
  const requestId = randomUUID();
  const context: TemplateContext = { requestId };
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();

  const extra = options.extraRoutes?.find((r) => r.method === method && r.path === url.pathname);
  if (extra) {
    const { status, body, contentType } = extra.respond();
    res.writeHead(status, { 'Content-Type': contentType, 'X-Request-Id': requestId });
    res.end(body);
    return status;
  }

  const resolved = resolve(orderedRoutes, method, url.pathname);
  if (resolved === undefined) return sendGatewayResponse(res, 'MISSING_AUTHENTICATION_TOKEN', context);
  if (resolved === 'malformed') return sendGatewayResponse(res, 'DEFAULT_4XX', { ...context, errorMessage: 'Malformed path parameter' }, 400);
  if (resolved === 'method-not-allowed') {
    res.writeHead(405, { 'Content-Type': 'application/json', 'X-Request-Id': requestId });
    res.end(renderTemplate(methodNotAllowedTemplate, context));
    return 405;
  }
  const { route, params } = resolved;

  const body = await readBody(req);
  if (body === 'too-large') return sendGatewayResponse(res, 'REQUEST_TOO_LARGE', context);

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

  const authorizer = authorizerOf(route);
  if (authorizer) {
    const methodArn = `arn:aws:execute-api:us-east-1:000000000000:local/${STAGE}/${method}${url.pathname}`;
    // A cached authorizer is keyed by its identity sources; without one of them API Gateway answers
    // 401 and never invokes it (definitions/authorizers.ts).
    const identity = authorizer.identityHeaders.map((name) => headerValue(headers, name));
    if (authorizer.cached && identity.some((value) => !value)) return sendGatewayResponse(res, 'UNAUTHORIZED', context);
    const cacheKey = authorizer.cached ? JSON.stringify([authorizer.kind, ...identity]) : undefined;
    let result = cacheKey ? state.authorizerResults.get(cacheKey) : undefined;
    if (!result) {
      try {
        result = (await invokeBounded(state, supportFunction('authorizer'), { type: 'REQUEST', methodArn, ...request, requestContext }, 10_000, 10_000)) as APIGatewayAuthorizerResult;
      } catch (error) {
        if ((error as Error).message === 'Unauthorized') return sendGatewayResponse(res, 'UNAUTHORIZED', context);
        console.error('authorizer failed:', (error as Error).message);
        return sendGatewayResponse(res, 'AUTHORIZER_FAILURE', context);
      }
      if (cacheKey) state.authorizerResults.set(cacheKey, result);
    }
    // The (possibly cached) policy applied to this route by its method ARN.
    context.authorizer = { ...result.context };
    if (!policyAllows(result, methodArn)) return sendGatewayResponse(res, 'ACCESS_DENIED', context);
    // Every keyed method requires an API key, and the authorizer names it (apiKeySource AUTHORIZER):
    // none, or one in no usage plan, is INVALID_API_KEY; then the key's usage plan throttles.
    const usageKey = result.usageIdentifierKey ?? undefined;
    let plan: Plan | undefined;
    try {
      plan = usageKey ? await state.planOfKey(usageKey) : undefined;
    } catch (error) {
      console.error('usage plan lookup failed:', (error as Error).message);
      return sendGatewayResponse(res, 'DEFAULT_5XX', context, 500);
    }
    if (!usageKey || !plan) return sendGatewayResponse(res, 'INVALID_API_KEY', context);
    if (!state.buckets.take(usageKey, options.usagePlans.limits[plan])) return sendGatewayResponse(res, 'THROTTLED', context);
    requestContext.authorizer = { ...result.context, principalId: result.principalId, integrationLatency: 0 };
  }

  const event: APIGatewayProxyEvent = {
    ...request,
    requestContext: requestContext as unknown as APIGatewayProxyEvent['requestContext'],
    body: body.length ? body.toString('utf8') : null,
    isBase64Encoded: false,
  };
  let result: unknown;
  try {
    const timeoutMs = (route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS) * 1000;
    result = await invokeBounded(state, routeFunction(route), event, timeoutMs, INTEGRATION_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof IntegrationTimeoutError) {
      console.error(error.message);
      return sendGatewayResponse(res, 'INTEGRATION_TIMEOUT', context);
    }
    // API Gateway answers a throttled Lambda invocation with a 500.
    if (error instanceof FunctionThrottledError) {
      console.error(error.message);
      return sendGatewayResponse(res, 'DEFAULT_5XX', context, 500);
    }
    console.error(`function ${route.id} failed:`, error);
    // A Lambda proxy function that fails, or answers no proxy result: 502 from API Gateway.
    return sendGatewayResponse(res, 'DEFAULT_5XX', context, 502);
  }
  if (!isProxyResult(result)) return sendGatewayResponse(res, 'DEFAULT_5XX', context, 502);
  writeProxyResult(res, result, requestId);
  return result.statusCode;
}

export async function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  const state: GatewayState = {
    options,
    orderedRoutes: byLiteralSegments(options.routes),
    functions: new FunctionConcurrency(options.functionConcurrency ?? DEFAULT_FUNCTION_CONCURRENCY),
    authorizerResults: new AuthorizerResultCache((options.authorizerCacheTtlSeconds ?? DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS) * 1000),
    buckets: new TokenBuckets(),
    planOfKey: cachedPlanLookup(options.usagePlans.planOfKey),
    invocations: new Map(),
  };
  // Requests not yet answered in full, and whether close() has begun.
  const inFlight = new Set<Promise<void>>();
  let closing = false;
  const server = createServer((req, res) => {
    const started = performance.now();
    if (closing) {
      res.shouldKeepAlive = false;
      sendGatewayResponse(res, 'DEFAULT_5XX', { requestId: randomUUID(), errorMessage: 'The local stack is stopping' }, 503);
      return;
    }
    const answered = new Promise<void>((resolveAnswered) =>
      res.once('close', () => {
        inFlight.delete(answered);
        // Answered while stopping: its connection, idle now, closes.
        if (closing) setImmediate(() => server.closeIdleConnections());
        resolveAnswered();
      }),
    );
    inFlight.add(answered);
    handle(req, res, state)
      .then((status) => {
        options.onRequest?.(`${req.method} ${resourcePathOf(state, req)} ${status} ${Math.round(performance.now() - started)}ms`);
      })
      .catch((error) => {
        console.error('local gateway error:', error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"error":{"code":"INTERNAL_ERROR","message":"Internal error","request_id":"local"}}');
      });
  });
  server.on('clientError', refuseMalformedRequest);
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolvePromise());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    invocations: (functionName) => state.invocations.get(functionName) ?? 0,
    async close({ drainMs = 0 } = {}) {
      closing = true;
      const closed = new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
      server.closeIdleConnections();
      if (inFlight.size && drainMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        const drained = await Promise.race([
          Promise.all(inFlight).then(() => true),
          new Promise<false>((resolveLate) => (timer = setTimeout(() => resolveLate(false), drainMs))),
        ]);
        clearTimeout(timer);
        if (!drained) console.warn(`${inFlight.size} request(s) still in flight after ${drainMs / 1000} s; closing their connections`);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
