/** Reading the Cookie header and writing Set-Cookie values (RFC 6265), for the dashboard's session. */

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (!(name in cookies)) cookies[name] = value;
  }
  return cookies;
}

export interface CookieOptions {
  path: string;
  /** Seconds; 0 deletes the cookie. Without it the cookie lasts the browser session. */
  maxAge?: number;
  /** Outside the local stack (https only). */
  secure: boolean;
}

/** Always HttpOnly and SameSite=Strict: no script reads it and no other site's request carries it. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The dashboard's cookies. Here, not in session.ts, so that pages without a session (the guest booking pages) do not load the token verifier. */
export const COOKIE = { id: 'dashboard_id', refresh: 'dashboard_refresh', flash: 'dashboard_notice' } as const;

export interface CookieScope {
  /** The dashboard's path under the stage: `/dashboard` locally, `/{stage}/dashboard` on API Gateway. */
  path: string;
  secure: boolean;
}

export const scopedCookieOptions = (scope: CookieScope, maxAge?: number): CookieOptions => ({ path: scope.path, secure: scope.secure, maxAge });

export function clearedSessionCookies(scope: CookieScope): string[] {
  return [serializeCookie(COOKIE.id, '', scopedCookieOptions(scope, 0)), serializeCookie(COOKIE.refresh, '', scopedCookieOptions(scope, 0))];
}
