/**
 * The operator's session: Cognito tokens in HttpOnly, SameSite=Strict cookies (Secure outside the
 * local stack), the ID token verified on every request with aws-jwt-verify
 * (shared/auth/operator-tokens.ts) and renewed with the refresh token when it has expired. The
 * tenant is the client the verified token names, never anything in the request.
 */
import { decomposeUnverifiedJwt } from 'aws-jwt-verify/jwt';
import { InvalidOperatorTokenError, type Operator, operatorFromToken } from '../auth/operator-tokens';
import { refresh, SignInRefusedError, type OperatorTokens } from '../domain/operators';
import { userPoolDefinition } from '../../definitions/user-pool';
import { COOKIE, type CookieScope, clearedSessionCookies, scopedCookieOptions as options, serializeCookie } from './cookies';

export { COOKIE, type CookieScope, clearedSessionCookies };

const REFRESH_MAX_AGE = userPoolDefinition.appClient.refreshTokenValidityDays * 24 * 60 * 60;
const ACCESS_MAX_AGE = userPoolDefinition.appClient.accessTokenValidityMinutes * 60;

/** The cookies of a fresh sign-in or a refresh (which keeps the refresh token it had). */
export function sessionCookies(tokens: OperatorTokens, scope: CookieScope): string[] {
  const cookies = [
    serializeCookie(COOKIE.id, tokens.idToken, options(scope, REFRESH_MAX_AGE)),
    // As long as the token lasts: then the refresh token gives another.
    serializeCookie(COOKIE.access, tokens.accessToken, options(scope, ACCESS_MAX_AGE)),
  ];
  if (tokens.refreshToken) cookies.push(serializeCookie(COOKIE.refresh, tokens.refreshToken, options(scope, REFRESH_MAX_AGE)));
  return cookies;
}

export interface Session {
  operator: Operator;
  /** Set-Cookie values to send back (a refreshed ID token). */
  setCookies: string[];
}

/** A claim of a token, verified or not (the callers say why that is enough). */
function claimOf(token: string | undefined, claim: string): unknown {
  if (!token) return undefined;
  try {
    return decomposeUnverifiedJwt(token).payload[claim];
  } catch {
    return undefined;
  }
}

/**
 * The username in the pool (`cognito:username`) an ID token names, verified or not: a refresh
 * names it in its SECRET_HASH, and Cognito itself checks the refresh token it goes with.
 */
function usernameOf(idToken: string | undefined): string | undefined {
  const username = claimOf(idToken, 'cognito:username');
  return typeof username === 'string' ? username : undefined;
}

/** Fresh tokens from the session's refresh token, or undefined when it renews nothing. */
async function refreshed(cookies: Record<string, string>): Promise<OperatorTokens | undefined> {
  const refreshToken = cookies[COOKIE.refresh];
  if (!refreshToken) return undefined;
  try {
    return await refresh(refreshToken, usernameOf(cookies[COOKIE.id]));
  } catch (error) {
    if (error instanceof SignInRefusedError) return undefined;
    throw error;
  }
}

/**
 * An access token of the signed-in operator's session, for Cognito's calls on their own account
 * (the Security page): the session's own while it has a minute left and names the user of the
 * session's ID token (Cognito checks the rest: it is worth nothing once the session is revoked),
 * else a new one from the refresh token.
 */
export async function accessTokenOf(cookies: Record<string, string>, now: Date): Promise<string | undefined> {
  const kept = cookies[COOKIE.access];
  const expires = claimOf(kept, 'exp');
  const sameUser = claimOf(kept, 'sub') !== undefined && claimOf(kept, 'sub') === claimOf(cookies[COOKIE.id], 'sub');
  if (kept && sameUser && typeof expires === 'number' && expires * 1000 > now.getTime() + 60_000) return kept;
  return (await refreshed(cookies))?.accessToken;
}

/**
 * The operator of the request, or undefined (no session, a token that does not verify and no
 * refresh token that renews it, a revoked refresh token).
 */
export async function sessionOf(cookies: Record<string, string>, scope: CookieScope): Promise<Session | undefined> {
  const idToken = cookies[COOKIE.id];
  if (idToken) {
    try {
      return { operator: await operatorFromToken(idToken), setCookies: [] };
    } catch (error) {
      if (!(error instanceof InvalidOperatorTokenError)) throw error;
    }
  }
  const tokens = await refreshed(cookies);
  if (!tokens) return undefined;
  try {
    return { operator: await operatorFromToken(tokens.idToken), setCookies: sessionCookies({ ...tokens, refreshToken: undefined }, scope) };
  } catch (error) {
    if (error instanceof InvalidOperatorTokenError) return undefined;
    throw error;
  }
}
