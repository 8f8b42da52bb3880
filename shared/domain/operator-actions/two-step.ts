/**
 * Two-step verification turned on by the signed-in operator for themself (the dashboard's
 * Security page), and its audit entry. The operator CLI has no such action: it sets an operator's
 * MFA when creating them (`ops operators create --mfa`), unaudited.
 */
import type { SignInContext } from '../../store/operator-sign-in';
import { enableTotp, IncorrectCodeError, signIn, SignInRefusedError, submitSignInCode } from '../operators';
import { type Actor, recordAction } from './actor';

/**
 * Verifies the first code of the operator's authenticator app with their access token and turns
 * TOTP on (enableTotp's refusals: IncorrectCodeError, SignInRefusedError), then records
 * `operator.totp_on` about the operator.
 */
export async function turnOnTwoStep(actor: Actor, accessToken: string, code: string, now = new Date()): Promise<void> {
  await enableTotp(accessToken, code);
  await recordAction(actor, { action: 'operator.totp_on', target: actor.email, changes: { totp: true } }, now);
}

/**
 * Before an operator replaces their authenticator app: their password and a code of the app they
 * have now, checked by Cognito as a sign-in does (USER_PASSWORD_AUTH, then SOFTWARE_TOKEN_MFA), by
 * the e-mail of their verified token. The tokens of that check are dropped, as a password
 * confirmation's are (operator-sign-in.ts passwordAccepted): it opens no session of the dashboard.
 * `incorrect_password`, `incorrect_code`, or `confirmed`.
 */
export async function confirmPasswordAndCode(
  email: string,
  password: string,
  code: string,
  context: SignInContext = {},
): Promise<'confirmed' | 'incorrect_password' | 'incorrect_code'> {
  if (!password) return 'incorrect_password';
  let step;
  try {
    step = await signIn(email, password, context);
  } catch (error) {
    if (error instanceof SignInRefusedError) return 'incorrect_password';
    throw error;
  }
  if (step.kind !== 'code_required') return 'incorrect_code';
  try {
    await submitSignInCode(step.username, step.session, code.trim(), context);
    return 'confirmed';
  } catch (error) {
    if (error instanceof IncorrectCodeError || error instanceof SignInRefusedError) return 'incorrect_code';
    throw error;
  }
}
