/**
 * Reading the Cookie header and writing Set-Cookie values (RFC 6265), for the dashboard's session.
 *
 * Outside the local stack every cookie is a `__Host-` cookie (RFC 6265bis "cookie name
 * prefixes"): a browser keeps it only when it is Secure, has `Path=/` and no Domain, so neither a
 * sibling subdomain nor plain http can set or shadow it. `Path=/` still reaches the dashboard under
 * an API Gateway stage prefix (`/{stage}/dashboard` is under `/`). The prefix is added when a
 * cookie is written and taken off when it is read, here only: the rest of the code names cookies
 * by COOKIE alone.
 */

/** The `__Host-` prefix, outside the local stack. */
export const HOST_PREFIX = '__Host-';

/**
 * The cookies of a request, by the names of COOKIE. With a prefixed scope only `__Host-` cookies
 * count (their prefix taken off): an unprefixed one may have been set by another host.
 */
export function parseCookies(header: string | undefined, scope?: Pick<CookieScope, 'prefix'>): Record<string, string> {
  const prefix = scope?.prefix ?? '';
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const raw = part.slice(0, at).trim();
    if (!raw.startsWith(prefix)) continue;
    const name = raw.slice(prefix.length);
    const value = part.slice(at + 1).trim();
    if (name && !(name in cookies)) cookies[name] = value;
  }
  return cookies;
}

export interface CookieOptions {
  path: string;
  /** Seconds; 0 deletes the cookie. Without it the cookie lasts the browser session. */
  maxAge?: number;
  /** Outside the local stack (https only). */
  secure: boolean;
  /** Put before the name: `__Host-` outside the local stack. */
  prefix?: string;
}

/** Always HttpOnly and SameSite=Strict: no script reads it and no other site's request carries it. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${options.prefix ?? ''}${name}=${value}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The dashboard's cookies. Here, not in session.ts, so that pages without a session (the guest booking pages) do not load the token verifier. */
export const COOKIE = {
  id: 'dashboard_id',
  refresh: 'dashboard_refresh',
  /** The session's access token, for Cognito's calls on the operator's own account (the Security page). */
  access: 'dashboard_access',
  flash: 'dashboard_notice',
  /** A recent password confirmation (shared/dashboard/reauthentication.tsx). */
  reauth: 'dashboard_reauth',
  /**
   * Between a password accepted and a second factor set up, for an operator who must have one
   * (shared/dashboard/pages/session.tsx): that sign-in's access token, which opens no page.
   */
  mfaSetup: 'dashboard_mfa_setup',
  /**
   * The authenticator set-up page as it was shown (its e-mail, key and pending challenge): shown
   * again, with the same key, on a reload or on going back to it.
   */
  mfaSetupPage: 'dashboard_mfa_setup_page',
} as const;

export interface CookieScope {
  /** Locally the dashboard's path (`/dashboard`); outside the local stack `/`, as `__Host-` requires. */
  path: string;
  secure: boolean;
  /** `__Host-` outside the local stack, else none. */
  prefix: string;
}

/**
 * The scope of the dashboard's cookies: on the local stack (http) the dashboard's path under
 * `basePath`, unprefixed; on a deployed stage (https) `__Host-` cookies of the whole host.
 */
export function cookieScope(basePath: string, local: boolean): CookieScope {
  return local ? { path: `${basePath}/dashboard`, secure: false, prefix: '' } : { path: '/', secure: true, prefix: HOST_PREFIX };
}

export const scopedCookieOptions = (scope: CookieScope, maxAge?: number): CookieOptions => ({
  path: scope.path,
  secure: scope.secure,
  prefix: scope.prefix,
  maxAge,
});

export function clearedSessionCookies(scope: CookieScope): string[] {
  return [COOKIE.id, COOKIE.access, COOKIE.refresh].map((name) => serializeCookie(name, '', scopedCookieOptions(scope, 0)));
}
