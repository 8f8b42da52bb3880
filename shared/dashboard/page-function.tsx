/**
 * One page function (a dashboard resource, or the guest booking pages): the routes of the route
 * table that name it, each answered by its action. Around every action, the dashboard's rules
 * (docs/behaviour.md "Hotel dashboard"), which the public guest pages share:
 * - every response: a CSP without scripts, no framing, no referrer, never cached;
 * - a POST whose Origin is not the service's own: 403, before anything else runs;
 * - a page behind a session: the operator from the verified token (else to the sign-in page),
 *   admins only where the route says so (403), the client from the token alone;
 * - errors as pages: 404 for what is not the operator's client's, no internal detail on a 5xx.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { VNode } from 'preact';
import type { Route } from '../../definitions/routes';
import type { Operator } from '../auth/operator-tokens';
import { config, LOCAL_STAGE, MAX_BODY_BYTES } from '../config';
import { type AppError, errors } from '../errors';
import { toAppError } from '../http/error-envelope';
import { lowerCaseHeaders } from '../http/headers';
import { logger, metrics, tracing } from '../observability';
import { COOKIE, clearedSessionCookies, type CookieScope, cookieScope, parseCookies } from './cookies';
import { Empty, linksUnder, type Links, Page, PublicPage, renderDocument } from './layout';
import { clearedNoticeCookie, type Notice, noticeCookie, readNotice } from './notice';
import type { Session } from './session';

export interface PageRequest {
  /** The signed-in operator; on a public dashboard route (sign-in), undefined. */
  operator: Operator;
  params: Record<string, string>;
  query: Record<string, string>;
  /** A POST's urlencoded form (empty on a GET). */
  form: URLSearchParams;
  cookies: Record<string, string>;
  /** The request's `Accept-Language` header (the guest pages' language, shared/i18n/languages.ts). */
  acceptLanguage?: string;
  /** A GET's route path with its parameters: the page the request is for (the guest pages' language menu links to it). */
  path?: string;
  links: Links;
  /** The notice a previous action left (POST-redirect-GET), shown once. */
  notice?: Notice;
  requestId: string;
  /** The service's public base URL (for links handed out: the guest booking page). */
  baseUrl: string;
  cookieScope: CookieScope;
  /**
   * The browser's address as API Gateway saw it (`requestContext.identity.sourceIp`): handed to
   * Cognito at sign-in, so that its threat protection judges the operator's address, not ours.
   */
  sourceIp?: string;
  now: Date;
}

export type PageOutcome =
  | { html: VNode; status?: number; cookies?: string[] }
  | { redirect: string; notice?: Notice; cookies?: string[] }
  | { raw: string; contentType: string; status?: number; cacheSeconds?: number; /** A file to save under this name (Content-Disposition). */ download?: string };

export type PageAction = (request: PageRequest) => Promise<PageOutcome>;
export type PublicPageAction = (request: Omit<PageRequest, 'operator'> & { operator?: undefined }) => Promise<PageOutcome>;

/**
 * No script may run (there is none), styles and images only from the service, forms post only to
 * it, and no page may be framed (clickjacking). `formLeadsTo`: the other origins a form's POST may
 * be answered with a redirect to (a provider's checkout): Chromium holds that redirect, and every
 * one after it, to the page's form-action.
 */
export function contentSecurityPolicy(formLeadsTo: readonly string[] = [], imagesFrom: readonly string[] = []): string {
  const formAction = ["'self'", ...formLeadsTo].join(' ');
  // A public page's images from elsewhere (the guest pages' room pictures) come with connect-src
  // 'self': no script runs, but crawlers' audits fetch the site's /robots.txt from the page itself.
  const connect = imagesFrom.length ? " connect-src 'self';" : '';
  return `default-src 'none'; style-src 'self'; img-src ${["'self'", 'data:', ...imagesFrom].join(' ')};${connect} form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

/** The dashboard's: its forms lead nowhere but the dashboard. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

function securityHeaders(secure: boolean, policy: string): Record<string, string> {
  return {
    'Content-Security-Policy': policy,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    // No referrer to other sites. Not `no-referrer`: under it a browser sends `Origin: null` on the
    // dashboard's own form posts (Fetch standard, "serializing a request origin"), which the
    // Origin check would then refuse.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    ...(secure ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

type Event = APIGatewayProxyEvent;

function baseUrlOf(event: Event): string {
  return config().publicBaseUrl ?? `https://${event.requestContext.domainName}/${event.requestContext.stage}`;
}

function formOf(event: Event, headers: Record<string, string>): URLSearchParams {
  if (event.httpMethod !== 'POST' || !event.body) return new URLSearchParams();
  const body = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw errors.formTooLarge();
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw errors.formNotUrlEncoded();
  return new URLSearchParams(body);
}

const TITLES: Record<number, string> = { 400: 'Bad request', 403: 'Forbidden', 404: 'Not found', 413: 'Too large', 415: 'Unsupported form' };

function errorPage(error: AppError, links: Links, operator: Operator | undefined, requestId: string): VNode {
  const title = TITLES[error.status] ?? (error.status >= 500 ? 'Something went wrong' : 'Request refused');
  const message =
    error.status >= 500 ? `The dashboard could not answer. Try again in a moment (request ${requestId}).` : error.message;
  const body = (
    <>
      <Empty>{message}</Empty>
      <p>
        <a href={links.to('/dashboard')}>Back to the overview</a>
      </p>
    </>
  );
  return operator ? (
    <Page title={title} links={links} operator={operator} nav="overview">
      {body}
    </Page>
  ) : (
    <PublicPage title={title} links={links}>
      {body}
    </PublicPage>
  );
}

const HOTEL_NAME_SECONDS = 60;
const hotelNames = new Map<string, { name: string | undefined; until: number }>();

/** The hotel's name for the header of every page: one GetItem a minute per client and container. */
async function hotelNameOf(clientId: string): Promise<string | undefined> {
  const cached = hotelNames.get(clientId);
  if (cached && cached.until > Date.now()) return cached.name;
  // Loaded on first use: the table client reads its configuration when its module loads.
  const { getClient } = await import('../store/api-key-store');
  const name = (await getClient(clientId))?.name;
  hotelNames.set(clientId, { name, until: Date.now() + HOTEL_NAME_SECONDS * 1000 });
  return name;
}


/** What an error page knows of its request: the guest pages' speak the guest's language. */
export interface ErrorPageContext {
  links: Links;
  requestId: string;
  cookies: Record<string, string>;
  acceptLanguage?: string;
  /** The page asked for, where a route matched (GET only: the language menu links to it). */
  path?: string;
  query: Record<string, string>;
}

/** A route's path with its parameters filled in: `/book/{client_id}` → `/book/3f…`. */
const pathOf = (route: Route, params: Record<string, string>) => route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

export interface PageFunctionOptions {
  /**
   * The page an error is answered with, for pages that are not the dashboard's (the guest
   * booking's own layout). @default the dashboard's error page
   */
  errorPage?: (error: AppError, context: ErrorPageContext) => VNode | Promise<VNode>;
  /**
   * The operator's session (shared/dashboard/session.ts `sessionOf`), for a function with pages
   * behind one. Passed in, not imported here: the token verifier (aws-jwt-verify) stays out of
   * the bundles of public pages that never use it (the guest booking pages).
   */
  session?: (cookies: Record<string, string>, scope: CookieScope) => Promise<Session | undefined>;
  /**
   * The origins beyond the service's own that a POST of this function may redirect a person to
   * (the guest pages: the providers' checkouts), read on every request; named in the CSP's
   * form-action (docs/behaviour.md "Checkout from our own pages"). @default none
   */
  formLeadsTo?: () => readonly string[];
  /** Where else its images may come from (the guest pages: room pictures on any https origin). */
  imagesFrom?: readonly string[];
}

/**
 * The page function of one page resource of the route table (definitions/page-routes.ts: its
 * `…Pages`, which the function imports alone, so its bundle does not carry the whole table), with
 * an action per route id.
 */
export function pageFunction(routes: readonly Route[], actions: Record<string, PageAction | PublicPageAction>, options: PageFunctionOptions = {}) {
  const functionId = routes[0]?.function;
  if (!functionId || routes.some((route) => route.function !== functionId)) throw new Error('A page function serves the routes of one page resource');
  for (const route of routes) if (!actions[route.id]) throw new Error(`No action for route ${route.id}`);
  const sessionOf = options.session;
  if (!sessionOf && routes.some((route) => route.auth.kind === 'dashboard')) throw new Error(`${functionId} has pages behind a session: pass options.session`);
  const byMethodAndPath = new Map<string, Route>(routes.map((route) => [`${route.method} ${route.path}`, route]));

  const core = async (event: Event): Promise<APIGatewayProxyResult> => {
    const requestId = event.requestContext?.requestId ?? 'unknown';
    const headers = lowerCaseHeaders(event.headers);
    const baseUrl = baseUrlOf(event);
    const base = new URL(baseUrl);
    const basePath = base.pathname.replace(/\/$/, '');
    const links = linksUnder(basePath);
    const secure = config().stage !== LOCAL_STAGE;
    const policy = contentSecurityPolicy(options.formLeadsTo?.(), options.imagesFrom);
    const scope: CookieScope = cookieScope(basePath, !secure);
    const setCookies: string[] = [];
    let operator: Operator | undefined;
    let cookies: Record<string, string> = {};
    let path: string | undefined;

    const respond = (status: number, extra: Record<string, string>, body: string): APIGatewayProxyResult => {
      metrics.addMetric(status >= 500 ? 'Http5xx' : status >= 400 ? 'Http4xx' : 'Http2xx', MetricUnit.Count, 1);
      return {
      statusCode: status,
      headers: { ...securityHeaders(secure, policy), ...extra, 'X-Request-Id': requestId },
      ...(setCookies.length ? { multiValueHeaders: { 'Set-Cookie': setCookies } } : {}),
      body,
      };
    };
    const html = (status: number, page: VNode, extra: Record<string, string> = {}) =>
      respond(status, { ...extra, 'Content-Type': 'text/html; charset=utf-8' }, renderDocument(page));
    // A path of the service, or an absolute URL an action was handed (a provider's checkout).
    const redirect = (path: string) => respond(303, { Location: /^https?:\/\//.test(path) ? path : links.to(path) }, '');

    try {
      const route = byMethodAndPath.get(`${event.httpMethod} ${event.resource}`);
      if (!route) throw errors.noSuchPage();
      // A state-changing request from another site (or without an Origin) does nothing.
      if (event.httpMethod !== 'GET' && headers.origin !== base.origin) {
        throw errors.crossSiteForm();
      }
      cookies = parseCookies(headers.cookie, scope);
      if (event.httpMethod === 'GET') path = pathOf(route, (event.pathParameters ?? {}) as Record<string, string>);
      if (route.auth.kind === 'dashboard') {
        const session = await sessionOf!(cookies, scope);
        if (!session) {
          if (cookies[COOKIE.id] || cookies[COOKIE.refresh]) setCookies.push(...clearedSessionCookies(scope));
          return redirect('/dashboard/sign-in');
        }
        operator = { ...session.operator, client_name: await hotelNameOf(session.operator.client_id) };
        setCookies.push(...session.setCookies);
        logger.appendKeys({ client_id: operator.client_id, operator: operator.email });
        if (route.auth.role === 'admin' && operator.role !== 'admin') {
          throw errors.integrationsAdminOnly();
        }
      }
      const notice = event.httpMethod === 'GET' ? readNotice(cookies[COOKIE.flash]) : undefined;
      if (cookies[COOKIE.flash] && event.httpMethod === 'GET') setCookies.push(clearedNoticeCookie(scope));
      const request: PageRequest = {
        operator: operator as Operator,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        form: formOf(event, headers),
        cookies,
        acceptLanguage: headers['accept-language'],
        path,
        links,
        notice,
        requestId,
        baseUrl,
        cookieScope: scope,
        sourceIp: event.requestContext?.identity?.sourceIp ?? undefined,
        now: new Date(),
      };
      const outcome = await (actions[route.id] as PageAction)(request);
      if ('redirect' in outcome) {
        setCookies.push(...(outcome.cookies ?? []));
        if (outcome.notice) setCookies.push(noticeCookie(outcome.notice, scope));
        return redirect(outcome.redirect);
      }
      if ('raw' in outcome) {
        const cache: Record<string, string> = outcome.cacheSeconds ? { 'Cache-Control': `private, max-age=${outcome.cacheSeconds}` } : {};
        const file: Record<string, string> = outcome.download ? { 'Content-Disposition': `attachment; filename="${outcome.download}"` } : {};
        return respond(outcome.status ?? 200, { 'Content-Type': outcome.contentType, ...cache, ...file }, outcome.raw);
      }
      setCookies.push(...(outcome.cookies ?? []));
      return html(outcome.status ?? 200, outcome.html);
    } catch (thrown) {
      const error = toAppError(thrown);
      // An error's own headers go with its page: Retry-After on a 429 or a 503.
      const context: ErrorPageContext = { links, requestId, cookies, acceptLanguage: headers['accept-language'], path, query: (event.queryStringParameters ?? {}) as Record<string, string> };
      return html(error.status, options.errorPage ? await options.errorPage(error, context) : errorPage(error, links, operator, requestId), error.headers);
    }
  };

  return middy(core)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(tracing())
    .use(logMetrics(metrics))
    .use(requestIdInLogs());
}

const requestIdInLogs = (): MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    logger.appendKeys({ request_id: request.event.requestContext?.requestId ?? 'unknown' });
  },
});
