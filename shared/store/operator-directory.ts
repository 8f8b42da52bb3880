/**
 * The operators' user pool (Cognito; cognito-local on the local stack): the one module that
 * speaks the Cognito API. Sign-in failures of every shape come out as one error, so that a page
 * cannot tell (or tell an attacker) whether the e-mail exists.
 *
 * The SDK is imported on first use: a dashboard page loads it only when it signs an operator in
 * or out or refreshes a session, not on every cold start.
 *
 * The stack's app client has a secret (definitions/user-pool.ts): every sign-in, challenge
 * answer and refresh carries its SECRET_HASH, read once per instance with DescribeUserPoolClient
 * (cognito-local's client has none, and checks none). Sign-ins and challenge answers carry the
 * operator's own address as user context data, for Cognito's threat protection.
 */
import { createHmac } from 'node:crypto';
import type {
  AttributeType,
  AuthenticationResultType,
  CognitoIdentityProviderClient,
  InitiateAuthCommandOutput,
  UserContextDataType,
} from '@aws-sdk/client-cognito-identity-provider';
import { decomposeUnverifiedJwt } from 'aws-jwt-verify/jwt';
import { userPool } from '../config';
import { operatorAttributes, type OperatorRole, userPoolDefinition } from '../../definitions/user-pool';

export interface OperatorRecord {
  email: string;
  clientId: string;
  role: string;
  status: string;
  enabled: boolean;
  createdAt?: string;
  /** In the mfa-required group: a second factor is compulsory. */
  mfaRequired: boolean;
}

export interface OperatorTokens {
  idToken: string;
  accessToken: string;
  /** Absent after a refresh: the refresh token stays the same. */
  refreshToken?: string;
}

/** The challenges of a sign-in the dashboard answers. */
export type SignInChallenge = 'NEW_PASSWORD_REQUIRED' | 'SOFTWARE_TOKEN_MFA' | 'MFA_SETUP';

/**
 * Tokens, or a challenge to answer with its session and the user's username in the pool
 * (Cognito's USER_ID_FOR_SRP: with e-mail sign-in, not the e-mail), which the answer names.
 */
export type SignInResult =
  | { kind: 'signed_in'; tokens: OperatorTokens }
  | { kind: 'challenge'; challenge: SignInChallenge; session: string; username: string };

/** Who is signing in, for Cognito's threat protection: the browser's address, as API Gateway saw it. */
export interface SignInContext {
  ipAddress?: string;
}

/** A TOTP code Cognito refused (wrong, or already used). */
export class IncorrectCodeError extends Error {
  override name = 'IncorrectCodeError';
  constructor() {
    super('Incorrect code');
  }
}

/** Setting TOTP up takes the session of a sign-in challenge (MFA_SETUP), or a signed-in user's access token. */
export type TotpCredential = { session: string } | { accessToken: string };

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

const CHALLENGES: ReadonlySet<string> = new Set<SignInChallenge>(['NEW_PASSWORD_REQUIRED', 'SOFTWARE_TOKEN_MFA', 'MFA_SETUP']);

/** InitiateAuth's or RespondToAuthChallenge's answer: tokens or the next challenge. */
function signInResultOf(result: Pick<InitiateAuthCommandOutput, 'AuthenticationResult' | 'ChallengeName' | 'ChallengeParameters' | 'Session'>, username: string): SignInResult {
  if (result.ChallengeName) {
    if (!CHALLENGES.has(result.ChallengeName) || !result.Session) throw new Error(`unsupported sign-in challenge ${result.ChallengeName}`);
    return {
      kind: 'challenge',
      challenge: result.ChallengeName as SignInChallenge,
      session: result.Session,
      username: result.ChallengeParameters?.USER_ID_FOR_SRP ?? username,
    };
  }
  return { kind: 'signed_in', tokens: tokensOf(result.AuthenticationResult) };
}

let clientSecret: Promise<string | undefined> | undefined;

/** The app client's secret, once per instance; none for cognito-local's client. A failure is not kept. */
function secretOfClient(): Promise<string | undefined> {
  clientSecret ??= (async () => {
    const { api, sdk } = await cognito();
    const { userPoolId, clientId } = userPool();
    const described = await api.send(new sdk.DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: clientId }));
    return described.UserPoolClient?.ClientSecret;
  })().catch((error: unknown) => {
    clientSecret = undefined;
    throw error;
  });
  return clientSecret;
}

/**
 * SECRET_HASH of a call that names `username`: Base64(HMAC-SHA256(secret, username + clientId)),
 * or nothing when the client has no secret.
 */
async function secretHash(username: string): Promise<{ SECRET_HASH?: string }> {
  const secret = await secretOfClient();
  if (!secret) return {};
  return { SECRET_HASH: createHmac('sha256', secret).update(`${username}${userPool().clientId}`).digest('base64') };
}

/**
 * UserContextData: the operator's address (Cognito takes it from a client with a secret and
 * EnablePropagateAdditionalUserContextData). No EncodedData: that device fingerprint comes from
 * Cognito's script in the browser, and the dashboard runs none.
 */
const userContextData = (context: SignInContext): { UserContextData?: UserContextDataType } =>
  context.ipAddress ? { UserContextData: { IpAddress: context.ipAddress } } : {};

/** The groups a token of Cognito's names, read from a token Cognito has just handed over (not from a request). */
export function groupsOfIssuedToken(token: string): string[] {
  const groups = decomposeUnverifiedJwt(token).payload['cognito:groups'];
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
}

export async function createOperatorUser(input: {
  email: string;
  clientId: string;
  role: OperatorRole;
  password: string;
  permanent: boolean;
  mfaRequired: boolean;
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
  if (input.mfaRequired) {
    const { api, sdk } = await cognito();
    await api.send(new sdk.AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: input.email, GroupName: userPoolDefinition.mfaRequiredGroup }));
  }
}

/** The usernames (not e-mails) of the mfa-required group's members; none in a pool deployed before the group. */
async function mfaRequiredUsernames(): Promise<Set<string>> {
  const { userPoolId } = userPool();
  const usernames = new Set<string>();
  let token: string | undefined;
  do {
    const { api, sdk } = await cognito();
    const input = { UserPoolId: userPoolId, GroupName: userPoolDefinition.mfaRequiredGroup, NextToken: token, Limit: 60 };
    const page = await api.send(new sdk.ListUsersInGroupCommand(input)).catch((error: unknown) => {
      if ((error as Error).name === 'ResourceNotFoundException') return { Users: [], NextToken: undefined };
      throw error;
    });
    for (const user of page.Users ?? []) if (user.Username) usernames.add(user.Username);
    token = page.NextToken;
  } while (token);
  return usernames;
}

/** Every operator of a client. Cognito cannot filter on custom attributes: pages through the pool. */
export async function listOperatorUsers(clientId: string): Promise<OperatorRecord[]> {
  const { userPoolId } = userPool();
  const operators: OperatorRecord[] = [];
  const mfaRequired = await mfaRequiredUsernames();
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
        mfaRequired: mfaRequired.has(user.Username ?? ''),
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

/** InitiateAuth USER_PASSWORD_AUTH, with the SECRET_HASH and the operator's context; a refusal: SignInRefusedError. */
function passwordAuth(email: string, password: string, context: SignInContext): Promise<InitiateAuthCommandOutput> {
  return refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(
      new sdk.InitiateAuthCommand({
        ClientId: userPool().clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password, ...(await secretHash(email)) },
        ...userContextData(context),
      }),
    );
  });
}

export async function initiatePasswordAuth(email: string, password: string, context: SignInContext = {}): Promise<SignInResult> {
  return signInResultOf(await passwordAuth(email, password, context), email);
}

/**
 * Answers a sign-in challenge: `responses` are the challenge's own (NEW_PASSWORD,
 * SOFTWARE_TOKEN_MFA_CODE; none for MFA_SETUP after VerifySoftwareToken). A wrong code:
 * IncorrectCodeError; an expired or used session: SignInRefusedError.
 */
export async function respondToChallenge(
  challenge: SignInChallenge,
  answer: { session: string; username: string; responses?: Record<string, string> },
  context: SignInContext = {},
): Promise<SignInResult> {
  const result = await refusingCode(() =>
    refusingSignIn(async () => {
      const { api, sdk } = await cognito();
      return api.send(
        new sdk.RespondToAuthChallengeCommand({
          ClientId: userPool().clientId,
          ChallengeName: challenge,
          Session: answer.session,
          ChallengeResponses: { USERNAME: answer.username, ...answer.responses, ...(await secretHash(answer.username)) },
          ...userContextData(context),
        }),
      );
    }),
  );
  return signInResultOf(result, answer.username);
}

/** Cognito's refusals of a TOTP code, as IncorrectCodeError. */
async function refusingCode<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'CodeMismatchException' || name === 'EnableSoftwareTokenMFAException' || name === 'ExpiredCodeException') throw new IncorrectCodeError();
    throw error;
  }
}

/**
 * AssociateSoftwareToken: a new TOTP secret for the user (not in force until verified), and with
 * a sign-in's session the session to verify it with.
 */
export async function associateSoftwareToken(credential: TotpCredential): Promise<{ secret: string; session?: string }> {
  const result = await refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(new sdk.AssociateSoftwareTokenCommand('session' in credential ? { Session: credential.session } : { AccessToken: credential.accessToken }));
  });
  if (!result.SecretCode) throw new Error('Cognito answered without a secret');
  return { secret: result.SecretCode, session: result.Session };
}

/** VerifySoftwareToken: the code proves the app holds the secret; with a session, the session to answer MFA_SETUP with. */
export async function registerTotpDevice(credential: TotpCredential, code: string): Promise<{ session?: string }> {
  const result = await refusingCode(() =>
    refusingSignIn(async () => {
      const { api, sdk } = await cognito();
      return api.send(
        new sdk.VerifySoftwareTokenCommand({
          UserCode: code,
          FriendlyDeviceName: 'Authenticator app',
          ...('session' in credential ? { Session: credential.session } : { AccessToken: credential.accessToken }),
        }),
      );
    }),
  );
  if (result.Status !== 'SUCCESS') throw new IncorrectCodeError();
  return { session: result.Session };
}

/** SetUserMFAPreference: TOTP on and preferred, so Cognito asks for a code at every sign-in. */
export async function preferSoftwareToken(accessToken: string): Promise<void> {
  await refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(new sdk.SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
  });
}

/** Whether the user of an access token has TOTP on (GetUser). An expired or revoked token: SignInRefusedError. */
export async function softwareTokenEnabled(accessToken: string): Promise<boolean> {
  const user = await refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(new sdk.GetUserCommand({ AccessToken: accessToken }));
  });
  return (user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');
}

/**
 * New ID and access tokens. `username` is the user's username in the pool (`cognito:username`,
 * not the e-mail): with a client secret, Cognito checks the SECRET_HASH of a refresh against it.
 */
export async function refreshTokens(refreshToken: string, username?: string): Promise<OperatorTokens> {
  const result = await refusingSignIn(async () => {
    const { api, sdk } = await cognito();
    return api.send(
      new sdk.InitiateAuthCommand({
        ClientId: userPool().clientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: refreshToken, ...(username ? await secretHash(username) : {}) },
      }),
    );
  });
  return tokensOf(result.AuthenticationResult);
}

export async function revokeRefreshToken(refreshToken: string): Promise<void> {
  const { api, sdk } = await cognito();
  const secret = await secretOfClient();
  await api.send(new sdk.RevokeTokenCommand({ ClientId: userPool().clientId, Token: refreshToken, ...(secret ? { ClientSecret: secret } : {}) }));
}

/**
 * Whether Cognito accepts the operator's password (a re-authentication: shared/domain/reauthentication.ts).
 * Cognito checks the password before it answers any challenge: an operator with MFA gets
 * SOFTWARE_TOKEN_MFA (or MFA_SETUP) here, which counts as accepted, as the session the operator
 * re-authenticates in was itself opened with the second factor. The tokens a plain sign-in
 * returns are dropped: the session keeps its own.
 */
export async function passwordAccepted(email: string, password: string, context: SignInContext = {}): Promise<boolean> {
  try {
    await passwordAuth(email, password, context);
    return true;
  } catch (error) {
    if (error instanceof SignInRefusedError) return false;
    throw error;
  }
}
