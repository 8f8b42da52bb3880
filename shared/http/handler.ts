/**
 * Wraps a route's use case in the shared HTTP middleware: request id, logging, tracing,
 * metrics, the authorizer's verdict and the route's scope (checked again here), body limits,
 * JSON parsing, zod validation and the error envelope.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { ZodMiniType, z } from 'zod/mini';

type ZodIssue = z.core.$ZodIssue;
import type { Route } from '../../definitions/routes';
import { type AuthorizerContext, type Principal, principalFromContext } from '../auth/authorize';
import { config, MAX_BODY_BYTES } from '../config';
import { AppError, errors } from '../errors';
import { logger, metrics, tracing } from '../observability';
import { errorBody, toAppError, zodDetails } from './error-envelope';
import { lowerCaseHeaders } from './headers';
import { readIdempotencyKey, runIdempotent } from './idempotency';

export interface HttpRequest<TBody, TQuery> {
  body: TBody;
  query: TQuery;
  params: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  requestId: string;
  method: string;
  path: string;
  /** The service's public base URL (for links it hands out: checkout and return URLs). */
  baseUrl: string;
  /** Milliseconds until the function times out (the Lambda context's), for use cases that must stop in time. */
  remainingTimeMs: () => number;
}

export interface KeyedRequest<TBody, TQuery> extends HttpRequest<TBody, TQuery> {
  principal: Principal;
}

export interface HttpResult {
  status: number;
  /** Serialized as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

interface Schemas<TBody, TQuery> {
  body?: ZodMiniType<TBody>;
  query?: ZodMiniType<TQuery>;
  /** A route's own error code for some invalid fields (else VALIDATION_ERROR). */
  mapIssues?: (issues: readonly ZodIssue[]) => AppError | undefined;
  /** Path parameters; a value the schema refuses cannot name a record. */
  params?: ZodMiniType<Record<string, string>>;
  /** The route's answer for a path parameter that cannot name a record (else 404 NOT_FOUND). */
  notFound?: (params: Record<string, string>) => AppError;
  /** Every body field is optional: a request without a body (and so without a Content-Type) is `{}`. */
  optionalBody?: true;
}

/**
 * Ids and references are at most 128 characters (docs/behaviour.md "Conventions"), provider
 * references too: a longer path parameter names nothing, and never reaches a table key
 * (DynamoDB refuses keys over 2 KB with an error that would otherwise be a 500).
 */
const MAX_PATH_PARAMETER_LENGTH = 128;

function readParams(event: Event, schemas: Schemas<unknown, unknown>): Record<string, string> {
  const params = (event.pathParameters ?? {}) as Record<string, string>;
  const plausible = Object.values(params).every((v) => typeof v === 'string' && v.length >= 1 && v.length <= MAX_PATH_PARAMETER_LENGTH);
  if (!plausible || (schemas.params && !schemas.params.safeParse(params).success)) throw schemas.notFound?.(params) ?? errors.notFound();
  return params;
}

type Event = APIGatewayProxyEvent;

/** PUBLIC_BASE_URL when set (local stack, custom domains); else the API Gateway stage URL. */
function baseUrlOf(event: Event): string {
  const configured = config().publicBaseUrl;
  if (configured) return configured;
  return `https://${event.requestContext.domainName}/${event.requestContext.stage}`;
}

function requestIdOf(event: Event): string {
  return event.requestContext?.requestId ?? 'unknown';
}

function toResult(result: HttpResult, requestId: string): APIGatewayProxyResult {
  const isJson = result.rawBody === undefined;
  return {
    statusCode: result.status,
    headers: {
      ...(isJson && result.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...result.headers,
      'X-Request-Id': requestId,
    },
    body: isJson ? (result.body === undefined ? '' : JSON.stringify(result.body)) : result.rawBody!,
  };
}

/** Every outcome, success or failure, carries the request id; failures get the envelope. */
const envelope = (): MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    logger.appendKeys({ request_id: requestIdOf(request.event) });
  },
  onError: (request) => {
    const error = toAppError(request.error);
    metrics.addMetric(error.status >= 500 ? 'Http5xx' : 'Http4xx', MetricUnit.Count, 1);
    request.response = toResult(
      { status: error.status, body: errorBody(error, requestIdOf(request.event)), headers: error.headers },
      requestIdOf(request.event),
    );
  },
});

/** Re-checks the authorizer's verdict: no keyed route runs without a principal allowed for it. */
const requirePrincipal = (route: Route): MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    const context = request.event.requestContext?.authorizer as AuthorizerContext | null | undefined;
    if (context?.auth_error) throw errors.invalidApiKey();
    const principal = principalFromContext(context);
    if (!principal) throw errors.invalidApiKey();
    if (route.auth.kind !== 'key' && route.auth.kind !== principal.kind) throw errors.insufficientScope();
    if ((route.auth.kind === 'sync' || route.auth.kind === 'key') && !principal.scopes.includes(route.auth.scope)) {
      throw errors.missingScope(route.auth.scope);
    }
    logger.appendKeys({ client_id: principal.clientId, key_id: principal.keyId });
  },
});

/**
 * Lower-cases header names and the media type (RFC 9110: `Application/JSON` is
 * `application/json`), and refuses bodies over 1 MiB before anything parses them.
 */
const normalizeRequest = (): MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    const headers = lowerCaseHeaders(request.event.headers);
    const contentType = headers['content-type'];
    if (contentType) headers['content-type'] = contentType.replace(/^[^;]*/, (mediaType) => mediaType.trim().toLowerCase());
    request.event.headers = headers;
    const body = request.event.body;
    if (body && Buffer.byteLength(body, request.event.isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) {
      throw errors.payloadTooLarge();
    }
  },
});

/** A request without a body stands for `{}` (a POST whose fields are all optional). */
const emptyBodyAsObject = (): MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    const { event } = request;
    if (event.body !== null && event.body !== undefined && event.body !== '') return;
    event.body = '{}';
    event.isBase64Encoded = false;
    event.headers['content-type'] ??= 'application/json';
  },
});

function parseWith<T>(
  schema: ZodMiniType<T> | undefined,
  value: unknown,
  location: 'body' | 'query',
  mapIssues?: Schemas<unknown, unknown>['mapIssues'],
): T {
  if (!schema) return value as T;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const specific = mapIssues?.(parsed.error.issues);
  if (specific) throw specific;
  // A sync array over the limit has its own code.
  const tooMany = parsed.error.issues.find((i) => i.code === 'too_big' && i.origin === 'array' && i.path.length === 1);
  if (tooMany) throw errors.tooManyItems(String(tooMany.path[0]), Number((tooMany as { maximum?: unknown }).maximum));
  throw errors.validation(zodDetails(parsed.error), `The request ${location} is not valid`);
}

function buildHandler<TBody, TQuery>(
  route: Route,
  schemas: Schemas<TBody, TQuery>,
  run: (event: Event, request: HttpRequest<TBody, TQuery>, context: Context) => Promise<HttpResult>,
) {
  const core = async (event: Event, context: Context): Promise<APIGatewayProxyResult> => {
    const requestId = requestIdOf(event);
    const params = readParams(event, schemas as Schemas<unknown, unknown>);
    const request: HttpRequest<TBody, TQuery> = {
      body: parseWith(schemas.body, event.body, 'body', schemas.mapIssues),
      query: parseWith(schemas.query, event.queryStringParameters ?? {}, 'query'),
      params,
      headers: event.headers as Record<string, string>,
      requestId,
      method: event.httpMethod,
      path: event.path,
      baseUrl: baseUrlOf(event),
      remainingTimeMs: () => context.getRemainingTimeInMillis(),
    };
    const result = await run(event, request, context);
    metrics.addMetric(result.status >= 400 ? 'Http4xx' : 'Http2xx', MetricUnit.Count, 1);
    return toResult(result, requestId);
  };

  // onError runs in reverse order: the envelope answers before Powertools flushes and resets.
  const chain = middy(core)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(tracing())
    .use(logMetrics(metrics))
    .use(envelope());
  if (route.auth.kind !== 'public') chain.use(requirePrincipal(route));
  chain.use(normalizeRequest());
  if (schemas.body && schemas.optionalBody) chain.use(emptyBodyAsObject());
  if (schemas.body) chain.use(httpJsonBodyParser());
  return chain;
}

/** A route called with an API key; the use case receives the tenant's principal. */
export function keyedHandler<TBody = undefined, TQuery = Record<string, never>>(
  route: Route,
  schemas: Schemas<TBody, TQuery>,
  useCase: (request: KeyedRequest<TBody, TQuery>) => Promise<HttpResult>,
) {
  if (route.auth.kind === 'public') throw new Error(`Route ${route.id} is public`);
  return buildHandler(route, schemas, async (event, request, context) => {
    const principal = principalFromContext(event.requestContext.authorizer as AuthorizerContext);
    if (!principal) throw errors.invalidApiKey();
    const keyed = { ...request, principal };
    const idempotencyKey = route.idempotent ? readIdempotencyKey(request.headers) : undefined;
    if (!idempotencyKey) return useCase(keyed);
    const outcome = await runIdempotent(
      // The path as called (its parameters filled in): one key on two orders is two requests.
      { scope: `${principal.clientId} ${route.method} ${route.path.replace(/\{(\w+)\}/g, (_, name: string) => request.params[name] ?? '')}`, key: idempotencyKey, body: event.body },
      context,
      async () => {
        const result = await useCase(keyed);
        return { status: result.status, bodyJson: JSON.stringify(result.body), headers: result.headers };
      },
      (error) => ({ status: error.status, bodyJson: JSON.stringify(errorBody(error, request.requestId)), headers: error.headers }),
    );
    return {
      status: outcome.status,
      rawBody: outcome.replayed && outcome.status >= 400 ? withRequestId(outcome.bodyJson, request.requestId) : outcome.bodyJson,
      headers: {
        'Content-Type': 'application/json',
        ...outcome.headers,
        ...(outcome.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      },
    };
  });
}

/** A replayed error names the request that replayed it, as its X-Request-Id header does. */
function withRequestId(bodyJson: string, requestId: string): string {
  const body = JSON.parse(bodyJson) as { error?: { request_id?: string } };
  if (body.error) body.error.request_id = requestId;
  return JSON.stringify(body);
}

/** A public route (no key): the payment return URL and the sandbox checkout. */
export function publicHandler<TBody = undefined, TQuery = Record<string, never>>(
  route: Route,
  schemas: Schemas<TBody, TQuery>,
  useCase: (request: HttpRequest<TBody, TQuery>) => Promise<HttpResult>,
) {
  if (route.auth.kind !== 'public') throw new Error(`Route ${route.id} needs a key`);
  return buildHandler(route, schemas, (_event, request) => useCase(request));
}

export { AppError };
