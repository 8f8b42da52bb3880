/**
 * A local API Gateway (REST, Lambda proxy integration) over the route table the CDK stack
 * deploys: its options, the handling of one request (route, authorizer, function), and the HTTP
 * server that stops well. The parts: route-matching.ts (which route), proxy-event.ts (the v1
 * proxy event and result), request-authorizer.ts (REQUEST authorizers, their result cache, usage
 * keys and throttling), usage-plans.ts (the usage-plan lookup), bounded-invoke.ts (at most a few
 * invocations of one function at once, the rest waiting in line; the integration timeout), and
 * gateway-responses.ts (the stack's gateway responses).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizerOf, DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS } from '../../definitions/authorizers';
import { methodNotAllowedTemplate } from '../../definitions/gateway-responses';
import type { Plan, PlanLimits } from '../../definitions/plans';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, type Route } from '../../definitions/routes';
import { INTEGRATION_TIMEOUT_MS, IntegrationTimeoutError, invokeBounded } from './bounded-invoke';
import { refuseMalformedRequest, renderTemplate, sendGatewayResponse, type TemplateContext } from './gateway-responses';
import { routeFunction } from './lambda-runtime';
import { type ConcurrencyOptions, FunctionConcurrency, FunctionThrottledError, TokenBuckets } from './limits';
import { isProxyResult, proxyEvent, proxyRequest, readBody, writeProxyResult } from './proxy-event';
import { type AuthorizationState, AuthorizerResultCache, authorizeRequest } from './request-authorizer';
import { byLiteralSegments, type ExtraRoute, findExtraRoute, resolveRoute, resourcePathOf } from './route-matching';
import { cachedPlanLookup } from './usage-plans';

/**
 * Enough instances that a burst of requests is served at DynamoDB Local's pace instead of
 * opening more connections than it accepts in time (which surfaced as 503s).
 */
export const DEFAULT_FUNCTION_CONCURRENCY: ConcurrencyOptions = { perFunction: 10, maxQueued: 1_000 };

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

/** What one gateway keeps between requests. */
interface GatewayState extends AuthorizationState {
  options: LocalGatewayOptions;
  orderedRoutes: readonly Route[];
}

async function handle(req: IncomingMessage, res: ServerResponse, state: GatewayState): Promise<number> {
  const { options, orderedRoutes } = state;
  const requestId = randomUUID();
  const context: TemplateContext = { requestId };
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();

  const extra = findExtraRoute(options.extraRoutes, method, url.pathname);
  if (extra) {
    const { status, body, contentType } = extra.respond();
    res.writeHead(status, { 'Content-Type': contentType, 'X-Request-Id': requestId });
    res.end(body);
    return status;
  }

  const resolved = resolveRoute(orderedRoutes, method, url.pathname);
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

  const request = proxyRequest(req, url, method, route, params, requestId);
  const authorizer = authorizerOf(route);
  if (authorizer) {
    const authorization = await authorizeRequest(state, authorizer, request, options.usagePlans.limits, context);
    if ('refused' in authorization) return sendGatewayResponse(res, authorization.refused, context, authorization.status);
    request.requestContext.authorizer = authorization.allowed;
  }

  let result: unknown;
  try {
    const timeoutMs = (route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS) * 1000;
    result = await invokeBounded(state, routeFunction(route), proxyEvent(request, body), timeoutMs, INTEGRATION_TIMEOUT_MS);
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
        const resourcePath = resourcePathOf({ orderedRoutes: state.orderedRoutes, extraRoutes: options.extraRoutes }, req);
        options.onRequest?.(`${req.method} ${resourcePath} ${status} ${Math.round(performance.now() - started)}ms`);
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
