/**
 * Verifies the operators' Cognito tokens, on AWS and on the local stack by the same code path
 * (COGNITO-LOCAL.md "one factory for AWS and local"): aws-jwt-verify's generic JwtVerifier with
 * Cognito's own field checks, the issuer and client from shared/config.ts, which refuses an
 * `http:` issuer outside the local stack.
 */
import { JwtVerifier } from 'aws-jwt-verify';
import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import type { Fetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { isOperatorRole, operatorAttributes, type OperatorRole } from '../../definitions/user-pool';
import { userPool } from '../config';

// The default fetcher uses node:https and refuses cognito-local's http:// JWKS.
const fetcher: Fetcher = {
  fetch: async (uri) => {
    const response = await fetch(uri, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) throw new Error(`JWKS ${uri}: HTTP ${response.status}`);
    return response.arrayBuffer();
  },
};

export type TokenUse = 'id' | 'access';

export function createTokenVerifier(c: { issuer: string; jwksUri?: string; clientId: string; tokenUse: TokenUse }) {
  return JwtVerifier.create(
    {
      issuer: c.issuer,
      jwksUri: c.jwksUri ?? `${c.issuer}/.well-known/jwks.json`,
      audience: null, // access tokens carry client_id, not aud: checked below for both uses
      customJwtCheck: ({ payload }) => validateCognitoJwtFields(payload, { tokenUse: c.tokenUse, clientId: c.clientId }),
    },
    { jwksCache: new SimpleJwksCache({ fetcher }) },
  );
}

export interface Operator {
  email: string;
  client_id: string;
  role: OperatorRole;
  /** The client's (hotel's) name for the dashboard's header: added by the page function, in no token. */
  client_name?: string;
}

/** A token that does not verify, or that names no client or no known role. */
export class InvalidOperatorTokenError extends Error {
  override name = 'InvalidOperatorTokenError';
}

let idTokenVerifier: ReturnType<typeof createTokenVerifier> | undefined;

/** The operator an ID token names, after verifying it (signature, issuer, client, expiry, use). */
export async function operatorFromToken(idToken: string): Promise<Operator> {
  const pool = userPool();
  idTokenVerifier ??= createTokenVerifier({ issuer: pool.issuer, clientId: pool.clientId, tokenUse: 'id' });
  let payload: Record<string, unknown>;
  try {
    payload = await idTokenVerifier.verify(idToken);
  } catch (error) {
    throw new InvalidOperatorTokenError(`the token does not verify (${(error as Error).name})`);
  }
  const email = payload.email;
  const clientId = payload[`custom:${operatorAttributes.clientId.name}`];
  const role = payload[`custom:${operatorAttributes.role.name}`];
  if (typeof email !== 'string' || typeof clientId !== 'string' || !clientId || !isOperatorRole(role)) {
    throw new InvalidOperatorTokenError('the token names no operator of a client');
  }
  return { email, client_id: clientId, role };
}
