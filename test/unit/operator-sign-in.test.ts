/**
 * The dashboard's sign-in against a stubbed Cognito client, for what cognito-local cannot show:
 * Cognito's own MFA_SETUP challenge (AssociateSoftwareToken and VerifySoftwareToken with a
 * session: cognito-local takes only an access token, and never sets MFA_SETUP), an expired
 * challenge session (cognito-local checks none), the user context data and SECRET_HASH of every
 * call (cognito-local ignores both, and its client has no secret), and the `__Host-` cookies of a
 * deployed stage under its stage prefix. The stub stands in for CognitoIdentityProviderClient;
 * the SDK's own command classes are kept, so each call's input is what Cognito would receive.
 */
import { createHmac } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';

process.env.STAGE = 'prod';
process.env.TABLE_NAME = 'unit-test-table';
process.env.AWS_REGION = 'eu-west-1';
process.env.USER_POOL_ID = 'eu-west-1_UnitPool';
process.env.USER_POOL_CLIENT_ID = 'unitdashboardclient';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
delete process.env.PUBLIC_BASE_URL;
delete process.env.COGNITO_ENDPOINT;
delete process.env.COGNITO_ISSUER;

const CLIENT_ID = 'unitdashboardclient';
const CLIENT_SECRET = 'unit-client-secret';
const SOURCE_IP = '203.0.113.7';
const DOMAIN = 'abc123.execute-api.eu-west-1.amazonaws.com';
const ORIGIN = `https://${DOMAIN}`;
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** A hand-made Cognito: answers by command name, records every command's name and input. */
const cognito = vi.hoisted(() => {
  type Answer = (input: Record<string, any>) => unknown;
  const state = { calls: [] as { name: string; input: Record<string, any> }[], answers: new Map<string, Answer[]>() };
  return {
    state,
    answer(name: string, ...answers: (Answer | Record<string, unknown> | Error)[]) {
      state.answers.set(
        name,
        answers.map((a) => (typeof a === 'function' ? a : () => (a instanceof Error ? Promise.reject(a) : a))),
      );
    },
    async send(command: { constructor: { name: string }; input: Record<string, any> }) {
      const name = command.constructor.name.replace(/Command$/, '');
      state.calls.push({ name, input: command.input });
      const queue = state.answers.get(name);
      if (!queue?.length) throw new Error(`unexpected ${name}`);
      const next = queue.length > 1 ? queue.shift()! : queue[0]!;
      return next(command.input);
    },
  };
});

vi.mock('@aws-sdk/client-cognito-identity-provider', async (importOriginal) => {
  const sdk = await importOriginal<typeof import('@aws-sdk/client-cognito-identity-provider')>();
  class StubClient {
    send = cognito.send;
    destroy() {}
  }
  return { ...sdk, CognitoIdentityProviderClient: StubClient };
});

/** The key of a set-up under way, kept as the table would keep it (shared/store/totp-setup-store.ts). */
const pendingKeys = vi.hoisted(() => new Map<string, string>());
vi.mock('../../shared/store/totp-setup-store', () => ({
  getPendingTotpSecret: async (username: string) => pendingKeys.get(username) || undefined,
  putPendingTotpSecret: async (username: string, secret: string) => void pendingKeys.set(username, secret),
  clearPendingTotpSecret: async (username: string) => void pendingKeys.delete(username),
}));

const cognitoError = (name: string) => Object.assign(new Error(name), { name });
const calls = (name: string) => cognito.state.calls.filter((c) => c.name === name).map((c) => c.input);
const secretHash = (username: string) => createHmac('sha256', CLIENT_SECRET).update(`${username}${CLIENT_ID}`).digest('base64');

/** A token shaped as Cognito's (not signed: nothing here verifies it). */
function token(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', kid: 'unit' })}.${part({ exp: Math.floor(Date.now() / 1000) + 900, ...claims })}.c2lnbmF0dXJl`;
}

const tokens = (claims: Record<string, unknown> = {}) => ({
  IdToken: token({ token_use: 'id', sub: 'uuid-1', 'cognito:username': 'uuid-1', ...claims }),
  AccessToken: token({ token_use: 'access', sub: 'uuid-1', username: 'uuid-1', ...claims }),
  RefreshToken: 'opaque-refresh-token',
});

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
let handler: Handler;
const context = { functionName: 'DashboardSession', awsRequestId: 'a', getRemainingTimeInMillis: () => 10_000 } as Context;

/** A form POST as API Gateway hands it over under the `prod` stage, from the operator's browser. */
function post(resource: string, form: Record<string, string>, cookie?: string): APIGatewayProxyEvent {
  return {
    resource,
    path: resource,
    httpMethod: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: new URLSearchParams(form).toString(),
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', stage: 'prod', domainName: DOMAIN, identity: { sourceIp: SOURCE_IP } } as never,
  };
}

/** The GET a browser makes after a redirect, with the cookies the redirect set (name=value). */
function followed(response: APIGatewayProxyResult, resource: string): APIGatewayProxyEvent {
  const cookie = setCookies(response)
    .map((c) => c.split(';')[0])
    .join('; ');
  return { ...post(resource, {}, cookie), httpMethod: 'GET', body: null, headers: { ...(cookie ? { Cookie: cookie } : {}) } };
}

const setCookies = (response: APIGatewayProxyResult) => (response.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
const hiddenFieldHtml = (name: string, value: string) => `name="${name}" value="${value}"`;
const hiddenField = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

// Each test gets instances of its own, as a cold Lambda instance would: what one test's sign-in
// kept (the client secret) is not there for the next, whatever the order.
beforeEach(async () => {
  vi.resetModules();
  ({ handler } = (await import('../../functions/dashboard-session')) as unknown as { handler: Handler });
  cognito.state.calls.length = 0;
  cognito.state.answers.clear();
  cognito.answer('DescribeUserPoolClient', { UserPoolClient: { ClientId: CLIENT_ID, ClientSecret: CLIENT_SECRET } });
});

describe("Cognito's MFA_SETUP challenge (stubbed: cognito-local never sets it)", () => {
  it('shows the secret and its QR code, verifies the first code with the session, answers MFA_SETUP and signs in', async () => {
    cognito.answer('InitiateAuth', { ChallengeName: 'MFA_SETUP', Session: 'session-1', ChallengeParameters: { USER_ID_FOR_SRP: 'uuid-1' } });
    cognito.answer('AssociateSoftwareToken', { SecretCode: SECRET, Session: 'session-2' });
    const posted = await handler(post('/dashboard/sign-in', { email: 'Ops@Hotel.example', password: 'Correct-horse-42' }), context);
    // POST-redirect-GET: the set-up page is a GET (a reload shows it again), its state in a cookie.
    expect(posted.statusCode).toBe(303);
    expect(posted.headers?.Location).toBe('/prod/dashboard/sign-in/mfa-setup');
    expect(setCookies(posted).map((c) => c.split('=')[0])).toEqual(['__Host-dashboard_mfa_setup_page']);
    const page = await handler(followed(posted, '/dashboard/sign-in/mfa-setup'), context);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Set up two-step verification</h1>');
    expect(page.body).toMatch(/<img class="qr" src="data:image\/svg\+xml;base64,/);
    expect(page.body).toContain('<code class="secret">JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP</code>');
    expect(page.body).toContain('<label for="f-code">Code</label>');
    expect(page.body).not.toContain('<script');
    expect(hiddenField(page.body, 'session')).toBe('session-2');
    expect(hiddenField(page.body, 'username')).toBe('uuid-1');
    expect(setCookies(page)).toEqual([]);
    // The password, with the SECRET_HASH of the e-mail as typed and the operator's own address.
    expect(calls('InitiateAuth')).toEqual([
      {
        ClientId: CLIENT_ID,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'ops@hotel.example', PASSWORD: 'Correct-horse-42', SECRET_HASH: secretHash('ops@hotel.example') },
        UserContextData: { IpAddress: SOURCE_IP },
      },
    ]);
    expect(calls('AssociateSoftwareToken')).toEqual([{ Session: 'session-1' }]);
    // The client's secret, read for the SECRET_HASH: once per instance.
    expect(calls('DescribeUserPoolClient')).toEqual([{ UserPoolId: 'eu-west-1_UnitPool', ClientId: CLIENT_ID }]);

    cognito.answer('VerifySoftwareToken', { Status: 'SUCCESS', Session: 'session-3' });
    // The tokens made once: made again for the assertion, a second later under load, their expiry differed.
    const issuedTokens = tokens();
    cognito.answer('RespondToAuthChallenge', { AuthenticationResult: issuedTokens });
    cognito.answer('SetUserMFAPreference', {});
    const done = await handler(
      post('/dashboard/sign-in/mfa-setup', { email: 'ops@hotel.example', username: 'uuid-1', session: 'session-2', secret: SECRET, code: '123456' }),
      context,
    );
    expect(done.statusCode).toBe(303);
    expect(done.headers?.Location).toBe('/prod/dashboard');
    expect(calls('VerifySoftwareToken')).toEqual([{ UserCode: '123456', FriendlyDeviceName: 'Authenticator app', Session: 'session-2' }]);
    expect(calls('RespondToAuthChallenge')).toEqual([
      {
        ClientId: CLIENT_ID,
        ChallengeName: 'MFA_SETUP',
        Session: 'session-3',
        ChallengeResponses: { USERNAME: 'uuid-1', SECRET_HASH: secretHash('uuid-1') },
        UserContextData: { IpAddress: SOURCE_IP },
      },
    ]);
    expect(calls('SetUserMFAPreference')).toEqual([{ AccessToken: issuedTokens.AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }]);
    // A deployed stage's session: __Host- cookies of the whole host (Path=/ reaches /prod/dashboard), Secure, no Domain.
    const cookies = setCookies(done);
    expect(cookies.map((c) => c.split('=')[0])).toEqual(['__Host-dashboard_id', '__Host-dashboard_access', '__Host-dashboard_refresh']);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
      expect(cookie).not.toMatch(/Domain=/i);
    }
  });

  it('shows the set-up again after a wrong code, and the sign-in form once the session has expired', async () => {
    const form = { email: 'ops@hotel.example', username: 'uuid-1', session: 'session-2', secret: SECRET, code: '000000' };
    cognito.answer('VerifySoftwareToken', cognitoError('CodeMismatchException'));
    const wrong = await handler(post('/dashboard/sign-in/mfa-setup', form), context);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('That code is not right');
    expect(hiddenField(wrong.body, 'session')).toBe('session-2');
    expect(calls('RespondToAuthChallenge')).toEqual([]);

    cognito.answer('VerifySoftwareToken', cognitoError('NotAuthorizedException'));
    const expired = await handler(post('/dashboard/sign-in/mfa-setup', form), context);
    expect(expired.statusCode).toBe(401);
    expect(expired.body).toContain('That sign-in expired: sign in again');
    expect(setCookies(expired)).toEqual([]);
  });
});

describe('the Code page (SOFTWARE_TOKEN_MFA) against Cognito', () => {
  const pending = { email: 'ops@hotel.example', username: 'uuid-1', session: 'session-1' };

  it('passes the code with the SECRET_HASH and the operator address, and signs in', async () => {
    cognito.answer('InitiateAuth', { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 'session-1', ChallengeParameters: { USER_ID_FOR_SRP: 'uuid-1' } });
    const page = await handler(post('/dashboard/sign-in', { email: 'ops@hotel.example', password: 'Correct-horse-42' }), context);
    expect(page.body).toContain('<h1>Code</h1>');
    expect(hiddenField(page.body, 'session')).toBe('session-1');

    cognito.answer('RespondToAuthChallenge', { AuthenticationResult: tokens() });
    const done = await handler(post('/dashboard/sign-in/code', { ...pending, code: '654321' }), context);
    expect(done.statusCode).toBe(303);
    expect(calls('RespondToAuthChallenge')).toEqual([
      {
        ClientId: CLIENT_ID,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: 'session-1',
        ChallengeResponses: { USERNAME: 'uuid-1', SOFTWARE_TOKEN_MFA_CODE: '654321', SECRET_HASH: secretHash('uuid-1') },
        UserContextData: { IpAddress: SOURCE_IP },
      },
    ]);
    // After a code, no GetUser: the second factor was just given.
    expect(calls('GetUser')).toEqual([]);
  });

  it('answers a code Cognito refuses with the Code page, and an expired session with the sign-in form', async () => {
    cognito.answer('RespondToAuthChallenge', cognitoError('CodeMismatchException'));
    const wrong = await handler(post('/dashboard/sign-in/code', { ...pending, code: '111111' }), context);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('<h1>Code</h1>');
    expect(wrong.body).toContain('That code is not right');

    cognito.answer('RespondToAuthChallenge', cognitoError('NotAuthorizedException'));
    const expired = await handler(post('/dashboard/sign-in/code', { ...pending, code: '111111' }), context);
    expect(expired.statusCode).toBe(401);
    expect(expired.body).toContain('That sign-in expired: sign in again');
  });
});

describe('an operator of the mfa-required group whom Cognito signs in with a password alone', () => {
  it('gets no session: TOTP is set up with the access token, kept in a __Host- cookie that opens nothing', async () => {
    const issued = tokens({ 'cognito:groups': ['mfa-required'] });
    cognito.answer('InitiateAuth', { AuthenticationResult: issued });
    cognito.answer('GetUser', { Username: 'uuid-1', UserAttributes: [], UserMFASettingList: [] });
    cognito.answer('AssociateSoftwareToken', { SecretCode: SECRET });
    const posted = await handler(post('/dashboard/sign-in', { email: 'ops@hotel.example', password: 'Correct-horse-42' }), context);
    expect(posted.statusCode).toBe(303);
    const cookies = setCookies(posted);
    expect(cookies[0]).toBe(`__Host-dashboard_mfa_setup=${issued.AccessToken}; Path=/; HttpOnly; SameSite=Strict; Max-Age=600; Secure`);
    expect(cookies[1]).toMatch(/^__Host-dashboard_mfa_setup_page=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=600; Secure$/);
    const page = await handler(followed(posted, '/dashboard/sign-in/mfa-setup'), context);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Set up two-step verification</h1>');
    expect(calls('GetUser')).toEqual([{ AccessToken: issued.AccessToken }]);
    // Shown again (a reload): the same key, Cognito not asked for another.
    expect(calls('AssociateSoftwareToken')).toEqual([{ AccessToken: issued.AccessToken }]);
    // Signed in again while the set-up is under way: the key already shown, Cognito not asked for another.
    const again = await handler(post('/dashboard/sign-in', { email: 'ops@hotel.example', password: 'Correct-horse-42' }), context);
    expect((await handler(followed(again, '/dashboard/sign-in/mfa-setup'), context)).body).toContain(hiddenFieldHtml('secret', SECRET));
    expect(calls('AssociateSoftwareToken')).toHaveLength(1);
    // Kept sealed under the password: the table never holds the key in clear.
    const [kept] = [...pendingKeys.values()];
    expect(kept).toMatch(/^p1:/);
    expect(kept).not.toContain(SECRET);

    cognito.answer('VerifySoftwareToken', { Status: 'SUCCESS' });
    cognito.answer('SetUserMFAPreference', {});
    const done = await handler(
      post('/dashboard/sign-in/mfa-setup', { email: 'ops@hotel.example', secret: SECRET, code: '123456' }, `__Host-dashboard_mfa_setup=${issued.AccessToken}`),
      context,
    );
    expect(done.statusCode).toBe(303);
    expect(done.headers?.Location).toBe('/prod/dashboard/sign-in');
    expect(calls('VerifySoftwareToken')).toEqual([{ UserCode: '123456', FriendlyDeviceName: 'Authenticator app', AccessToken: issued.AccessToken }]);
    expect(setCookies(done)[0]).toBe('__Host-dashboard_mfa_setup=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
    expect(setCookies(done).some((c) => c.startsWith('__Host-dashboard_id='))).toBe(false);
    // Set up: the key is no longer kept for the next sign-in.
    expect(pendingKeys.size).toBe(0);
  });

  it('ignores a set-up cookie without the __Host- prefix on a deployed stage', async () => {
    const page = await handler(post('/dashboard/sign-in/mfa-setup', { email: 'ops@hotel.example', secret: SECRET, code: '123456' }, 'dashboard_mfa_setup=planted'), context);
    expect(page.statusCode).toBe(401);
    expect(calls('VerifySoftwareToken')).toEqual([]);
  });

  it('signs in an operator outside the group with the password alone, asking Cognito nothing more', async () => {
    cognito.answer('InitiateAuth', { AuthenticationResult: tokens() });
    const done = await handler(post('/dashboard/sign-in', { email: 'ops@hotel.example', password: 'Correct-horse-42' }), context);
    expect(done.statusCode).toBe(303);
    expect(calls('GetUser')).toEqual([]);
  });
});

describe('sessions with the client secret', () => {
  it('renews with the SECRET_HASH of the username the ID token names, and revokes with the client secret', async () => {
    const { accessTokenOf } = await import('../../shared/dashboard/session');
    const { signOut } = await import('../../shared/domain/operators');
    const fresh = tokens();
    cognito.answer('InitiateAuth', { AuthenticationResult: { IdToken: fresh.IdToken, AccessToken: fresh.AccessToken } });
    const expiredAccess = token({ token_use: 'access', sub: 'uuid-9', exp: Math.floor(Date.now() / 1000) - 10 });
    const cookies = {
      dashboard_id: token({ token_use: 'id', sub: 'uuid-9', 'cognito:username': 'uuid-9' }),
      dashboard_access: expiredAccess,
      dashboard_refresh: 'opaque-refresh-token',
    };
    expect(await accessTokenOf(cookies, new Date())).toBe(fresh.AccessToken);
    expect(calls('InitiateAuth')).toEqual([
      { ClientId: CLIENT_ID, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: 'opaque-refresh-token', SECRET_HASH: secretHash('uuid-9') } },
    ]);
    // A valid access token of the session's user is used as it is; another user's is not.
    const live = token({ token_use: 'access', sub: 'uuid-9' });
    expect(await accessTokenOf({ ...cookies, dashboard_access: live }, new Date())).toBe(live);
    expect(calls('InitiateAuth')).toHaveLength(1);
    expect(await accessTokenOf({ ...cookies, dashboard_access: token({ token_use: 'access', sub: 'someone-else' }) }, new Date())).toBe(fresh.AccessToken);
    expect(calls('InitiateAuth')).toHaveLength(2);

    cognito.answer('RevokeToken', {});
    await signOut('opaque-refresh-token');
    expect(calls('RevokeToken')).toEqual([{ ClientId: CLIENT_ID, Token: 'opaque-refresh-token', ClientSecret: CLIENT_SECRET }]);
    // The secret, read by this instance's first renewal, is kept for the next ones and the revoke.
    expect(calls('DescribeUserPoolClient')).toEqual([{ UserPoolId: 'eu-west-1_UnitPool', ClientId: CLIENT_ID }]);
  });
});

describe('cookie names per stage', () => {
  it('are unprefixed under the dashboard path on the local stack, and __Host- of the whole host on a deployed stage', async () => {
    const { cookieScope, parseCookies, scopedCookieOptions, serializeCookie } = await import('../../shared/dashboard/cookies');
    const local = cookieScope('', true);
    const deployed = cookieScope('/prod', false);
    expect(serializeCookie('dashboard_id', 'v', scopedCookieOptions(local, 60))).toBe('dashboard_id=v; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=60');
    expect(serializeCookie('dashboard_id', 'v', scopedCookieOptions(deployed, 60))).toBe('__Host-dashboard_id=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=60; Secure');
    // A deployed stage reads only its __Host- cookies (another host's cookie cannot pose as one).
    expect(parseCookies('dashboard_id=planted; __Host-dashboard_id=real', deployed)).toEqual({ dashboard_id: 'real' });
    expect(parseCookies('dashboard_id=local', local)).toEqual({ dashboard_id: 'local' });
  });
});
