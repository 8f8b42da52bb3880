/**
 * How the stage is split into CloudFormation templates: one nested stack per area of the route
 * table (its functions, their roles and log groups, and its API Gateway resources and methods),
 * beside the root stack's shared parts (table, queue, keys, user pool, the REST API itself, the
 * support functions) and the monitoring's own nested stack. CloudFormation allows 500 resources a
 * template (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html);
 * the stage keeps every template at most MAX_TEMPLATE_RESOURCES, and `cdk deploy` deploys the
 * nested stacks with their parent, still one command.
 *
 * A new route under an area's path lands in that area's stack by itself. A route outside every
 * area fails the synth: give it an area here (a new nested stack, nothing else to change).
 */
import type { Route } from '../definitions/routes';

/** 60% of CloudFormation's 500: room for the next routes, functions and alarms of any template. */
export const MAX_TEMPLATE_RESOURCES = 300;

export interface RouteArea {
  /** Names the nested stack (and its construct). */
  id: string;
  /**
   * The API Gateway resource the area's routes hang below (or are on). The root stack creates it
   * and what lies above it, shared by several areas; the area's stack creates everything below.
   */
  basePath: string;
  /** Single paths outside `basePath` (on the API's root) whose routes live in this area too: the site's /robots.txt. */
  paths?: readonly string[];
  /** Routes served on an origin of their own (not the API) whose functions live in this area. */
  origins?: readonly NonNullable<Route['origin']>[];
  description: string;
}

export const ROUTE_AREAS: readonly RouteArea[] = [
  { id: 'PropertySync', basePath: '/api/v1/property-sync', description: 'PMS property sync: categories, rooms, bookings, check-ins, availability, cancellations' },
  {
    id: 'Payments',
    basePath: '/api/v1/payments',
    origins: ['sandbox'],
    description: "Payment orders, verify, refunds, provider webhooks; the sandbox provider's checkout where the stage runs it",
  },
  { id: 'Deliveries', basePath: '/api/v1/deliveries', description: 'Deliveries API: list, read, retry and replay callbacks and webhooks' },
  { id: 'Dashboard', basePath: '/dashboard', description: 'Hotel dashboard pages' },
  { id: 'GuestBooking', basePath: '/book', paths: ['/robots.txt'], description: 'Guest booking pages, and the robots.txt that lets crawlers read them' },
];

/** The area whose stack holds `route`'s function and method. */
export function areaOf(route: Route): RouteArea {
  const area = route.origin
    ? ROUTE_AREAS.find((a) => a.origins?.includes(route.origin!))
    : ROUTE_AREAS.find((a) => route.path === a.basePath || route.path.startsWith(`${a.basePath}/`) || a.paths?.includes(route.path));
  if (!area) throw new Error(`Route ${route.id} (${route.origin ?? route.path}) is in no area of infra/route-areas.ts: add one for it`);
  return area;
}
