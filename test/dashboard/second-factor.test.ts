/**
 * Operators' second factor against cognito-local (docs/behaviour.md "Payment safety in deployed
 * stages"): TOTP turned on from the Security page, the "Code" page Cognito's SOFTWARE_TOKEN_MFA
 * leads to, and an operator created with `--mfa required` made to set TOTP up before anything
 * opens. Cognito's own MFA_SETUP challenge, which cognito-local never sets, and the user context
 * data of each call are tested against a stubbed client (test/unit/operator-sign-in.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardClient, OPERATOR_PASSWORD, signedInOperator, textOf } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';
import { secretOnPage, totpCode, wrongCode } from '../support/totp';

let stack: TestStack;
let clientId: string;

const jarOf = (client: DashboardClient) => (client as unknown as { jar: Map<string, string> }).jar;
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

beforeAll(async () => {
  stack = await startTestStack();
  ({ clientId } = await stack.createTenant());
});

afterAll(async () => {
  await stack?.stop();
});

/** An operator of the tenant, created as the ops CLI creates one (`--mfa required` or not). */
async function newOperator(options: { mfa?: 'required'; password?: string | null } = {}) {
  const { createOperator } = await import('../../shared/domain/operators');
  const email = `mfa-${Math.random().toString(36).slice(2, 10)}@hotel.example`;
  const password = options.password === null ? undefined : (options.password ?? OPERATOR_PASSWORD);
  const created = await createOperator({ clientId, email, role: 'staff', password, mfa: options.mfa });
  return { email, password: password ?? created.temporary_password!, client: new DashboardClient(stack, email) };
}

/** Turns TOTP on from the Security page; the secret the page showed. */
async function turnOnTotp(operator: DashboardClient): Promise<string> {
  const setup = await operator.request('POST', '/dashboard/security/totp');
  expect(setup.status).toBe(200);
  const secret = secretOnPage(setup.text);
  const on = await operator.submit('/dashboard/security/totp/verify', { secret, code: totpCode(secret) });
  expect(on.status).toBe(200);
  return secret;
}

describe('the Security page', () => {
  it('shows two-step verification off, then turns TOTP on with an authenticator app: QR code, key, first code', async () => {
    const operator = await signedInOperator(stack, clientId, 'staff');
    const page = await operator.get('/dashboard/security');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Security</h1>');
    expect(page.text).toMatch(/aria-current="page">\s*Security/);
    expect(textOf(page.text)).toContain('Status Off: your password alone signs you in');
    expect(textOf(page.text)).toContain('Required No');

    const setup = await operator.request('POST', '/dashboard/security/totp');
    expect(setup.status).toBe(200);
    expect(setup.text).toContain('<h1>Set up an authenticator app</h1>');
    // The QR code is in the page (img-src data:), never at a URL of its own that would carry the secret.
    expect(setup.text).toMatch(/<img class="qr" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"/);
    expect(setup.text).toContain('<label for="f-code">Code</label>');
    expect(setup.text).toContain('inputmode="numeric"');
    expect(setup.text).not.toContain('<script');
    const secret = secretOnPage(setup.text);
    expect(setup.headers.get('content-security-policy')).toContain("img-src 'self' data:");

    const wrong = await operator.request('POST', '/dashboard/security/totp/verify', { secret, code: wrongCode(secret) });
    expect(wrong.status).toBe(400);
    expect(textOf(wrong.text)).toContain('That code is not right');
    expect(secretOnPage(wrong.text)).toBe(secret);
    expect(textOf((await operator.get('/dashboard/security')).text)).toContain('Status Off');

    const on = await operator.submit('/dashboard/security/totp/verify', { secret, code: totpCode(secret) });
    expect(on.status).toBe(200);
    expect(textOf(on.text)).toContain('Two-step verification is on.');
    expect(textOf(on.text)).toContain('Status On: after your password, a code from your authenticator app');
    // Recorded with the operator and the time, as every dashboard action.
    const audit = await signedInOperator(stack, clientId, 'staff');
    expect(textOf((await audit.get('/dashboard/audit')).text)).toContain('Turned on sign-in codes from an authenticator app');
  });

  it('is behind a session, and its forms refuse another origin', async () => {
    const anonymous = new DashboardClient(stack, 'nobody@hotel.example');
    expect((await anonymous.get('/dashboard/security')).location).toBe('/dashboard/sign-in');
    const operator = await signedInOperator(stack, clientId, 'staff');
    const forged = await operator.request('POST', '/dashboard/security/totp', {}, { origin: 'http://evil.example' });
    expect(forged.status).toBe(403);
  });
});

describe('the Code page (Cognito: SOFTWARE_TOKEN_MFA)', () => {
  it('asks an operator with TOTP for a code after the password; a wrong code opens nothing; the right one signs in', async () => {
    const operator = await signedInOperator(stack, clientId, 'staff');
    const secret = await turnOnTotp(operator);
    await operator.submit('/dashboard/sign-out');

    const visitor = new DashboardClient(stack, operator.email);
    const password = await visitor.request('POST', '/dashboard/sign-in', { email: operator.email, password: OPERATOR_PASSWORD });
    expect(password.status).toBe(200);
    expect(password.text).toContain('<title>Code · Hotel dashboard</title>');
    expect(password.text).toContain('<h1>Code</h1>');
    expect(password.text).toContain('<label for="f-code">Code</label>');
    expect(password.text).toContain('autocomplete="one-time-code"');
    expect(password.headers.getSetCookie()).toEqual([]);
    expect(visitor.hasSession()).toBe(false);
    const pending = { email: operator.email, username: hidden(password.text, 'username')!, session: hidden(password.text, 'session')! };
    expect(pending.session).toBeTruthy();

    const wrong = await visitor.request('POST', '/dashboard/sign-in/code', { ...pending, code: wrongCode(secret) });
    expect(wrong.status).toBe(401);
    expect(textOf(wrong.text)).toContain('That code is not right');
    expect(wrong.text).toContain('href="#f-code"');
    expect(visitor.hasSession()).toBe(false);
    const notDigits = await visitor.request('POST', '/dashboard/sign-in/code', { ...pending, code: 'abcdef' });
    expect(notDigits.status).toBe(401);

    const right = await visitor.submit('/dashboard/sign-in/code', { ...pending, code: totpCode(secret) });
    expect(right.status).toBe(200);
    expect(right.text).toContain('<h1>Overview</h1>');
    expect(visitor.hasSession()).toBe(true);
  });

  it('replacing the authenticator app asks for the password and a current code first; the session alone gets no new secret', async () => {
    const operator = await signedInOperator(stack, clientId, 'staff');
    const secret = await turnOnTotp(operator);

    // Signed in (just now, with the password): the replacement still asks.
    const asked = await operator.request('POST', '/dashboard/security/totp');
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('<h1>Confirm your password</h1>');
    expect(asked.text).toContain('<label for="f-current_code">Code from your current app</label>');
    expect(asked.text).not.toContain('Set up an authenticator app</h1>');
    const wrongPassword = await operator.request('POST', '/dashboard/security/totp', { current_password: 'Not-the-password-1', current_code: totpCode(secret) });
    expect(wrongPassword.status).toBe(401);
    expect(textOf(wrongPassword.text)).toContain('Incorrect password');
    const wrongCodeAnswer = await operator.request('POST', '/dashboard/security/totp', { current_password: OPERATOR_PASSWORD, current_code: wrongCode(secret) });
    expect(wrongCodeAnswer.status).toBe(401);
    expect(textOf(wrongCodeAnswer.text)).toContain('That code is not right');
    for (const page of [asked, wrongPassword, wrongCodeAnswer]) expect(page.text).not.toMatch(/otpauth:\/\//);

    const confirmed = await operator.request('POST', '/dashboard/security/totp', { current_password: OPERATOR_PASSWORD, current_code: totpCode(secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('<h1>Set up an authenticator app</h1>');
    expect(secretOnPage(confirmed.text)).not.toBe(secret);
    // The check opened no session of its own: the operator's is the one they had.
    expect((await operator.get('/dashboard/security')).status).toBe(200);
  });

  it('still answers a wrong password with "Incorrect email or password", before any code', async () => {
    const operator = await signedInOperator(stack, clientId, 'staff');
    await turnOnTotp(operator);
    const visitor = new DashboardClient(stack, operator.email);
    const page = await visitor.signIn('Wrong-password-1');
    expect(page.status).toBe(401);
    expect(textOf(page.text)).toContain('Incorrect email or password');
  });
});

describe('an operator created with --mfa required', () => {
  it('sets TOTP up after the password, before any page opens, then signs in with a code', async () => {
    const { email, client: visitor } = await newOperator({ mfa: 'required' });
    const posted = await visitor.request('POST', '/dashboard/sign-in', { email, password: OPERATOR_PASSWORD });
    // POST-redirect-GET: the set-up page is a GET, which a reload or going back shows again.
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/dashboard/sign-in/mfa-setup');
    // No session: only the set-up cookies, which open no page.
    const cookies = posted.headers.getSetCookie();
    expect(cookies.map((c) => c.split('=')[0])).toEqual(['dashboard_mfa_setup', 'dashboard_mfa_setup_page']);
    for (const cookie of cookies) {
      expect(cookie).toContain('; HttpOnly');
      expect(cookie).toContain('; SameSite=Strict');
    }
    const setup = await visitor.get('/dashboard/sign-in/mfa-setup');
    expect(setup.status).toBe(200);
    expect(setup.text).toContain('<h1>Set up two-step verification</h1>');
    expect(setup.text).toMatch(/<img class="qr" src="data:image\/svg\+xml;base64,/);
    expect(setup.text).toContain('<label for="f-code">Code</label>');
    // Reloaded: the same key, never a raw error.
    const reloaded = await visitor.get('/dashboard/sign-in/mfa-setup');
    expect(reloaded.status).toBe(200);
    expect(secretOnPage(reloaded.text)).toBe(secretOnPage(setup.text));
    expect(visitor.hasSession()).toBe(false);
    const blocked = await visitor.get('/dashboard');
    expect(blocked.status).toBe(303);
    expect(blocked.location).toBe('/dashboard/sign-in');
    // The access token in it is not an ID token: put where a session goes, it opens nothing either.
    const forged = new DashboardClient(stack, email);
    jarOf(forged).set('dashboard_id', jarOf(visitor).get('dashboard_mfa_setup')!);
    expect((await forged.get('/dashboard')).location).toBe('/dashboard/sign-in');

    const secret = secretOnPage(setup.text);
    const wrong = await visitor.request('POST', '/dashboard/sign-in/mfa-setup', { email, secret, code: wrongCode(secret) });
    expect(wrong.status).toBe(401);
    expect(textOf(wrong.text)).toContain('That code is not right');
    expect(secretOnPage(wrong.text)).toBe(secret);

    const done = await visitor.request('POST', '/dashboard/sign-in/mfa-setup', { email, secret, code: totpCode(secret) });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/dashboard/sign-in');
    expect(done.headers.getSetCookie().some((c) => c.startsWith('dashboard_mfa_setup=;') && c.includes('Max-Age=0'))).toBe(true);
    expect(visitor.hasSession()).toBe(false);
    expect(textOf((await visitor.get('/dashboard/sign-in')).text)).toContain('Two-step verification is on. Sign in with your password and a code from your app.');
    // Going back to the set-up page once it is done: the sign-in page, not an error.
    const back = await visitor.get('/dashboard/sign-in/mfa-setup');
    expect(back.status).toBe(303);
    expect(back.location).toBe('/dashboard/sign-in');

    // From now on Cognito itself asks for the code.
    const again = await visitor.request('POST', '/dashboard/sign-in', { email, password: OPERATOR_PASSWORD });
    expect(again.text).toContain('<h1>Code</h1>');
    const inside = await visitor.submit('/dashboard/sign-in/code', {
      email,
      username: hidden(again.text, 'username')!,
      session: hidden(again.text, 'session')!,
      code: totpCode(secret),
    });
    expect(inside.text).toContain('<h1>Overview</h1>');
    const security = await visitor.get('/dashboard/security');
    expect(textOf(security.text)).toContain('Required Yes, for your account');
  });

  it('with a temporary password: a new password first, then the set-up', async () => {
    const { email, password, client: visitor } = await newOperator({ mfa: 'required', password: null });
    const challenge = await visitor.signIn(password);
    expect(textOf(challenge.text)).toContain('Choose a new password');
    const fields = { email, username: hidden(challenge.text, 'username')!, session: hidden(challenge.text, 'session')! };
    const setup = await visitor.submit('/dashboard/new-password', { ...fields, new_password: 'Brand-new-pass-7' });
    expect(setup.status).toBe(200);
    expect(setup.text).toContain('<h1>Set up two-step verification</h1>');
    expect(visitor.hasSession()).toBe(false);
  });

  it('answers a set-up without its cookie (expired, or another browser) with the sign-in form', async () => {
    const { email, client: visitor } = await newOperator({ mfa: 'required' });
    const setup = await visitor.submit('/dashboard/sign-in', { email, password: OPERATOR_PASSWORD });
    const secret = secretOnPage(setup.text);
    const elsewhere = new DashboardClient(stack, email);
    const page = await elsewhere.request('POST', '/dashboard/sign-in/mfa-setup', { email, secret, code: totpCode(secret) });
    expect(page.status).toBe(401);
    expect(textOf(page.text)).toContain('That sign-in expired: sign in again');
  });
});
