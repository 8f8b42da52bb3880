/**
 * Operator use cases: the hotel staff who sign in to the dashboard, each of one client with a
 * role. The ops CLI creates, lists and removes them; the dashboard signs them in, refreshes and
 * signs out. Passwords and tokens pass through, never into a log or an error message.
 */
import { randomInt } from 'node:crypto';
import { isOperatorRole, type OperatorRole, userPoolDefinition } from '../../infra/user-pool-definition';
import { AppError } from '../errors';
import {
  createOperatorUser,
  deleteOperatorUser,
  initiatePasswordAuth,
  listOperatorUsers,
  OperatorExistsError,
  OperatorNotFoundError,
  type OperatorTokens,
  refreshTokens,
  respondNewPassword,
  revokeRefreshToken,
  type SignInResult,
} from '../store/operator-directory';
import { requireClient } from './clients';

export { SignInRefusedError } from '../store/operator-directory';
export type { OperatorTokens, SignInResult };

export interface NewOperator {
  clientId: string;
  email: string;
  role: string;
  /** A permanent password; without one a temporary password is made, to change at first sign-in. */
  password?: string;
}

export interface CreatedOperator {
  email: string;
  role: OperatorRole;
  /** Only when no password was given: shown once to hand over. */
  temporary_password?: string;
}

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
  if (!EMAIL.test(email)) throw new AppError(400, 'VALIDATION_ERROR', `Not an e-mail address: ${input.email}`);
  if (!isOperatorRole(input.role)) throw new AppError(400, 'VALIDATION_ERROR', `Unknown role ${input.role} (known: admin, staff)`);
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw new AppError(400, 'VALIDATION_ERROR', `The password needs ${problem}`);
  }
  await requireClient(input.clientId);
  const password = input.password ?? generatePassword();
  try {
    await createOperatorUser({ email, clientId: input.clientId, role: input.role, password, permanent: input.password !== undefined });
  } catch (error) {
    // A code of the API's catalogue (shared/openapi): an e-mail in use is a value the pool refuses.
    if (error instanceof OperatorExistsError) throw new AppError(400, 'VALIDATION_ERROR', `An operator ${email} exists`);
    throw error;
  }
  return { email, role: input.role, ...(input.password === undefined ? { temporary_password: password } : {}) };
}

export async function listOperators(clientId: string) {
  await requireClient(clientId);
  return (await listOperatorUsers(clientId)).map((o) => ({ email: o.email, role: o.role, status: o.status, enabled: o.enabled, created_at: o.createdAt }));
}

export async function removeOperator(email: string): Promise<{ email: string }> {
  const normalized = email.trim().toLowerCase();
  try {
    await deleteOperatorUser(normalized);
  } catch (error) {
    if (error instanceof OperatorNotFoundError) throw new AppError(404, 'NOT_FOUND', `No operator ${normalized}`);
    throw error;
  }
  return { email: normalized };
}

/** E-mail and password to tokens, or the new-password step of a temporary password; else SignInRefusedError. */
export function signIn(email: string, password: string): Promise<SignInResult> {
  return initiatePasswordAuth(email.trim().toLowerCase(), password);
}

/** Sets the permanent password after a temporary one; the new password must meet the policy. */
export async function completeNewPassword(email: string, session: string, newPassword: string): Promise<OperatorTokens> {
  const problem = passwordProblem(newPassword);
  if (problem) throw new AppError(400, 'VALIDATION_ERROR', `The password needs ${problem}`);
  return respondNewPassword(email.trim().toLowerCase(), session, newPassword);
}

/** New ID and access tokens; a revoked or unknown refresh token: SignInRefusedError. */
export function refresh(refreshToken: string): Promise<OperatorTokens> {
  return refreshTokens(refreshToken);
}

/** Revokes the refresh token (and the tokens issued with it, on Cognito). */
export function signOut(refreshToken: string): Promise<void> {
  return revokeRefreshToken(refreshToken);
}
