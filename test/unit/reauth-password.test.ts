/**
 * The password check of a re-authentication (shared/store/operator-sign-in.ts `passwordAccepted`)
 * against a stubbed Cognito client, for what cognito-local cannot show: an operator with MFA,
 * whom Cognito answers with a challenge once the password is right (SOFTWARE_TOKEN_MFA, or
 * MFA_SETUP), which counts as the password accepted; and the SECRET_HASH and user context data
 * of the call.
 */
import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

process.env.STAGE = 'prod';
process.env.TABLE_NAME = 'unit-test-table';
process.env.AWS_REGION = 'eu-west-1';
process.env.USER_POOL_ID = 'eu-west-1_UnitPool';
process.env.USER_POOL_CLIENT_ID = 'unitdashboardclient';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
delete process.env.COGNITO_ENDPOINT;
delete process.env.COGNITO_ISSUER;

const CLIENT_ID = 'unitdashboardclient';
const CLIENT_SECRET = 'unit-client-secret';

/** Answers InitiateAuth with what the test sets; records every command. */
const cognito = vi.hoisted(() => {
  const state = { calls: [] as { name: string; input: Record<string, any> }[], initiateAuth: (() => ({})) as () => unknown };
  return {
    state,
    async send(command: { constructor: { name: string }; input: Record<string, any> }) {
      const name = command.constructor.name.replace(/Command$/, '');
      state.calls.push({ name, input: command.input });
      if (name === 'DescribeUserPoolClient') return { UserPoolClient: { ClientId: CLIENT_ID, ClientSecret: CLIENT_SECRET } };
      if (name === 'InitiateAuth') return state.initiateAuth();
      throw new Error(`unexpected ${name}`);
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

const { passwordAccepted } = await import('../../shared/store/operator-sign-in');

const refused = (name: string) => () => Promise.reject(Object.assign(new Error(name), { name }));

beforeEach(() => {
  cognito.state.calls.length = 0;
});

describe('passwordAccepted (re-authentication)', () => {
  it.each([
    ['tokens (no MFA)', { AuthenticationResult: { IdToken: 'id', AccessToken: 'access', RefreshToken: 'refresh' } }],
    ['SOFTWARE_TOKEN_MFA (MFA on: the password was right)', { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 's', ChallengeParameters: { USER_ID_FOR_SRP: 'uuid-1' } }],
    ['MFA_SETUP (MFA required, not set up yet)', { ChallengeName: 'MFA_SETUP', Session: 's', ChallengeParameters: { USER_ID_FOR_SRP: 'uuid-1' } }],
  ])('accepts the password when Cognito answers %s', async (_, answer) => {
    cognito.state.initiateAuth = () => answer;
    await expect(passwordAccepted('ada@hotel.example', 'Correct-horse-42', { ipAddress: '203.0.113.7' })).resolves.toBe(true);
    const [call] = cognito.state.calls.filter((c) => c.name === 'InitiateAuth');
    expect(call!.input).toEqual({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: {
        USERNAME: 'ada@hotel.example',
        PASSWORD: 'Correct-horse-42',
        SECRET_HASH: createHmac('sha256', CLIENT_SECRET).update(`ada@hotel.example${CLIENT_ID}`).digest('base64'),
      },
      UserContextData: { IpAddress: '203.0.113.7' },
    });
  });

  it.each(['NotAuthorizedException', 'UserNotFoundException', 'PasswordResetRequiredException'])('refuses on %s', async (name) => {
    cognito.state.initiateAuth = refused(name);
    await expect(passwordAccepted('ada@hotel.example', 'Wrong-horse-42')).resolves.toBe(false);
  });

  it('lets any other failure through (a 5xx page, never "Incorrect password")', async () => {
    cognito.state.initiateAuth = refused('InternalErrorException');
    await expect(passwordAccepted('ada@hotel.example', 'Correct-horse-42')).rejects.toMatchObject({ name: 'InternalErrorException' });
  });
});
