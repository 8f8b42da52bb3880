/**
 * The operators' user pool and its app client, read by the CDK stack (infra/constructs/user-pool.ts)
 * and by the local stack, which creates the same pool in cognito-local (infra/local/cognito-pool.ts).
 * An operator signs in with their e-mail; the client they belong to and their role are custom
 * attributes, so both travel in the ID token the dashboard verifies.
 */
export const OPERATOR_ROLES = ['admin', 'staff'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const isOperatorRole = (value: unknown): value is OperatorRole => OPERATOR_ROLES.includes(value as OperatorRole);

/** Whether an operator must sign in with a second factor (`ops operators create --mfa required`). */
export const MFA_SETTINGS = ['optional', 'required'] as const;
export type MfaSetting = (typeof MFA_SETTINGS)[number];

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
  /**
   * Optional TOTP for operators (an authenticator app); Cognito's SMS would need an SNS role and
   * a sandbox exit. Cognito asks every operator who turned TOTP on for a code at sign-in.
   */
  mfa: 'optional',
  /**
   * Operators who must have a second factor: members of this group. The dashboard's sign-in sets
   * TOTP up before anything else for a member who has none. A group, not a custom attribute: it
   * needs no change of the pool's schema, only admin APIs (the ops CLI) put an operator in it,
   * and it travels in the tokens (`cognito:groups`).
   */
  mfaRequiredGroup: 'mfa-required',
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
    /**
     * Sign-in posts e-mail and password to the dashboard's own function (no hosted UI), which
     * calls InitiateAuth USER_PASSWORD_AUTH, then RespondToAuthChallenge for its challenges
     * (NEW_PASSWORD_REQUIRED, SOFTWARE_TOKEN_MFA, MFA_SETUP), and REFRESH_TOKEN_AUTH to renew a
     * session: exactly these two flows (the TOTP calls take a session or an access token).
     */
    explicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    /**
     * A confidential client: its secret (read by the functions with DescribeUserPoolClient) lets
     * only the dashboard's functions sign operators in, and Cognito accepts the operator's own
     * address in UserContextData only from a client with a secret and this setting on.
     */
    generateSecret: true,
    propagateUserContextData: true,
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
