/**
 * Asking a signed-in operator for their password again before an action that routes money or
 * data elsewhere (docs/behaviour.md "Payment safety in deployed stages"): another provider account, a
 * payment key, a callback or webhook URL. A confirmation counts for REAUTH_MAX_AGE_SECONDS.
 *
 * The confirmation is a random token handed to the browser (an HttpOnly cookie, by the dashboard)
 * and an item under its SHA-256 naming the operator and the time: no signing key to keep, the
 * token is worth nothing to another operator, and it cannot be made to look younger than it is.
 */
import { createHash, randomBytes } from 'node:crypto';
import { passwordAccepted, type SignInContext } from '../store/operator-sign-in';
import { getReauth, putReauth } from '../store/reauth-store';

export const REAUTH_MAX_AGE_SECONDS = 5 * 60;

export interface ReauthOperator {
  email: string;
  client_id: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks the operator's password with Cognito (USER_PASSWORD_AUTH, by the e-mail of their
 * verified token, never one from a form), with the operator's address for Cognito's threat
 * protection. Accepted: a new confirmation's token; refused: undefined.
 */
export async function confirmPassword(operator: ReauthOperator, password: string, now: Date, context: SignInContext = {}): Promise<string | undefined> {
  if (!password || !(await passwordAccepted(operator.email, password, context))) return undefined;
  const token = randomBytes(32).toString('base64url');
  await putReauth(
    operator.client_id,
    hashOf(token),
    { operator: operator.email, confirmed_at: now.toISOString() },
    new Date(now.getTime() + REAUTH_MAX_AGE_SECONDS * 1000),
  );
  return token;
}

/** Whether `token` is this operator's confirmation of at most REAUTH_MAX_AGE_SECONDS ago. */
export async function recentlyConfirmed(operator: ReauthOperator, token: string | undefined, now: Date): Promise<boolean> {
  if (!token || !TOKEN.test(token)) return false;
  const record = await getReauth(operator.client_id, hashOf(token));
  if (!record || record.operator !== operator.email) return false;
  // No lower bound: the clocks of two function instances may differ by a little.
  return now.getTime() - Date.parse(record.confirmed_at) <= REAUTH_MAX_AGE_SECONDS * 1000;
}
