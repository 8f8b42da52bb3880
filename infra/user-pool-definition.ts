/**
 * The operators' user pool and its app client, read by the CDK stack (infra/constructs/user-pool.ts)
 * and by the local stack, which creates the same pool in cognito-local (infra/local/emulators.ts).
 * An operator signs in with their e-mail; the client they belong to and their role are custom
 * attributes, so both travel in the ID token the dashboard verifies.
 */
export const OPERATOR_ROLES = ['admin', 'staff'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const isOperatorRole = (value: unknown): value is OperatorRole => OPERATOR_ROLES.includes(value as OperatorRole);

/** Custom attributes: Cognito prefixes them with `custom:` in tokens and in the user API. */
export const operatorAttributes = {
  clientId: { name: 'client_id', maxLength: 64 },
  role: { name: 'role', maxLength: 16 },
} as const;

export const userPoolDefinition = {
  /** Deployed: `hotel-integration-${stage}-operators`. */
  nameSuffix: 'operators',
  /** Operators are created by the ops CLI (or an admin), never by signing up. */
  selfSignUp: false,
  /** Optional TOTP for operators; Cognito's SMS would need an SNS role and a sandbox exit. */
  mfa: 'optional',
  passwordPolicy: {
    minLength: 12,
    requireLowercase: true,
    requireUppercase: true,
    requireDigits: true,
    requireSymbols: true,
    temporaryPasswordValidityDays: 3,
  },
  appClient: {
    nameSuffix: 'dashboard',
    /** Sign-in posts e-mail and password to the dashboard's own function: no secret, no hosted UI. */
    authFlows: { userPassword: true },
    /** Short: a signed-out session's ID token (verified offline) dies soon after its refresh token is revoked. */
    accessTokenValidityMinutes: 15,
    idTokenValidityMinutes: 15,
    refreshTokenValidityDays: 1,
    enableTokenRevocation: true,
    preventUserExistenceErrors: true,
  },
} as const;

/** Fixed ids of the local pool and client: cognito-local accepts any, the stack gets Cognito's. */
export const LOCAL_USER_POOL_ID = 'local_operators';
export const LOCAL_USER_POOL_CLIENT_ID = 'localdashboard';
