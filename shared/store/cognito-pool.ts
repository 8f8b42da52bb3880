/**
 * The connection to the operators' user pool (Cognito; cognito-local on the local stack): the
 * client, the app client's secret, the operator's context, and Cognito's refusals as this
 * service's errors. Sign-in failures of every shape come out as one error, so that a page
 * cannot tell (or tell an attacker) whether the e-mail exists. operator-directory.ts (the
 * operators) and operator-sign-in.ts (signing them in) speak the Cognito API through it.
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
import { Agent } from 'node:http';
import type { CognitoIdentityProviderClient, UserContextDataType } from '@aws-sdk/client-cognito-identity-provider';
import { userPool } from '../config';

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

/** Wrong e-mail, wrong password, disabled user, reused or revoked refresh token: one answer. */
export class SignInRefusedError extends Error {
  override name = 'SignInRefusedError';
  constructor() {
    super('Incorrect email or password');
  }
}

type CognitoSdk = typeof import('@aws-sdk/client-cognito-identity-provider');

let sdkImport: Promise<CognitoSdk> | undefined;
let client: CognitoIdentityProviderClient | undefined;

/** The SDK and the client, both made on first use; the pool's settings are read on every call. */
export async function cognito(): Promise<{ api: CognitoIdentityProviderClient; sdk: CognitoSdk }> {
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
    // Without retries, a kept-alive socket that cognito-local closes after its 5 s idle time,
    // just as a call reuses it, fails that call ("socket hang up", seen in a full run): locally
    // each call has a connection of its own.
    ...(pool.endpoint ? { requestHandler: { httpAgent: new Agent({ keepAlive: false }) } } : {}),
  });
  return { api: client, sdk: loaded };
}

/** Errors Cognito and cognito-local give for a refused sign-in (cognito-local: InvalidPasswordException for a wrong password). */
const REFUSED = new Set(['NotAuthorizedException', 'UserNotFoundException', 'InvalidPasswordException', 'UserNotConfirmedException', 'PasswordResetRequiredException']);

export async function refusingSignIn<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (REFUSED.has((error as Error).name)) throw new SignInRefusedError();
    throw error;
  }
}

/** Cognito's refusals of a TOTP code, as IncorrectCodeError. */
export async function refusingCode<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'CodeMismatchException' || name === 'EnableSoftwareTokenMFAException' || name === 'ExpiredCodeException') throw new IncorrectCodeError();
    throw error;
  }
}

let clientSecret: Promise<string | undefined> | undefined;

/** The app client's secret, once per instance; none for cognito-local's client. A failure is not kept. */
export function secretOfClient(): Promise<string | undefined> {
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
export async function secretHash(username: string): Promise<{ SECRET_HASH?: string }> {
  const secret = await secretOfClient();
  if (!secret) return {};
  return { SECRET_HASH: createHmac('sha256', secret).update(`${username}${userPool().clientId}`).digest('base64') };
}

/**
 * UserContextData: the operator's address (Cognito takes it from a client with a secret and
 * EnablePropagateAdditionalUserContextData). No EncodedData: that device fingerprint comes from
 * Cognito's script in the browser, and the dashboard runs none.
 */
export const userContextData = (context: SignInContext): { UserContextData?: UserContextDataType } =>
  context.ipAddress ? { UserContextData: { IpAddress: context.ipAddress } } : {};
