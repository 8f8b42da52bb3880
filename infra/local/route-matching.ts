/**
 * Which route a request reaches, as API Gateway matches it: the local stack's extra routes by
 * exact path, then the route table with literal path segments winning over `{param}` ones.
 */
import type { IncomingMessage } from 'node:http';
import { matchPath } from '../../definitions/path-match';
import type { Route } from '../../definitions/routes';

export interface ExtraRoute {
  method: string;
  path: string;
  respond: () => { status: number; body: string; contentType: string };
}

export interface ResolvedRoute {
  route: Route;
  params: Record<string, string>;
}

/** Literal path segments win over `{param}` ones, as in API Gateway. */
export const byLiteralSegments = (routes: readonly Route[]) =>
  [...routes].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));

export function findExtraRoute(extraRoutes: readonly ExtraRoute[] | undefined, method: string, path: string): ExtraRoute | undefined {
  return extraRoutes?.find((r) => r.method === method && r.path === path);
}

export function resolveRoute(orderedRoutes: readonly Route[], method: string, path: string): ResolvedRoute | 'method-not-allowed' | 'malformed' | undefined {
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
export function resourcePathOf(routes: { orderedRoutes: readonly Route[]; extraRoutes?: readonly ExtraRoute[] }, req: IncomingMessage): string {
  const method = (req.method ?? 'GET').toUpperCase();
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const extra = findExtraRoute(routes.extraRoutes, method, path);
  if (extra) return extra.path;
  const resolved = resolveRoute(routes.orderedRoutes, method, path);
  return typeof resolved === 'object' ? resolved.route.path : '-';
}
