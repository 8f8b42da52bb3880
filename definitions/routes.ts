/**
 * The one route table. The CDK stack creates one API Gateway method per entry and one function
 * per entry (or per `function`, for the dashboard's resources); the local gateway serves exactly
 * the same entries. Paths use API Gateway syntax. Here: what a route is, the table gathered from
 * its parts, and the lookups over it. The routes themselves are constants of their area's file
 * (property-sync-routes.ts, payment-routes.ts, delivery-routes.ts, the sandbox checkout's
 * sandbox-routes.ts, served on an origin of its own; the pages for people in page-routes.ts), and
 * each function imports its own route's constant, never this table, so that its bundle carries
 * its own route only. What a function may do is in route-access.ts, the API document's words for
 * each route in shared/openapi/route-docs.ts.
 */
import { dashboardRoutes, guestRoutes } from './page-routes';
import { deliveryRouteTable } from './delivery-routes';
import { paymentRouteTable } from './payment-routes';
import { propertySyncRouteTable } from './property-sync-routes';
import { sandboxRouteTable } from './sandbox-routes';
import type { RouteAccess } from './route-access';

export { DELIVERY_SCOPES, type DeliveryScope, KEY_SCOPES, type KeyKind, RATE_SCOPES, type RateScope, SYNC_SCOPES, type SyncScope } from './scopes';
import type { DeliveryScope, KeyKind, RateScope, SyncScope } from './scopes';

/** Who may open a dashboard page: every operator of the client, or its admins only. */
export type OperatorAccess = 'staff' | 'admin';

export type RouteAuth =
  | { kind: 'sync'; scope: SyncScope | RateScope }
  | { kind: 'payment' }
  /** Either kind of key, with this scope: the deliveries API (each key sees its own kind's deliveries). */
  | { kind: 'key'; scope: DeliveryScope }
  | { kind: 'public' }
  /**
   * A hotel dashboard page: an operator's Cognito session (cookies), verified by the function
   * itself on every request (shared/dashboard/session.ts), so API Gateway runs no authorizer.
   */
  | { kind: 'dashboard'; role: OperatorAccess };

export interface Route {
  /** Stable id: names the method (and the function construct, unless `function` groups it). */
  id: string;
  /**
   * The function serving it, when several routes of one resource share one (a dashboard page and
   * its form actions). Routes of one function have the same handler, access and timeout (pageRoutes
   * builds them so). @default id
   */
  function?: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** Handler file under functions/, without extension. */
  handler: string;
  auth: RouteAuth;
  /** Honours the Idempotency-Key header. */
  idempotent?: boolean;
  /**
   * Function timeout (default 10 s), at most MAX_ROUTE_TIMEOUT_SECONDS. Sync writes of 500 items
   * get the most, and stop themselves before it (shared/domain/property-sync/time-budget.ts).
   */
  timeoutSeconds?: number;
  /** What the function may do; the stack grants exactly this (least privilege). */
  access: RouteAccess;
  /** One line: the Lambda function's description (and the reason a public route is public). */
  description: string;
  /**
   * A page for people (dashboard, guest booking): HTML behind a session or for a browser, not part
   * of the API, so it is left out of the OpenAPI document and has no text in
   * shared/openapi/route-docs.ts. (The sandbox checkout page stands in for a payment provider's
   * page and is documented as one.)
   */
  page?: true;
  /**
   * Where the route is served. Unset: on the API (API Gateway in the stack, the local gateway).
   * `sandbox`: on the sandbox payment provider's own origin, never the API's (docs/behaviour.md "Sandbox
   * payment provider"), and only in a stage that turns the sandbox on (the local stack always; a
   * deployed stage with -c sandboxPayments=true, never prod): a Lambda function URL in the stack,
   * SANDBOX_PORT on the local stack. A function URL serves one function: the origin's routes share it.
   */
  origin?: 'sandbox';
}

const apiRouteTable = [...propertySyncRouteTable, ...paymentRouteTable, ...deliveryRouteTable] as const satisfies readonly Route[];

/** The API's routes: property sync, payment orders, provider webhooks, deliveries. */
export const routes: readonly Route[] = apiRouteTable;

export const sandboxRoutes: readonly Route[] = sandboxRouteTable;

/** The routes the API document describes, by id: shared/openapi/route-docs.ts has the words of each. */
export type DocumentedRouteId = Exclude<(typeof apiRouteTable)[number] | (typeof sandboxRouteTable)[number], { page: true }>['id'];

export const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 10;
/** API Gateway gives up on an integration after 29 s: a route function stops first. */
export const MAX_ROUTE_TIMEOUT_SECONDS = 28;

/**
 * The routes a stage serves, on its API and on the sandbox's origin: the sandbox provider's only
 * where the stage turns it on.
 */
export function routesOfStage(stage: { sandboxPayments: boolean }): readonly Route[] {
  return [...routes, ...dashboardRoutes, ...guestRoutes, ...(stage.sandboxPayments ? sandboxRoutes : [])];
}

/** Served by the API (API Gateway, the local gateway), not on an origin of its own. */
export const servedByApi = (route: Route): boolean => route.origin === undefined;

/** The routes of the API document: all but the pages for people (the sandbox's are documented with their own origin). */
export function apiRoutes(all: readonly Route[] = [...routes, ...sandboxRoutes]): readonly Route[] {
  return all.filter((route) => !route.page);
}

export function findRoute(id: string): Route {
  const route = [...routes, ...dashboardRoutes, ...guestRoutes, ...sandboxRoutes].find((r) => r.id === id);
  if (!route) throw new Error(`No route with id ${id}`);
  return route;
}
