/**
 * Two-step verification turned on by the signed-in operator for themself (the dashboard's
 * Security page), and its audit entry. The operator CLI has no such action: it sets an operator's
 * MFA when creating them (`ops operators create --mfa`), unaudited.
 */
import { enableTotp } from '../operators';
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
