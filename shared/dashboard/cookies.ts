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
