/**
 * The operator user pool and the dashboard client as cognito-local keeps them (its JSON files),
 * written from the stack's definition (definitions/user-pool.ts) with fixed ids.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_USER_POOL_CLIENT_ID, LOCAL_USER_POOL_ID, operatorAttributes, userPoolDefinition } from '../../definitions/user-pool';

/**
 * The pool and client files cognito-local reads, from the stack's definition; kept if present,
 * but a pool of an earlier version is given what the stack's has since: optional MFA (TOTP) and
 * the mfa-required group.
 */
export function writeLocalUserPool(dbDir: string): void {
  mkdirSync(dbDir, { recursive: true });
  const poolFile = join(dbDir, `${LOCAL_USER_POOL_ID}.json`);
  if (existsSync(poolFile)) {
    const pool = JSON.parse(readFileSync(poolFile, 'utf8')) as { Options: Record<string, unknown>; Groups?: Record<string, unknown> };
    if (pool.Options.MfaConfiguration !== 'OPTIONAL' || !pool.Groups?.[userPoolDefinition.mfaRequiredGroup]) {
      pool.Options.MfaConfiguration = 'OPTIONAL';
      pool.Options.EnabledMfas = ['SOFTWARE_TOKEN_MFA'];
      pool.Groups = { ...localGroups(), ...pool.Groups };
      writeFileSync(poolFile, `${JSON.stringify(pool, null, 2)}\n`);
    }
  } else {
    const pool = {
      Options: {
        Id: LOCAL_USER_POOL_ID,
        Name: `hotel-integration-local-${userPoolDefinition.nameSuffix}`,
        UsernameAttributes: ['email'],
        // As the stack's pool: each operator may turn TOTP on, and is then asked for a code.
        MfaConfiguration: 'OPTIONAL',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        SchemaAttributes: [
          { Name: 'sub', AttributeDataType: 'String', Mutable: false, Required: true },
          { Name: 'email', AttributeDataType: 'String', Mutable: true, Required: true },
          { Name: 'email_verified', AttributeDataType: 'Boolean', Mutable: true, Required: false },
          ...Object.values(operatorAttributes).map((a) => ({
            Name: `custom:${a.name}`,
            AttributeDataType: 'String',
            Mutable: true,
            Required: false,
            StringAttributeConstraints: { MinLength: '1', MaxLength: String(a.maxLength) },
          })),
        ],
      },
      Users: {},
      Groups: localGroups(),
    };
    writeFileSync(poolFile, `${JSON.stringify(pool, null, 2)}\n`);
  }
  const clientsFile = join(dbDir, 'clients.json');
  if (!existsSync(clientsFile)) {
    const c = userPoolDefinition.appClient;
    const client = {
      ClientId: LOCAL_USER_POOL_CLIENT_ID,
      ClientName: `hotel-integration-local-${c.nameSuffix}`,
      UserPoolId: LOCAL_USER_POOL_ID,
      // No secret: cognito-local checks no SECRET_HASH (and its clients.json is kept as it is).
      ExplicitAuthFlows: [...c.explicitAuthFlows],
      AccessTokenValidity: c.accessTokenValidityMinutes,
      IdTokenValidity: c.idTokenValidityMinutes,
      RefreshTokenValidity: c.refreshTokenValidityDays,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
      EnableTokenRevocation: c.enableTokenRevocation,
    };
    writeFileSync(clientsFile, `${JSON.stringify({ Clients: { [LOCAL_USER_POOL_CLIENT_ID]: client } }, null, 2)}\n`);
  }
}

/** The pool's groups as cognito-local keeps them. */
function localGroups(): Record<string, unknown> {
  const now = new Date().toISOString();
  const name = userPoolDefinition.mfaRequiredGroup;
  return { [name]: { GroupName: name, Description: 'Operators who must sign in with a second factor', CreationDate: now, LastModifiedDate: now, members: [] } };
}

/** The operator pool, its dashboard client and the tokens' issuer of the cognito-local at `endpoint` (fixed ids). */
export function cognitoLocalPool(endpoint: string): { userPoolId: string; userPoolClientId: string; issuer: string } {
  return { userPoolId: LOCAL_USER_POOL_ID, userPoolClientId: LOCAL_USER_POOL_CLIENT_ID, issuer: `${endpoint}/${LOCAL_USER_POOL_ID}` };
}
