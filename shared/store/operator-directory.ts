/**
 * The operators' user pool (Cognito; cognito-local on the local stack): the one module that
 * speaks the Cognito API. Sign-in failures of every shape come out as one error, so that a page
 * cannot tell (or tell an attacker) whether the e-mail exists.
 *
 * The SDK is imported on first use: a dashboard page loads it only when it signs an operator in
 * or out or refreshes a session, not on every cold start.
 */
import type { AttributeType, AuthenticationResultType, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { userPool } from '../config';
import { operatorAttributes, type OperatorRole } from '../../infra/user-pool-definition';

export interface OperatorRecord {
  email: string;
  clientId: string;
  role: string;
  status: string;
  enabled: boolean;
  createdAt?: string;
}

export interface OperatorTokens {
  idToken: string;
  accessToken: string;
  /** Absent after a refresh: the refresh token stays the same. */
  refreshToken?: string;
}

export type SignInResult = { kind: 'signed_in'; tokens: OperatorTokens } | { kind: 'new_password_required'; session: string };

/** Wrong e-mail, wrong password, disabled user, reused or revoked refresh token: one answer. */
export class SignInRefusedError extends Error {
  override name = 'SignInRefusedError';
  constructor() {
    super('Incorrect email or password');
  }
}

export class OperatorExistsError extends Error {
  override name = 'OperatorExistsError';
}

export class OperatorNotFoundError extends Error {
  override name = 'OperatorNotFoundError';
}

type CognitoSdk = typeof import('@aws-sdk/client-cognito-identity-provider');

let sdkImport: Promise<CognitoSdk> | undefined;
let client: CognitoIdentityProviderClient | undefined;

/** The SDK and the client, both made on first use; the pool's settings are read on every call. */
async function cognito(): Promise<{ api: CognitoIdentityProviderClient; sdk: CognitoSdk }> {
  const pool = userPool();
  // A failed import is not kept: the next call tries again.
  const loaded = await (sdkImport ??= import('@aws-sdk/client-cognito-identity-provider').catch((error: unknown) => {
    sdkImport = undefined;
    throw error;
  }));
  client ??= new loaded.CognitoIdentityProviderClient({
    region: pool.region,
    ...(pool.endpoint ? { endpoint: pool.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    // cognito-local answers what it does not support with HTTP 500: no point retrying.
    maxAttempts: pool.endpoint ? 1 : 3,
  });
  return { api: client, sdk: loaded };
}

const custom = (name: string) => `custom:${name}`;
const attribute = (attributes: AttributeType[] | undefined, name: string) => attributes?.find((a) => a.Name === name)?.Value ?? '';

/** Errors Cognito and cognito-local give for a refused sign-in (cognito-local: InvalidPasswordException for a wrong password). */
const REFUSED = new Set(['NotAuthorizedException', 'UserNotFoundException', 'InvalidPasswordException', 'UserNotConfirmedException', 'PasswordResetRequiredException']);

async function refusingSignIn<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (REFUSED.has((error as Error).name)) throw new SignInRefusedError();
    throw error;
  }
}

function tokensOf(result: AuthenticationResultType | undefined): OperatorTokens {
  if (!result?.IdToken || !result.AccessToken) throw new Error('Cognito answered without tokens');
  return { idToken: result.IdToken, accessToken: result.AccessToken, refreshToken: result.RefreshToken };
}

export async function createOperatorUser(input: {
  email: string;
  clientId: string;
  role: OperatorRole;
  password: string;
  permanent: boolean;
}): Promise<void> {
  const { userPoolId } = userPool();
  try {
    const { api, sdk } = await cognito();
    await api.send(
      new sdk.AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: input.email,
        // The CLI hands the password over itself: no invitation e-mail.
        MessageAction: 'SUPPRESS',
        TemporaryPassword: input.permanent ? undefined : input.password,
        UserAttributes: [
          { Name: 'email', Value: input.email },
          { Name: 'email_verified', Value: 'true' },
          { Name: custom(operatorAttributes.clientId.name), Value: input.clientId },
          { Name: custom(operatorAttributes.role.name), Value: input.role },
        ],
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'UsernameExistsException') throw new OperatorExistsError(`an operator ${input.email} exists`);
    throw error;
  }
  if (input.permanent) {
    const { api, sdk } = await cognito();
    await api.send(
      new sdk.AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: input.email, Password: input.password, Permanent: true }),
    );
  }
}

/** Every operator of a client. Cognito cannot filter on custom attributes: pages through the pool. */
export async function listOperatorUsers(clientId: string): Promise<OperatorRecord[]> {
  const { userPoolId } = userPool();
  const operators: OperatorRecord[] = [];
  let token: string | undefined;
  do {
    const { api, sdk } = await cognito();
    const page = await api.send(new sdk.ListUsersCommand({ UserPoolId: userPoolId, PaginationToken: token, Limit: 60 }));
    for (const user of page.Users ?? []) {
      if (attribute(user.Attributes, custom(operatorAttributes.clientId.name)) !== clientId) continue;
      operators.push({
        email: attribute(user.Attributes, 'email'),
        clientId,
        role: attribute(user.Attributes, custom(operatorAttributes.role.name)),
        status: user.UserStatus ?? 'UNKNOWN',
        enabled: user.Enabled ?? true,
        createdAt: user.UserCreateDate?.toISOString(),
      });
    }
    token = page.PaginationToken;
  } while (token);
  return operators.sort((a, b) => a.email.localeCompare(b.email));
}

export async function deleteOperatorUser(email: string): Promise<void> {
  try {
    const { api, sdk } = await cognito();
    await api.send(new sdk.AdminDeleteUserCommand({ UserPoolId: userPool().userPoolId, Username: email }));
  } catch (error) {
    if ((error as Error).name === 'UserNotFoundException') throw new OperatorNotFoundError(`no operator ${email}`);
    throw error;
  }
}

export async function initiatePasswordAuth(email: string, password: string): Promise<SignInResult> {
  const result = await refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(
      new sdk.InitiateAuthCommand({
        ClientId: userPool().clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
  });
  if (result.ChallengeName === 'NEW_PASSWORD_REQUIRED' && result.Session) return { kind: 'new_password_required', session: result.Session };
  if (result.ChallengeName) throw new Error(`unsupported sign-in challenge ${result.ChallengeName}`);
  return { kind: 'signed_in', tokens: tokensOf(result.AuthenticationResult) };
}

export async function respondNewPassword(email: string, session: string, newPassword: string): Promise<OperatorTokens> {
  const result = await refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(
      new sdk.RespondToAuthChallengeCommand({
        ClientId: userPool().clientId,
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: session,
        ChallengeResponses: { USERNAME: email, NEW_PASSWORD: newPassword },
      }),
    );
  });
  return tokensOf(result.AuthenticationResult);
}

export async function refreshTokens(refreshToken: string): Promise<OperatorTokens> {
  const result = await refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(
      new sdk.InitiateAuthCommand({ ClientId: userPool().clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: refreshToken } }),
    );
  });
  return tokensOf(result.AuthenticationResult);
}

export async function revokeRefreshToken(refreshToken: string): Promise<void> {
  const { api, sdk } = await cognito();
  await api.send(new sdk.RevokeTokenCommand({ ClientId: userPool().clientId, Token: refreshToken }));
}
