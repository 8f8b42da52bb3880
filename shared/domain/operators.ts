/**
 * Operator use cases: the hotel staff who sign in to the dashboard, each of one client with a
 * role. The ops CLI creates, lists and removes them; the dashboard signs them in (password, then
 * the challenges Cognito sets: a new password, a TOTP code, setting TOTP up), refreshes and signs
 * out, and lets an operator turn TOTP on. Passwords, codes, secrets and tokens pass through,
 * never into a log or an error message.
 */
import { randomInt } from 'node:crypto';
import { isOperatorRole, MFA_SETTINGS, type MfaSetting, type OperatorRole, userPoolDefinition } from '../../definitions/user-pool';
import { errors } from '../errors';
import { createOperatorUser, deleteOperatorUser, listOperatorUsers, OperatorExistsError, OperatorNotFoundError } from '../store/operator-directory';
import {
  associateSoftwareToken,
  groupsOfIssuedToken,
  IncorrectCodeError,
  initiatePasswordAuth,
  type OperatorTokens,
  preferSoftwareToken,
  refreshTokens,
  respondToChallenge,
  revokeRefreshToken,
  type SignInContext,
  type SignInResult,
  softwareTokenEnabled,
  type TotpCredential,
  registerTotpDevice,
  usernameOfIssuedToken,
} from '../store/operator-sign-in';
import { clearPendingTotpSecret, getPendingTotpSecret, putPendingTotpSecret } from '../store/totp-setup-store';
import { openWithPassword, sealWithPassword } from '../secrets/password-sealing';
import { requireClient } from './clients';

export { IncorrectCodeError, SignInRefusedError } from '../store/operator-sign-in';
export type { OperatorTokens, SignInContext, TotpCredential };

export interface NewOperator {
  clientId: string;
  email: string;
  role: string;
  /** A permanent password; without one a temporary password is made, to change at first sign-in. */
  password?: string;
  /** `required`: the operator cannot use the dashboard without a second factor (TOTP). @default optional */
  mfa?: string;
}

export interface CreatedOperator {
  email: string;
  role: OperatorRole;
  /** Only when a second factor is compulsory. */
  mfa?: 'required';
  /** Only when no password was given: shown once to hand over. */
  temporary_password?: string;
}

/**
 * Where a sign-in stands: signed in, or the step the operator takes next. `username` is the
 * operator's username in the pool, which the next step's answer names; `session` Cognito's.
 */
export type SignInStep =
  | { kind: 'signed_in'; tokens: OperatorTokens }
  | { kind: 'new_password_required'; session: string; username: string }
  /** Cognito's SOFTWARE_TOKEN_MFA: a code from the operator's authenticator app. */
  | { kind: 'code_required'; session: string; username: string }
  /** Cognito's MFA_SETUP: TOTP to set up before the sign-in completes. */
  | { kind: 'mfa_setup'; session: string; username: string }
  /**
   * The password was enough for Cognito (MFA is optional in the pool), but this operator must
   * have a second factor and has none: TOTP is set up with this sign-in's access token, which
   * opens nothing else, and the operator then signs in with a code.
   */
  | { kind: 'mfa_setup_required'; accessToken: string };

/** What an authenticator app is shown: the secret, and the otpauth:// URI its QR code carries. */
export interface TotpSetup {
  secret: string;
  otpauthUri: string;
  /** With a sign-in's session: the session to verify the first code with. */
  session?: string;
}

/** The name authenticator apps show next to the operator's e-mail. */
export const TOTP_ISSUER = 'Hotel dashboard';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The stack's password policy, checked here too: cognito-local does not check it. */
export function passwordProblem(password: string): string | undefined {
  const p = userPoolDefinition.passwordPolicy;
  if (password.length < p.minLength) return `at least ${p.minLength} characters`;
  if (p.requireLowercase && !/[a-z]/.test(password)) return 'a lowercase letter';
  if (p.requireUppercase && !/[A-Z]/.test(password)) return 'an uppercase letter';
  if (p.requireDigits && !/\d/.test(password)) return 'a digit';
  if (p.requireSymbols && !/[^A-Za-z0-9]/.test(password)) return 'a symbol';
  return undefined;
}

/** A random password meeting the policy: 16 characters, one of each required kind. */
export function generatePassword(): string {
  const sets = ['abcdefghijkmnpqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '!#%+-=?@^_'];
  const all = sets.join('');
  const chars = [...sets.map((set) => set[randomInt(set.length)]!), ...Array.from({ length: 12 }, () => all[randomInt(all.length)]!)];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

export async function createOperator(input: NewOperator): Promise<CreatedOperator> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw errors.notAnEmail(input.email);
  if (!isOperatorRole(input.role)) throw errors.unknownRole(input.role);
  const mfa = input.mfa ?? 'optional';
  if (!MFA_SETTINGS.includes(mfa as MfaSetting)) throw errors.unknownMfaSetting(mfa, MFA_SETTINGS);
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw errors.weakPassword(problem);
  }
  await requireClient(input.clientId);
  const password = input.password ?? generatePassword();
  try {
    await createOperatorUser({ email, clientId: input.clientId, role: input.role, password, permanent: input.password !== undefined, mfaRequired: mfa === 'required' });
  } catch (error) {
    // A code of the API's catalogue (shared/openapi): an e-mail in use is a value the pool refuses.
    if (error instanceof OperatorExistsError) throw errors.operatorExists(email);
    throw error;
  }
  return {
    email,
    role: input.role,
    ...(mfa === 'required' ? { mfa } : {}),
    ...(input.password === undefined ? { temporary_password: password } : {}),
  };
}

export async function listOperators(clientId: string) {
  await requireClient(clientId);
  return (await listOperatorUsers(clientId)).map((o) => ({
    email: o.email,
    role: o.role,
    mfa: (o.mfaRequired ? 'required' : 'optional') as MfaSetting,
    status: o.status,
    enabled: o.enabled,
    created_at: o.createdAt,
  }));
}

export async function removeOperator(email: string): Promise<{ email: string }> {
  const normalized = email.trim().toLowerCase();
  try {
    await deleteOperatorUser(normalized);
  } catch (error) {
    if (error instanceof OperatorNotFoundError) throw errors.operatorNotFound(normalized);
    throw error;
  }
  return { email: normalized };
}

/**
 * Cognito's answer as the operator's next step. Tokens for a password alone (no challenge: the
 * operator has no TOTP) are held back from an operator of the mfa-required group.
 */
async function nextStep(result: SignInResult): Promise<SignInStep> {
  if (result.kind === 'challenge') {
    const { session, username } = result;
    if (result.challenge === 'NEW_PASSWORD_REQUIRED') return { kind: 'new_password_required', session, username };
    if (result.challenge === 'SOFTWARE_TOKEN_MFA') return { kind: 'code_required', session, username };
    return { kind: 'mfa_setup', session, username };
  }
  const { accessToken } = result.tokens;
  if (groupsOfIssuedToken(accessToken).includes(userPoolDefinition.mfaRequiredGroup) && !(await softwareTokenEnabled(accessToken))) {
    return { kind: 'mfa_setup_required', accessToken };
  }
  return result;
}

/** E-mail and password to tokens, or the next step; else SignInRefusedError. */
export async function signIn(email: string, password: string, context: SignInContext = {}): Promise<SignInStep> {
  return nextStep(await initiatePasswordAuth(email.trim().toLowerCase(), password, context));
}

/** Sets the permanent password after a temporary one (the policy checked first), then the next step. */
export async function completeNewPassword(username: string, session: string, newPassword: string, context: SignInContext = {}): Promise<SignInStep> {
  const problem = passwordProblem(newPassword);
  if (problem) throw errors.weakPassword(problem);
  return nextStep(await respondToChallenge('NEW_PASSWORD_REQUIRED', { session, username, responses: { NEW_PASSWORD: newPassword } }, context));
}

/** The code of SOFTWARE_TOKEN_MFA. A wrong code: IncorrectCodeError; an expired session: SignInRefusedError. */
export async function submitSignInCode(username: string, session: string, code: string, context: SignInContext = {}): Promise<SignInStep> {
  if (!/^\d{6}$/.test(code)) throw new IncorrectCodeError();
  return nextStep(await respondToChallenge('SOFTWARE_TOKEN_MFA', { session, username, responses: { SOFTWARE_TOKEN_MFA_CODE: code } }, context));
}

/** A new TOTP secret for the operator's authenticator app (AssociateSoftwareToken), with its otpauth:// URI. */
export async function startTotpSetup(credential: TotpCredential, email: string): Promise<TotpSetup> {
  const { secret, session } = await associateSoftwareToken(credential);
  return { secret, session, otpauthUri: totpUri(secret, email) };
}

/** How long the key of a set-up under way at sign-in is shown again when the operator signs in again. */
export const PENDING_SETUP_HOURS = 24;

/**
 * The key for an operator who must set an authenticator app up at sign-in (with the sign-in's
 * access token and the password it was given): while a set-up is under way, the key already shown
 * (signing in again keeps it, so an app already scanned works); else a new one from Cognito, kept
 * for PENDING_SETUP_HOURS sealed under that password (a key sealed under an older password does
 * not open: a new one replaces it). Without the password, a new key, not kept.
 */
export async function startRequiredTotpSetup(accessToken: string, email: string, password: string | undefined, now = new Date()): Promise<TotpSetup> {
  const username = usernameOfIssuedToken(accessToken);
  const kept = password ? await getPendingTotpSecret(username, now) : undefined;
  const opened = kept && password ? await openWithPassword(kept, password, username) : undefined;
  if (opened) return { secret: opened, otpauthUri: totpUri(opened, email) };
  const setup = await startTotpSetup({ accessToken }, email);
  if (password) await putPendingTotpSecret(username, await sealWithPassword(setup.secret, password, username), new Date(now.getTime() + PENDING_SETUP_HOURS * 3_600_000));
  return setup;
}

/** The first code of a set-up at sign-in (startRequiredTotpSetup): TOTP on (enableTotp), the kept key let go. */
export async function completeRequiredTotpSetup(accessToken: string, code: string, now = new Date()): Promise<void> {
  await enableTotp(accessToken, code);
  await clearPendingTotpSecret(usernameOfIssuedToken(accessToken), now);
}

/**
 * Cognito's MFA_SETUP, completed: the first code verified with the sign-in's session
 * (VerifySoftwareToken), the challenge answered with the session that returns
 * (RespondToAuthChallenge MFA_SETUP), and TOTP made the operator's preferred factor.
 */
export async function completeMfaSetup(username: string, session: string, code: string, context: SignInContext = {}): Promise<SignInStep> {
  if (!/^\d{6}$/.test(code)) throw new IncorrectCodeError();
  const verified = await registerTotpDevice({ session }, code);
  const step = await nextStep(await respondToChallenge('MFA_SETUP', { session: verified.session ?? session, username }, context));
  if (step.kind === 'signed_in') await preferSoftwareToken(step.tokens.accessToken);
  return step;
}

/**
 * TOTP turned on for a signed-in operator (the Security page), or for one who must have it at
 * sign-in: the first code verified with the access token, then TOTP on and preferred, so that
 * Cognito asks for a code at every sign-in from now on.
 */
export async function enableTotp(accessToken: string, code: string): Promise<void> {
  if (!/^\d{6}$/.test(code)) throw new IncorrectCodeError();
  await registerTotpDevice({ accessToken }, code);
  await preferSoftwareToken(accessToken);
}

/** Whether the operator of an access token has TOTP on, and whether they must. */
export async function totpStatus(accessToken: string): Promise<{ enabled: boolean; required: boolean }> {
  return {
    enabled: await softwareTokenEnabled(accessToken),
    required: groupsOfIssuedToken(accessToken).includes(userPoolDefinition.mfaRequiredGroup),
  };
}

/** The URI of RFC 6238 apps (Google Authenticator's Key Uri Format): SHA-1, 6 digits, 30 s, as Cognito's TOTP. */
export function totpUri(secret: string, email: string): string {
  const label = `${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(email)}`;
  return `otpauth://totp/${label}?secret=${encodeURIComponent(secret)}&issuer=${encodeURIComponent(TOTP_ISSUER)}`;
}

/**
 * New ID and access tokens; a revoked or unknown refresh token: SignInRefusedError. `username`:
 * the operator's username in the pool (their ID token's `cognito:username`), for the SECRET_HASH.
 */
export function refresh(refreshToken: string, username?: string): Promise<OperatorTokens> {
  return refreshTokens(refreshToken, username);
}

/** Revokes the refresh token (and the tokens issued with it, on Cognito). */
export function signOut(refreshToken: string): Promise<void> {
  return revokeRefreshToken(refreshToken);
}
