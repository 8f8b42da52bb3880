/**
 * Who gets in and what every page promises (docs/behaviour.md "Hotel dashboard"): sign-in with the
 * wrong and the right password, cookie flags, sign-out revoking the session, the headers of every
 * page, a POST from another origin refused, staff kept out of Integrations, the tenant from the
 * token only, and every navigation link answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAV } from '../../shared/dashboard/layout';
import { DashboardClient, OPERATOR_PASSWORD, signedInOperator, textOf } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let clientId: string;
let admin: DashboardClient;
let staff: DashboardClient;

const jarOf = (client: DashboardClient) => (client as unknown as { jar: Map<string, string> }).jar;

beforeAll(async () => {
  stack = await startTestStack();
  ({ clientId } = await stack.createTenant());
  [admin, staff] = await Promise.all([signedInOperator(stack, clientId, 'admin'), signedInOperator(stack, clientId, 'staff')]);
});

afterAll(async () => {
  await stack?.stop();
});

describe('sign-in', () => {
  it('sends a visitor without a session to the sign-in form', async () => {
    const anonymous = new DashboardClient(stack, 'nobody@hotel.example');
    const page = await anonymous.get('/dashboard/bookings');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/dashboard/sign-in');
    const form = await anonymous.get(page.location!);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="f-email">Email</label>');
    expect(form.text).toContain('<label for="f-password">Password</label>');
  });

  it('answers a wrong password with the form again and "Incorrect email or password", and sets no cookie', async () => {
    const visitor = new DashboardClient(stack, admin.email);
    const page = await visitor.signIn('Wrong-password-1');
    expect(page.status).toBe(401);
    expect(textOf(page.text)).toContain('Incorrect email or password');
    expect(page.headers.getSetCookie()).toEqual([]);
    // An unknown e-mail reads the same.
    const unknown = await new DashboardClient(stack, 'nobody@hotel.example').signIn(OPERATOR_PASSWORD);
    expect(unknown.status).toBe(401);
    expect(textOf(unknown.text)).toContain('Incorrect email or password');
  });

  it('keeps the tokens in HttpOnly, SameSite=Strict cookies on the dashboard path (no Secure on the local stack)', async () => {
    const visitor = new DashboardClient(stack, staff.email);
    const posted = await visitor.request('POST', '/dashboard/sign-in', { email: staff.email, password: OPERATOR_PASSWORD });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/dashboard');
    const cookies = posted.headers.getSetCookie();
    expect(cookies.map((c) => c.split('=')[0])).toEqual(['dashboard_id', 'dashboard_access', 'dashboard_refresh']);
    for (const cookie of cookies) {
      expect(cookie).toContain('; HttpOnly');
      expect(cookie).toContain('; SameSite=Strict');
      expect(cookie).toContain('; Path=/dashboard');
      expect(cookie).not.toContain('Secure');
    }
  });

  it('renews an ID token that no longer verifies with the refresh token, and signs out for good', async () => {
    const operator = await signedInOperator(stack, clientId, 'staff');
    // As after the ID token's 15 minutes: the session is renewed, not ended.
    jarOf(operator).set('dashboard_id', 'expired.or.forged');
    const renewed = await operator.get('/dashboard');
    expect(renewed.status).toBe(200);
    expect(renewed.headers.getSetCookie().some((c) => c.startsWith('dashboard_id=ey'))).toBe(true);

    const refreshToken = jarOf(operator).get('dashboard_refresh')!;
    const out = await operator.submit('/dashboard/sign-out');
    expect(textOf(out.text)).toContain('Signed out.');
    expect(operator.hasSession()).toBe(false);
    // The refresh token was revoked: put back, it renews nothing.
    const replay = new DashboardClient(stack, operator.email);
    jarOf(replay).set('dashboard_refresh', refreshToken);
    const refused = await replay.get('/dashboard');
    expect(refused.status).toBe(303);
    expect(refused.location).toBe('/dashboard/sign-in');
  });
});

describe('every page', () => {
  it('answers every navigation link for an admin, with a CSP without scripts, no framing, no referrer to other sites and no caching', async () => {
    for (const item of NAV) {
      const page = await admin.get(item.path);
      expect(page.status, item.path).toBe(200);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src|unsafe-inline/);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.text).not.toContain('<script');
      expect(page.text).toContain(`aria-current="page">${item.label}</a>`);
      expect(page.text).toContain('Sign out</button>');
    }
  });

  it('refuses a POST from another origin, or without one, with 403 and changes nothing', async () => {
    const before = textOf((await admin.get('/dashboard/integrations')).text);
    for (const origin of ['http://evil.example', 'null', '']) {
      const page = await admin.request('POST', '/dashboard/integrations/keys', { kind: 'sync', scopes: 'rooms:write', name: 'forged' }, { origin });
      expect(page.status, origin).toBe(403);
    }
    const after = textOf((await admin.get('/dashboard/integrations')).text);
    expect(after).not.toContain('forged');
    expect(after.match(/active Revoke/g)?.length ?? 0).toBe(before.match(/active Revoke/g)?.length ?? 0);
  });

  it('keeps staff out of Integrations (403), page and actions alike', async () => {
    expect((await staff.get('/dashboard/integrations')).status).toBe(403);
    expect((await staff.request('POST', '/dashboard/integrations/keys', { kind: 'sync', scopes: 'rooms:write' })).status).toBe(403);
    expect((await staff.get('/dashboard/rooms')).status).toBe(200);
  });

  it("cannot touch another client's key, whatever the URL says", async () => {
    const other = await stack.createTenant();
    const revoke = await admin.submit(`/dashboard/integrations/keys/${encodeURIComponent(other.syncKeyId)}/revoke`);
    expect(textOf(revoke.text)).toContain('No such key');
    const still = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2031-01-01&check_out_date=2031-01-02&guests=1', {
      key: other.syncKey,
    });
    expect(still.status).toBe(200);
  });
});

describe('a temporary password', () => {
  it('must be replaced at the first sign-in; the new one must meet the policy', async () => {
    const { createOperator } = await import('../../shared/domain/operators');
    const email = `new-hire-${Math.random().toString(36).slice(2, 8)}@hotel.example`;
    const created = await createOperator({ clientId, email, role: 'staff' });
    const visitor = new DashboardClient(stack, email);
    const challenge = await visitor.signIn(created.temporary_password!);
    expect(challenge.status).toBe(200);
    expect(textOf(challenge.text)).toContain('Choose a new password');
    expect(visitor.hasSession()).toBe(false);
    const session = /name="session" value="([^"]+)"/.exec(challenge.text)?.[1];
    expect(session).toBeDefined();

    const weak = await visitor.submit('/dashboard/new-password', { email, session: session!, new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(textOf(weak.text)).toContain('The password needs at least 12 characters');

    const done = await visitor.submit('/dashboard/new-password', { email, session: session!, new_password: 'Brand-new-pass-7' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('<h1>Overview</h1>');
    expect(visitor.hasSession()).toBe(true);
    // The temporary password is spent; the new one signs in.
    expect((await new DashboardClient(stack, email).signIn(created.temporary_password!)).status).toBe(401);
    expect((await new DashboardClient(stack, email).signIn('Brand-new-pass-7')).status).toBe(200);
  });
});
