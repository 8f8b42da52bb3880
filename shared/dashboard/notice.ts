/**
 * The one-time notice of POST-redirect-GET: an action answers with a redirect and this cookie;
 * the page it leads to shows the notice and deletes the cookie, so a reload shows it no more.
 * A key or secret shown once travels here (HttpOnly, SameSite=Strict, a minute at most, the
 * dashboard's cookie scope only), never in a URL, a log or the table.
 */
import { COOKIE, type CookieScope, scopedCookieOptions, serializeCookie } from './cookies';

export interface Notice {
  kind: 'success' | 'error';
  message: string;
  /** A secret to show once: a new key, a rotated signing secret. */
  secret?: { label: string; value: string };
}

const NOTICE_MAX_AGE_SECONDS = 60;

export function noticeCookie(notice: Notice, scope: CookieScope): string {
  const value = Buffer.from(JSON.stringify(notice), 'utf8').toString('base64url');
  return serializeCookie(COOKIE.flash, value, scopedCookieOptions(scope, NOTICE_MAX_AGE_SECONDS));
}

export function clearedNoticeCookie(scope: CookieScope): string {
  return serializeCookie(COOKIE.flash, '', scopedCookieOptions(scope, 0));
}

export function readNotice(value: string | undefined): Notice | undefined {
  if (!value) return undefined;
  try {
    const notice = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Notice>;
    if ((notice.kind !== 'success' && notice.kind !== 'error') || typeof notice.message !== 'string') return undefined;
    const secret =
      notice.secret && typeof notice.secret.label === 'string' && typeof notice.secret.value === 'string' ? { label: notice.secret.label, value: notice.secret.value } : undefined;
    return { kind: notice.kind, message: notice.message, ...(secret ? { secret } : {}) };
  } catch {
    return undefined;
  }
}
