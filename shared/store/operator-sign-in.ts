/**
 * Signing operators in to the dashboard through the user pool: a password, then the challenges
 * Cognito sets (a new password, a TOTP code, setting TOTP up), TOTP turned on later, sessions
 * refreshed and signed out, and a password checked again for a re-authentication. A refusal of
 * any shape is SignInRefusedError (cognito-pool.ts).
 */
import type { AuthenticationResultType, InitiateAuthCommandOutput } from '@aws-sdk/client-cognito-identity-provider';
import { decomposeUnverifiedJwt } from 'aws-jwt-verify/jwt';
import { userPool } from '../config';
import { cognito, IncorrectCodeError, refusingCode, refusingSignIn, secretHash, secretOfClient, type SignInContext, SignInRefusedError, userContextData } from './cognito-pool';

export { IncorrectCodeError, type SignInContext, SignInRefusedError };

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

/** Setting TOTP up takes the session of a sign-in challenge (MFA_SETUP), or a signed-in user's access token. */
export type TotpCredential = { session: string } | { accessToken: string };

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

/** The groups a token of Cognito's names, read from a token Cognito has just handed over (not from a request). */
export function groupsOfIssuedToken(token: string): string[] {
  const groups = decomposeUnverifiedJwt(token).payload['cognito:groups'];
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
}

/** The Cognito username an access token was issued to (unverified: the token came from Cognito itself). */
export function usernameOfIssuedToken(token: string): string {
  const { payload } = decomposeUnverifiedJwt(token);
  const username = payload.username ?? payload['cognito:username'] ?? payload.sub;
  if (typeof username !== 'string' || !username) throw new Error('the access token names no user');
  return username;
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
