/**
 * Operators and their sign-in against the run's cognito-local: the CLI as operators run it
 * (operators create|list|remove), and the dashboard's sign-in use cases and token verifier.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack';
import { runOps } from '../support/ops-cli';

const PASSWORD = 'Correct-horse-42';

let stack: TestStack;
let dir: string;
let stackFile: string;

const ops = (args: string[]) => runOps(stackFile, args);

async function opsJson<T = any>(args: string[]): Promise<T> {
  const run = await ops([...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

const uniqueEmail = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@hotel.example`;
const domain = () => import('../../shared/domain/operators');
const tokens = () => import('../../shared/auth/operator-tokens');

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'operators-test-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
});

afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('operators CLI', () => {
  it('creates an operator with a permanent password, lists it under its client only, and removes it', async () => {
    const { clientId } = await stack.createTenant();
    const { clientId: otherClient } = await stack.createTenant();
    const email = uniqueEmail('Admin');
    const created = await opsJson(['operators', 'create', '--client', clientId, '--email', email, '--role', 'admin', '--password', PASSWORD]);
    expect(created).toEqual({ email: email.toLowerCase(), role: 'admin' });

    const listed = await opsJson<{ operators: { email: string; role: string; status: string }[] }>(['operators', 'list', '--client', clientId]);
    expect(listed.operators).toEqual([expect.objectContaining({ email: email.toLowerCase(), role: 'admin', status: 'CONFIRMED' })]);
    expect((await opsJson(['operators', 'list', '--client', otherClient])).operators).toEqual([]);

    const { signIn } = await domain();
    expect((await signIn(email, PASSWORD)).kind).toBe('signed_in');

    expect(await opsJson(['operators', 'remove', '--email', email])).toEqual({ email: email.toLowerCase() });
    expect((await opsJson(['operators', 'list', '--client', clientId])).operators).toEqual([]);
    const again = await ops(['operators', 'remove', '--email', email, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error.code).toBe('NOT_FOUND');
  });

  it('without --password prints a temporary password that must be changed at first sign-in', async () => {
    const { clientId } = await stack.createTenant();
    const email = uniqueEmail('staff');
    const created = await opsJson(['operators', 'create', '--client', clientId, '--email', email, '--role', 'staff']);
    expect(created).toEqual({ email, role: 'staff', temporary_password: expect.any(String) });

    const human = await ops(['operators', 'create', '--client', clientId, '--email', uniqueEmail('other'), '--role', 'staff']);
    expect(human.stdout).toMatch(/temporary password: \S+/);

    const { signIn, completeNewPassword } = await domain();
    const first = await signIn(email, created.temporary_password);
    expect(first.kind).toBe('new_password_required');
    if (first.kind !== 'new_password_required') return;
    const signedIn = await completeNewPassword(first.username, first.session, PASSWORD);
    if (signedIn.kind !== 'signed_in') throw new Error(signedIn.kind);
    expect(await (await tokens()).operatorFromToken(signedIn.tokens.idToken)).toEqual({ email, client_id: clientId, role: 'staff' });
    expect((await signIn(email, PASSWORD)).kind).toBe('signed_in');
  });

  it('with --mfa required puts the operator in the mfa-required group: the sign-in sets TOTP up before anything else', async () => {
    const { clientId } = await stack.createTenant();
    const email = uniqueEmail('mfa');
    const created = await opsJson(['operators', 'create', '--client', clientId, '--email', email, '--role', 'staff', '--password', PASSWORD, '--mfa', 'required']);
    expect(created).toEqual({ email, role: 'staff', mfa: 'required' });
    const other = uniqueEmail('plain');
    await opsJson(['operators', 'create', '--client', clientId, '--email', other, '--role', 'staff', '--password', PASSWORD]);
    const listed = await opsJson<{ operators: { email: string; mfa: string }[] }>(['operators', 'list', '--client', clientId]);
    expect(Object.fromEntries(listed.operators.map((o) => [o.email, o.mfa]))).toEqual({ [email]: 'required', [other]: 'optional' });
    expect((await ops(['operators', 'list', '--client', clientId])).stdout).toContain(`${email}  staff  CONFIRMED  mfa required`);
    expect((await ops(['operators', 'create', '--client', clientId, '--email', uniqueEmail('x'), '--role', 'staff', '--mfa', 'always', '--json'])).code).not.toBe(0);

    const { signIn } = await domain();
    expect((await signIn(email, PASSWORD)).kind).toBe('mfa_setup_required');
    expect((await signIn(other, PASSWORD)).kind).toBe('signed_in');
  });

  it('refuses an unknown client, a bad role, a weak password and a duplicate e-mail', async () => {
    const { clientId } = await stack.createTenant();
    const code = async (args: string[]) => JSON.parse((await ops([...args, '--json'])).stdout).error.code as string;
    const email = uniqueEmail('dup');
    expect(await code(['operators', 'create', '--client', 'no-such-client', '--email', email, '--role', 'admin'])).toBe('NOT_FOUND');
    expect((await ops(['operators', 'create', '--client', clientId, '--email', email, '--role', 'owner', '--json'])).code).not.toBe(0);
    expect(await code(['operators', 'create', '--client', clientId, '--email', email, '--role', 'admin', '--password', 'short'])).toBe('VALIDATION_ERROR');
    await opsJson(['operators', 'create', '--client', clientId, '--email', email, '--role', 'admin', '--password', PASSWORD]);
    expect(await code(['operators', 'create', '--client', clientId, '--email', email, '--role', 'staff', '--password', PASSWORD])).toBe('VALIDATION_ERROR');
  });
});

describe('sign-in use cases and the token verifier', () => {
  let clientId: string;
  let email: string;

  beforeAll(async () => {
    clientId = (await stack.createTenant()).clientId;
    email = uniqueEmail('signin');
    await (await domain()).createOperator({ clientId, email, role: 'admin', password: PASSWORD });
  });

  it('signs in; the ID token names the operator, client and role after verification', async () => {
    const result = await (await domain()).signIn(email, PASSWORD);
    if (result.kind !== 'signed_in') throw new Error(result.kind);
    expect(await (await tokens()).operatorFromToken(result.tokens.idToken)).toEqual({ email, client_id: clientId, role: 'admin' });
  });

  it('answers a wrong password and an unknown e-mail with the same error', async () => {
    const { signIn, SignInRefusedError } = await domain();
    const wrongPassword = await signIn(email, 'Wrong-password-1').catch((error: unknown) => error);
    const unknownUser = await signIn(uniqueEmail('nobody'), PASSWORD).catch((error: unknown) => error);
    for (const error of [wrongPassword, unknownUser]) {
      expect(error).toBeInstanceOf(SignInRefusedError);
      expect((error as Error).message).toBe('Incorrect email or password');
    }
  });

  it('refreshes with the refresh token; after sign-out the refresh token is refused', async () => {
    const { signIn, refresh, signOut, SignInRefusedError } = await domain();
    const result = await signIn(email, PASSWORD);
    if (result.kind !== 'signed_in') throw new Error(result.kind);
    const refreshToken = result.tokens.refreshToken!;
    const refreshed = await refresh(refreshToken);
    expect((await (await tokens()).operatorFromToken(refreshed.idToken)).email).toBe(email);
    await signOut(refreshToken);
    await expect(refresh(refreshToken)).rejects.toBeInstanceOf(SignInRefusedError);
  });

  it('refuses an access token, a refresh token, a tampered token and a token of another app client', async () => {
    const { signIn } = await domain();
    const { operatorFromToken, InvalidOperatorTokenError, createTokenVerifier } = await tokens();
    const result = await signIn(email, PASSWORD);
    if (result.kind !== 'signed_in') throw new Error(result.kind);
    const { idToken, accessToken, refreshToken } = result.tokens;
    const [header, payload, signature] = idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, 'custom:client_id': 'another' })).toString('base64url'), signature].join('.');
    for (const token of [accessToken, refreshToken!, tampered, 'not-a-jwt']) {
      await expect(operatorFromToken(token)).rejects.toBeInstanceOf(InvalidOperatorTokenError);
    }
    const otherClient = createTokenVerifier({ issuer: stack.info.cognitoIssuer!, clientId: 'another-client', tokenUse: 'id' });
    await expect(otherClient.verify(idToken)).rejects.toThrow(/client/i);
  });
});
