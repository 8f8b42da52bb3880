/**
 * The operator's session: Cognito tokens in HttpOnly, SameSite=Strict cookies (Secure outside the
 * local stack), the ID token verified on every request with aws-jwt-verify
 * (shared/auth/operator-tokens.ts) and renewed with the refresh token when it has expired. The
 * tenant is the client the verified token names, never anything in the request.
 */
import { InvalidOperatorTokenError, type Operator, operatorFromToken } from '../auth/operator-tokens';
import { refresh, SignInRefusedError, type OperatorTokens } from '../domain/operators';
import { userPoolDefinition } from '../../infra/user-pool-definition';
import { COOKIE, type CookieScope, clearedSessionCookies, scopedCookieOptions as options, serializeCookie } from './cookies';

export { COOKIE, type CookieScope, clearedSessionCookies };

const REFRESH_MAX_AGE = userPoolDefinition.appClient.refreshTokenValidityDays * 24 * 60 * 60;

/** The cookies of a fresh sign-in or a refresh (which keeps the refresh token it had). */
export function sessionCookies(tokens: OperatorTokens, scope: CookieScope): string[] {
  const cookies = [serializeCookie(COOKIE.id, tokens.idToken, options(scope, REFRESH_MAX_AGE))];
  if (tokens.refreshToken) cookies.push(serializeCookie(COOKIE.refresh, tokens.refreshToken, options(scope, REFRESH_MAX_AGE)));
  return cookies;
}

export interface Session {
  operator: Operator;
  /** Set-Cookie values to send back (a refreshed ID token). */
  setCookies: string[];
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
  const refreshToken = cookies[COOKIE.refresh];
  if (!refreshToken) return undefined;
  let tokens: OperatorTokens;
  try {
    tokens = await refresh(refreshToken);
  } catch (error) {
    if (error instanceof SignInRefusedError) return undefined;
    throw error;
  }
  try {
    return { operator: await operatorFromToken(tokens.idToken), setCookies: sessionCookies({ ...tokens, refreshToken: undefined }, scope) };
  } catch (error) {
    if (error instanceof InvalidOperatorTokenError) return undefined;
    throw error;
  }
}
