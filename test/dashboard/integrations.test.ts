/**
 * Integrations, as an admin uses it: a sync key made with one scope works with exactly that
 * scope, is shown once and never again; revoking it, and rotating a signing secret, first open a
 * confirmation page of their own and act only on its form; a payment key follows the plan rules;
 * callback URLs are checked as the API checks them, a refused one comes back beside its field with
 * what was typed, and saving a new URL keeps the signing secret (only its first save, and a
 * rotation, show one); every action leaves an audit entry naming the operator. Money routing: the
 * Stripe accounts the platform linked (ops CLI) are the only ones an admin can choose; choosing
 * one, creating a payment key and changing a callback or webhook URL ask for the password again
 * (at most 5 minutes old) and are audited with the old and the new value. Staff print the
 * reception QR sheet but never reach Integrations.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPasswordPrompt, OPERATOR_PASSWORD, passwordPromptForm, signedInOperator, textOf, type DashboardClient } from '../support/dashboard-client';
import { runOps } from '../support/ops-cli';
import { startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let clientId: string;
let admin: DashboardClient;

const AVAILABILITY = '/api/v1/property-sync/availability?check_in_date=2031-01-01&check_out_date=2031-01-02&guests=1';
const ROOMS = '/api/v1/property-sync/rooms';
const SYNC_KEY = /svc_sync_[A-Za-z0-9_-]{32,}/;
const SHOWN_SECRET = /Signing secret: <code class="secret">([^<]+)<\/code>/;

beforeAll(async () => {
  stack = await startTestStack();
  ({ clientId } = await stack.createTenant());
  admin = await signedInOperator(stack, clientId, 'admin');
});

afterAll(async () => {
  await stack?.stop();
});

afterEach(() => {
  vi.useRealTimers();
});

/** The `<input>` (or select) of a field by its id, as rendered. */
const control = (html: string, id: string) => new RegExp(`<(input|select)[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? '';

/** The error summary's links, as `#field: text`. */
const summaryLinks = (html: string) =>
  [...(/<div class="error-summary"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '').matchAll(/<a href="(#[^"]+)">([^<]+)<\/a>/g)].map((m) => `${m[1]}: ${textOf(m[2]!)}`);

describe('keys', () => {
  it('creates a sync key with one scope, shown once, that can do exactly that', async () => {
    const page = await admin.submitConfirmed('/dashboard/integrations/keys', { kind: 'sync', scopes: 'availability:read', sync_name: 'Night audit' });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const key = SYNC_KEY.exec(page.text)?.[0];
    expect(key).toBeDefined();
    expect(textOf(page.text)).toContain('Copy it now: it is not shown again.');

    expect((await stack.request('GET', AVAILABILITY, { key })).status).toBe(200);
    const write = await stack.request('PUT', ROOMS, { key, body: { external_source: 'pms', rooms: [] } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');

    // A reload shows the key's metadata, not the key.
    const reloaded = await admin.get('/dashboard/integrations');
    expect(reloaded.text).not.toContain(key);
    expect(textOf(reloaded.text)).toContain('Night audit');
  });

  it('revokes a key only from its confirmation page: "Revoke" opens it, a bare POST changes nothing, its form revokes', async () => {
    const page = await admin.submitConfirmed('/dashboard/integrations/keys', { kind: 'sync', scopes: ['availability:read', 'rooms:write'], sync_name: 'Channel manager' });
    const key = SYNC_KEY.exec(page.text)?.[0];
    const keyId = /key id ([0-9a-f-]{36})/.exec(textOf(page.text))?.[1];
    expect(keyId).toBeDefined();
    const listed = await admin.get('/dashboard/integrations');
    expect(textOf(listed.text)).toContain(`${keyId} availability:read, rooms:write`);
    // "Revoke" is a destructive-looking button that only opens the confirmation page (a GET form).
    const path = `/dashboard/integrations/keys/${keyId}/revoke`;
    expect(listed.text).toMatch(new RegExp(`<form method="get" action="${path}" class="inline"><button type="submit" class="destructive" aria-label="Revoke the key “Channel manager”">Revoke</button>`));

    const confirm = await admin.get(path);
    expect(confirm.status).toBe(200);
    const words = textOf(confirm.text);
    expect(words).toContain('Revoke this sync key?');
    expect(words).toContain('Name Channel manager');
    expect(words).toContain('Scopes availability:read, rooms:write');
    expect(words).toContain('is refused within a minute');
    expect(words).toContain('This cannot be undone.');
    expect(confirm.text).toContain(`<form method="post" action="${path}" class="actions"><input type="hidden" name="confirm" value="yes"/><button type="submit" class="destructive">Revoke key</button>`);
    expect(confirm.text).toMatch(/<a href="\/dashboard\/integrations#sync-keys">Cancel<\/a>/);

    // One click from anywhere else (no confirm=yes) is sent to the confirmation page; the key stays active.
    const bare = await admin.request('POST', path);
    expect(bare.status).toBe(303);
    expect(bare.location).toBe(path);
    const { listClientKeys } = await import('../../shared/domain/clients');
    expect((await listClientKeys(clientId)).find((k) => k.key_id === keyId)?.revoked_at).toBeUndefined();

    const revoked = await admin.submit(path, { confirm: 'yes' });
    expect(textOf(revoked.text)).toContain(`Key ${keyId} was revoked`);
    expect(textOf(revoked.text)).toMatch(new RegExp(`${keyId} availability:read, rooms:write .* revoked`));
    expect((await stack.request('GET', AVAILABILITY, { key })).status).toBe(401);
    // Its confirmation page now says so, with no button.
    const after = await admin.get(path);
    expect(textOf(after.text)).toContain('This key was already revoked on');
    expect(after.text).not.toContain('Revoke key</button>');

    const audit = textOf((await admin.get('/dashboard/audit')).text);
    expect(audit).toContain('Created a sync key "Channel manager"');
    expect(audit).toContain(`${admin.email} Revoked a sync key`);
  });

  it("answers 404 for another client's key on its confirmation page, and revokes nothing", async () => {
    const other = await stack.createTenant();
    const page = await admin.get(`/dashboard/integrations/keys/${other.syncKeyId}/revoke`);
    expect(page.status).toBe(404);
    expect(textOf(page.text)).toContain('No such key');
    const posted = await admin.request('POST', `/dashboard/integrations/keys/${other.syncKeyId}/revoke`, { confirm: 'yes' });
    expect(textOf((await admin.get(posted.location!)).text)).toContain('No such key');
    expect((await stack.request('GET', AVAILABILITY, { key: other.syncKey })).status).toBe(200);
  });

  it('refuses a sync key without a scope beside the scopes, keeping the name typed (400)', async () => {
    const noScope = await admin.request('POST', '/dashboard/integrations/keys', { kind: 'sync', sync_name: 'Front desk PMS' });
    expect(noScope.status).toBe(400);
    expect(noScope.text).not.toMatch(SYNC_KEY);
    expect(summaryLinks(noScope.text)).toEqual(['#f-scopes: Choose at least one scope: what the key may do']);
    expect(noScope.text).toContain('<small id="f-scopes-error" class="field-error">Choose at least one scope: what the key may do</small>');
    expect(control(noScope.text, 'f-scopes')).toMatch(/type="checkbox"/);
    expect(control(noScope.text, 'f-sync_name')).toContain('value="Front desk PMS"');
    // The summary is in the sync key's own section, whose anchor the form posts to.
    const section = /<section aria-labelledby="create-sync-key">[\s\S]*?<\/section>/.exec(noScope.text)?.[0] ?? '';
    expect(section).toContain('There is a problem');
    expect(section).toContain('action="/dashboard/integrations/keys#create-sync-key"');
    expect(/<section aria-labelledby="create-payment-key">[\s\S]*?<\/section>/.exec(noScope.text)?.[0]).not.toContain('There is a problem');
  });

  it('refuses origins that are not websites beside the field, and a payment key on the standard plan', async () => {
    const bad = await admin.request('POST', '/dashboard/integrations/keys', { kind: 'payment', origins: 'https://hotel.example, hotel dot example', payment_name: 'Shop' });
    expect(bad.status).toBe(400);
    expect(isPasswordPrompt(bad)).toBe(false);
    expect(summaryLinks(bad.text)).toEqual(['#f-origins: “hotel”, “dot”, “example” are not website addresses: write each one in full, like https://hotel.example']);
    expect(control(bad.text, 'f-origins')).toContain('value="https://hotel.example, hotel dot example"');
    expect(control(bad.text, 'f-payment_name')).toContain('value="Shop"');

    const { createClientAccount } = await import('../../shared/domain/clients');
    const standard = await createClientAccount({ name: 'Standard hotel', plan: 'standard' });
    const standardAdmin = await signedInOperator(stack, standard.client_id, 'admin');
    const refused = await standardAdmin.request('POST', '/dashboard/integrations/keys', { kind: 'payment', origins: 'https://hotel.example' });
    expect(refused.status).toBe(403);
    expect(textOf(refused.text)).toContain('There is a problem Payment keys need the premium plan; your hotel is on standard.');
    expect(refused.text).not.toMatch(/svc_pay_/);
  });

  it('creates a payment key with its allowed origins', async () => {
    const page = await admin.submitConfirmed('/dashboard/integrations/keys', { kind: 'payment', origins: 'https://book.hotel.example, https://hotel.example', payment_name: 'Website' });
    const key = /svc_pay_[A-Za-z0-9_-]{32,}/.exec(page.text)?.[0];
    expect(key).toBeDefined();
    const lookup = await stack.request('GET', '/api/v1/payments/payment-orders/nope', { key, headers: { Origin: 'https://evil.example' } });
    expect(lookup.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(textOf((await admin.get('/dashboard/integrations')).text)).toContain('https://book.hotel.example, https://hotel.example');
  });

  it('offers the deliveries scopes on a payment key: with deliveries:read it lists its webhook deliveries, without it 403', async () => {
    expect((await admin.get('/dashboard/integrations')).text).toContain('name="payment_scopes" value="deliveries:read"');
    const reading = await admin.submitConfirmed('/dashboard/integrations/keys', { kind: 'payment', payment_scopes: 'deliveries:read', payment_name: 'Webhook reader' });
    const readingKey = /svc_pay_[A-Za-z0-9_-]{32,}/.exec(reading.text)?.[0];
    const plain = await admin.submitConfirmed('/dashboard/integrations/keys', { kind: 'payment', payment_name: 'Checkout' });
    const plainKey = /svc_pay_[A-Za-z0-9_-]{32,}/.exec(plain.text)?.[0];
    expect((await stack.request('GET', '/api/v1/deliveries', { key: readingKey })).status).toBe(200);
    const refused = await stack.request('GET', '/api/v1/deliveries', { key: plainKey });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('callback URL and provider', () => {
  it('says which events each URL receives: every booking event to the PMS, payments and refunds to the website', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const page = await hotelAdmin.get('/dashboard/integrations');
    const section = (kind: string) => textOf(new RegExp(`<section aria-labelledby="endpoint-${kind}">[\\s\\S]*?</section>`).exec(page.text)?.[0] ?? '');
    for (const event of ['booking.confirmed', 'booking.modified', 'booking.cancelled', 'booking.no_show']) expect(section('callback')).toContain(event);
    for (const event of ['payment_order.paid', 'payment_order.refunded']) expect(section('webhook')).toContain(event);
    expect(section('callback')).not.toContain('payment_order.');
  });

  it('refuses a URL pointing inside the network beside its field, with what was typed, before asking for the password', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const typed = 'https://169.254.169.254/latest';
    const page = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/callback', { callback_url: typed });
    expect(page.status).toBe(400);
    expect(isPasswordPrompt(page)).toBe(false);
    const [link] = summaryLinks(page.text);
    expect(link).toMatch(/^#f-callback_url: The URL must not point inside the network/);
    expect(control(page.text, 'f-callback_url')).toContain(`value="${typed}"`);
    expect(control(page.text, 'f-callback_url')).toContain('aria-invalid="true"');
    // The message right under the field, in the callback's section; the webhook's untouched.
    const section = /<section aria-labelledby="endpoint-callback">[\s\S]*?<\/section>/.exec(page.text)?.[0] ?? '';
    expect(section).toMatch(/id="f-callback_url"[^>]*>[\s\S]*?<small id="f-callback_url-error" class="field-error">The URL must not point inside the network/);
    expect(section).toContain('action="/dashboard/integrations/endpoints/callback#endpoint-callback"');
    expect(control(page.text, 'f-webhook_url')).not.toContain('aria-invalid');
    expect(page.text).not.toContain('Signing secret:');

    const notAUrl = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/webhook', { webhook_url: 'shop.example/hooks' });
    expect(summaryLinks(notAUrl.text)).toEqual(['#f-webhook_url: Enter the full address, starting with https://, such as https://hotel.example/hooks/payment']);
    expect(control(notAUrl.text, 'f-webhook_url')).toContain('value="shop.example/hooks"');
    const empty = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/callback', { callback_url: ' ' });
    expect(summaryLinks(empty.text)[0]).toMatch(/^#f-callback_url: Enter the callback URL/);
  });

  it('shows the signing secret once, with the first URL; a new URL keeps it, and deliveries are signed with it', async () => {
    const tenant = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, tenant.clientId, 'admin');
    const receiver = await startReceiver();
    try {
      const first = await hotelAdmin.submitConfirmed('/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/pms' });
      const secret = SHOWN_SECRET.exec(first.text)?.[1];
      expect(secret).toMatch(/^whsec_/);
      expect(textOf(first.text)).toContain('Now: http://127.0.0.1:9/pms');

      const moved = await hotelAdmin.submitConfirmed('/dashboard/integrations/endpoints/callback', { callback_url: receiver.url });
      expect(textOf(moved.text)).toContain(`The callback URL is now ${receiver.url}. The signing secret has not changed: the receiver keeps the one it has.`);
      expect(moved.text).not.toContain('Signing secret:');
      const { getEndpoint, signingSecretOf } = await import('../../shared/store/endpoint-store');
      expect(await signingSecretOf((await getEndpoint(tenant.clientId, 'callback'))!)).toBe(secret);

      // A booking made now reaches the new URL signed with the secret shown at first.
      const rooms = await stack.request('PUT', ROOMS, {
        key: tenant.syncKey,
        body: { external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '101', room_type: 'double', price: 100, max_occupancy: 2 }] },
      });
      expect(rooms.status).toBe(200);
      const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
      const { listRooms } = await import('../../shared/store/room-store');
      const [room] = await listRooms(tenant.clientId);
      await createReceptionBooking(tenant.clientId, room!.id, {
        guest_name: 'Ada Lovelace',
        guest_email: 'ada@example.com',
        check_in_date: '2031-03-01',
        check_out_date: '2031-03-03',
        guests: 1,
        total_amount: 200,
      });
      const delivered = await waitFor('the booking.confirmed callback', async () => receiver.received[0]);
      const { verifySignature } = await import('../../shared/receiver-kit');
      expect(verifySignature(delivered.rawBody, delivered.headers['x-service-signature'] as string, secret!)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('rotates a secret only from its confirmation page, which says what the receiver will do', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const saved = await hotelAdmin.submitConfirmed('/dashboard/integrations/endpoints/webhook', { webhook_url: 'http://127.0.0.1:9/shop' });
    const first = SHOWN_SECRET.exec(saved.text)?.[1];
    expect(first).toBeDefined();
    const path = '/dashboard/integrations/endpoints/webhook/rotate';
    expect(saved.text).toContain(`<form method="get" action="${path}" class="inline"><button type="submit" class="secondary"`);

    const confirm = await hotelAdmin.get(path);
    expect(confirm.status).toBe(200);
    const words = textOf(confirm.text);
    expect(words).toContain('Rotate the webhook signing secret?');
    expect(words).toContain('Webhook URL http://127.0.0.1:9/shop');
    expect(words).toContain('The current secret keeps working beside it for 24 hours.');
    expect(confirm.text).toContain('<button type="submit" class="destructive">Rotate secret</button>');
    expect(confirm.text).toContain('<a href="/dashboard/integrations#endpoint-webhook">Cancel</a>');

    const { getEndpoint } = await import('../../shared/store/endpoint-store');
    const sealed = (await getEndpoint(hotel, 'webhook'))!.sealed_secret;
    const bare = await hotelAdmin.request('POST', path);
    expect(bare.status).toBe(303);
    expect(bare.location).toBe(path);
    expect((await getEndpoint(hotel, 'webhook'))!.sealed_secret).toBe(sealed);

    const rotated = await hotelAdmin.submitConfirmed(path, { confirm: 'yes' });
    const second = SHOWN_SECRET.exec(rotated.text)?.[1];
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(textOf(rotated.text)).toContain('The webhook signing secret was rotated');
    expect((await hotelAdmin.get('/dashboard/integrations')).text).not.toContain(second!);
    expect(textOf((await hotelAdmin.get('/dashboard/audit')).text)).toContain(`${hotelAdmin.email} Rotated the signing secret of`);

    // No URL, no secret: the confirmation page says so and offers no button.
    const none = await hotelAdmin.get('/dashboard/integrations/endpoints/callback/rotate');
    expect(textOf(none.text)).toContain('There is no callback URL yet, so there is no secret to rotate');
    expect(none.text).not.toContain('Rotate secret</button>');
    expect((await hotelAdmin.get('/dashboard/integrations/endpoints/sms/rotate')).status).toBe(404);
  });

  it('sets the payment provider through the same rules as the CLI; a refusal stays by the field', async () => {
    const { linkStripeAccount } = await import('../../shared/domain/payments/provider-accounts');
    await linkStripeAccount(clientId, 'acct_1A2b3C4d5E');
    const bad = await admin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'not-an-account' });
    expect(bad.status).toBe(400);
    expect(summaryLinks(bad.text)).toEqual(['#f-account: Stripe needs the connected account id (acct_…)']);
    const good = await admin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1A2b3C4d5E' });
    expect(textOf(good.text)).toContain('Payments now use Stripe (acct_1A2b3C4d5E)');
    await admin.submitConfirmed('/dashboard/integrations/provider', { provider: 'sandbox' });
  });
});

describe('staff', () => {
  it('open and print the reception QR sheet, linked from Rooms, but never reach Integrations or the hotel settings', async () => {
    const tenant = await stack.createTenant();
    const { updateClientProfile } = await import('../../shared/store/api-key-store');
    await updateClientProfile(tenant.clientId, { name: 'Hotel Miramar' });
    const staff = await signedInOperator(stack, tenant.clientId, 'staff');
    const rooms = await staff.get('/dashboard/rooms');
    expect(rooms.text).toContain('<a href="/dashboard/qr-sheet">Print the reception QR code</a>');

    const sheet = await staff.get('/dashboard/qr-sheet');
    expect(sheet.status).toBe(200);
    const qr = /<div class="qr-sheet">([\s\S]*?)<\/div>/.exec(sheet.text)?.[1] ?? '';
    const url = `${stack.url}/book/${tenant.clientId}`;
    expect(textOf(qr)).toBe(`Hotel Miramar Scan to book your room ${url}`);
    expect(qr).toContain(`<img src="/book/${tenant.clientId}/qr.svg" alt="QR code of the booking page ${url}"`);
    expect((await staff.get(`/book/${tenant.clientId}/qr.svg`)).headers.get('content-type')).toContain('image/svg+xml');
    // Nothing internal beyond the booking page's own URL.
    expect(textOf(sheet.text).replaceAll(url, '')).not.toContain(tenant.clientId);

    for (const path of ['/dashboard/integrations', '/dashboard/settings', `/dashboard/integrations/keys/${tenant.syncKeyId}/revoke`, '/dashboard/integrations/endpoints/callback/rotate']) {
      expect((await staff.get(path)).status, path).toBe(403);
    }
    expect((await staff.request('POST', `/dashboard/integrations/keys/${tenant.syncKeyId}/revoke`, { confirm: 'yes' })).status).toBe(403);
    expect((await stack.request('GET', AVAILABILITY, { key: tenant.syncKey })).status).toBe(200);
  });
});

describe('money routing: linked Stripe accounts and the password asked again', () => {
  let dir: string;
  let stackFile: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'integrations-test-'));
    stackFile = join(dir, 'stack.json');
    writeFileSync(stackFile, JSON.stringify(stack.info));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const link = async (client: string, account: string) => {
    const run = await runOps(stackFile, ['clients', 'link-stripe-account', '--client', client, '--account', account, '--json']);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as { linked_accounts: string[] };
  };

  /** The client's audit entries of `action`, newest first, as recorded (the Audit page tells them in words). */
  const audited = async (hotel: string, action: string) => {
    const { listAudit } = await import('../../shared/domain/audit');
    return (await listAudit(hotel)).entries.filter((entry) => entry.action === action);
  };

  it('offers only the accounts the platform linked, in a select; refuses any other; audits old and new', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const before = await hotelAdmin.get('/dashboard/integrations');
    expect(textOf(before.text)).toContain('No Stripe account is linked to your hotel yet');
    expect(before.text).not.toMatch(/name="account"/);
    // Choosing Stripe then is refused by the provider field, before any password.
    const unlinked = await hotelAdmin.request('POST', '/dashboard/integrations/provider', { provider: 'stripe' });
    expect(unlinked.status).toBe(400);
    expect(summaryLinks(unlinked.text)[0]).toMatch(/^#f-provider: No Stripe account is linked to your hotel yet/);

    // As the platform links them (ops CLI; test/integration/ops.test.ts covers the command itself).
    const { linkStripeAccount } = await import('../../shared/domain/payments/provider-accounts');
    await linkStripeAccount(hotel, 'acct_1LinkedFirst');
    expect((await link(hotel, 'acct_1LinkedSecond')).linked_accounts).toEqual(['acct_1LinkedFirst', 'acct_1LinkedSecond']);
    await linkStripeAccount(clientId, 'acct_1OtherHotels');

    const page = await hotelAdmin.get('/dashboard/integrations');
    const select = /<select id="f-account" name="account"[^>]*>([\s\S]*?)<\/select>/.exec(page.text);
    expect(select, 'a Stripe account select').not.toBeNull();
    expect([...select![1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual(['acct_1LinkedFirst', 'acct_1LinkedSecond']);
    expect(page.text).not.toMatch(/<input[^>]+name="account"/);

    // Every change is published for the ProviderAccountChanged alarm; a refusal or a re-save is not.
    const { metrics } = await import('../../shared/observability');
    const published = vi.spyOn(metrics, 'addMetric');
    const accountChanges = () => published.mock.calls.filter(([name]) => name === 'ProviderAccountChanged').length;

    // Another hotel's linked account, or one never linked, is refused even when posted by hand.
    const { getProviderSettings } = await import('../../shared/store/payment-store');
    for (const account of ['acct_1OtherHotels', 'acct_1NeverLinked']) {
      const refused = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account });
      expect(refused.status).toBe(400);
      expect(summaryLinks(refused.text)[0]).toContain(`#f-account: The Stripe account ${account} is not linked to your hotel`);
      expect(await getProviderSettings(hotel)).toBeUndefined();
    }

    const first = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1LinkedFirst' });
    expect(textOf(first.text)).toContain('Payments now use Stripe (acct_1LinkedFirst)');
    const second = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1LinkedSecond' });
    expect(textOf(second.text)).toContain('Payments now use Stripe (acct_1LinkedSecond)');
    expect(await getProviderSettings(hotel)).toEqual({ provider: 'stripe', account: 'acct_1LinkedSecond' });
    const again = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1LinkedSecond' });
    expect(textOf(again.text)).toContain('Payments already use Stripe (acct_1LinkedSecond): nothing changed.');
    expect(accountChanges()).toBe(2);
    published.mockRestore();

    const changes = await audited(hotel, 'provider.set');
    expect(changes.map((entry) => [entry.operator, entry.previous, entry.changes])).toEqual([
      [hotelAdmin.email, { provider: 'stripe', account: 'acct_1LinkedSecond' }, { provider: 'stripe', account: 'acct_1LinkedSecond' }],
      [hotelAdmin.email, { provider: 'stripe', account: 'acct_1LinkedFirst' }, { provider: 'stripe', account: 'acct_1LinkedSecond' }],
      [hotelAdmin.email, { provider: null, account: null }, { provider: 'stripe', account: 'acct_1LinkedFirst' }],
    ]);
    expect(textOf((await hotelAdmin.get('/dashboard/audit')).text)).toContain(`${hotelAdmin.email} Chose where payments go: Stripe (acct_1LinkedSecond)`);
  });

  it('asks for the password before a webhook URL, refuses a wrong one and changes nothing; the right one carries the form through', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const { getEndpoint } = await import('../../shared/store/endpoint-store');
    const url = 'http://127.0.0.1:9/shop?a=1&b=2';

    const prompt = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/webhook', { webhook_url: url });
    expect(isPasswordPrompt(prompt)).toBe(true);
    expect(textOf(prompt.text)).toContain('Confirm your password');
    expect(textOf(prompt.text)).toContain(`To change the webhook URL, enter your password again. You will not be asked again for 5 minutes. New webhook URL ${url}`);
    expect(passwordPromptForm(prompt.text)).toEqual({ action: '/dashboard/integrations/endpoints/webhook#endpoint-webhook', fields: { webhook_url: url } });
    expect(prompt.text).toMatch(/<input id="f-current_password" name="current_password" type="password" required[^>]*autocomplete="current-password"/);
    expect(await getEndpoint(hotel, 'webhook')).toBeUndefined();

    for (const wrong of ['Wrong-horse-42', '']) {
      const refused = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/webhook', { webhook_url: url, current_password: wrong });
      expect(refused.status).toBe(401);
      expect(textOf(refused.text)).toContain('Incorrect password');
      expect(passwordPromptForm(refused.text).fields).toEqual({ webhook_url: url });
      expect(refused.headers.getSetCookie().join('\n')).not.toContain('dashboard_reauth');
      expect(await getEndpoint(hotel, 'webhook')).toBeUndefined();
    }

    const confirmed = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/webhook', { webhook_url: url, current_password: OPERATOR_PASSWORD });
    expect(confirmed.status).toBe(303);
    const cookie = confirmed.headers.getSetCookie().find((c) => c.startsWith('dashboard_reauth='));
    expect(cookie).toMatch(/^dashboard_reauth=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=300$/);
    expect(textOf((await hotelAdmin.get(confirmed.location!)).text)).toContain(`The webhook URL is now ${url}`);
    expect((await getEndpoint(hotel, 'webhook'))?.url).toBe(url);

    // Confirmed: a payment key within 5 minutes goes straight through; another operator is asked for a sync key too.
    const key = await hotelAdmin.request('POST', '/dashboard/integrations/keys', { kind: 'payment', payment_name: 'Shop' });
    expect(key.status).toBe(303);
    expect((await hotelAdmin.get(key.location!)).text).toMatch(/svc_pay_/);
    const other = await signedInOperator(stack, hotel, 'admin');
    expect(isPasswordPrompt(await other.request('POST', '/dashboard/integrations/keys', { kind: 'sync', scopes: 'rooms:write' }))).toBe(true);
    expect(isPasswordPrompt(await other.request('POST', '/dashboard/integrations/keys', { kind: 'payment' }))).toBe(true);
    // Signed in just now, the other operator is asked before a signing secret is rotated too; nothing changes until then.
    const sealed = (await getEndpoint(hotel, 'webhook'))!.sealed_secret;
    const rotate = await other.request('POST', '/dashboard/integrations/endpoints/webhook/rotate', { confirm: 'yes' });
    expect(isPasswordPrompt(rotate)).toBe(true);
    expect(textOf(rotate.text)).toContain('To rotate the webhook signing secret, enter your password again.');
    const wrong = await other.request('POST', '/dashboard/integrations/endpoints/webhook/rotate', { confirm: 'yes', current_password: 'Not-my-password-1' });
    expect(wrong.status).toBe(401);
    expect((await getEndpoint(hotel, 'webhook'))!.sealed_secret).toBe(sealed);
    const rotated = await other.submitConfirmed('/dashboard/integrations/endpoints/webhook/rotate', { confirm: 'yes' });
    expect(textOf(rotated.text)).toContain('The webhook signing secret was rotated');
    expect((await getEndpoint(hotel, 'webhook'))!.sealed_secret).not.toBe(sealed);
  });

  it("does not take another operator's confirmation", async () => {
    const { clientId: hotel } = await stack.createTenant();
    const first = await signedInOperator(stack, hotel, 'admin');
    const confirmed = await first.request('POST', '/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/a', current_password: OPERATOR_PASSWORD });
    expect(confirmed.status).toBe(303);
    const second = await signedInOperator(stack, hotel, 'admin');
    second.setCookie('dashboard_reauth', first.cookie('dashboard_reauth')!);
    expect(isPasswordPrompt(await second.request('POST', '/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/b' }))).toBe(true);
    // A made-up token is no confirmation either.
    first.setCookie('dashboard_reauth', 'A'.repeat(43));
    expect(isPasswordPrompt(await first.request('POST', '/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/b' }))).toBe(true);
  });

  it('asks again once the confirmation is more than 5 minutes old; the audit shows the old and the new URL', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const first = await hotelAdmin.submitConfirmed('/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/old' });
    expect(textOf(first.text)).toContain('The callback URL is now http://127.0.0.1:9/old');

    vi.setSystemTime(start + 5 * 60_000 - 1000);
    const within = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/new' });
    expect(within.status).toBe(303);

    vi.setSystemTime(start + 5 * 60_000 + 1000);
    const late = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/newer' });
    expect(isPasswordPrompt(late)).toBe(true);
    const reconfirmed = await hotelAdmin.submit('/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/newer', current_password: OPERATOR_PASSWORD });
    expect(textOf(reconfirmed.text)).toContain('The callback URL is now http://127.0.0.1:9/newer');
    vi.useRealTimers();

    const changes = await audited(hotel, 'callback.set_url');
    expect(changes.map((entry) => [entry.operator, entry.previous?.url, entry.changes.url, entry.changes.secret])).toEqual([
      [hotelAdmin.email, 'http://127.0.0.1:9/new', 'http://127.0.0.1:9/newer', undefined],
      [hotelAdmin.email, 'http://127.0.0.1:9/old', 'http://127.0.0.1:9/new', undefined],
      // Only the first URL made a secret.
      [hotelAdmin.email, null, 'http://127.0.0.1:9/old', 'new'],
    ]);
  });
});

describe('Rotate secret with an overlap', () => {
  it("keeps the previous secret signing for 24 hours, says until when in the hotel's time zone, and then only the new one signs", async () => {
    const { clientId: hotel } = await stack.createTenant();
    const { setClientSettings } = await import('../../shared/domain/clients');
    await setClientSettings(hotel, { time_zone: 'Asia/Tokyo' });
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const first = SHOWN_SECRET.exec((await hotelAdmin.submitConfirmed('/dashboard/integrations/endpoints/callback', { callback_url: 'http://127.0.0.1:9/pms' })).text)?.[1];

    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const rotated = await hotelAdmin.submit('/dashboard/integrations/endpoints/callback/rotate', { confirm: 'yes' });
    const second = SHOWN_SECRET.exec(rotated.text)?.[1];
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { formatTime } = await import('../../shared/dashboard/format');
    const until = `${formatTime('Asia/Tokyo', new Date(start + 24 * 3_600_000))} (hotel time)`;
    expect(textOf(rotated.text)).toContain(`The callback signing secret was rotated: the previous secret works until ${until}.`);

    // Both sign meanwhile, and the page says until when.
    const { getEndpoint, signingSecretsOf } = await import('../../shared/store/endpoint-store');
    const secrets = await signingSecretsOf((await getEndpoint(hotel, 'callback'))!);
    expect([secrets.current, secrets.previous?.secret]).toEqual([second, first]);
    expect(textOf((await hotelAdmin.get('/dashboard/integrations')).text)).toContain(`the previous signing secret works until ${until}.`);
    expect(textOf((await hotelAdmin.get('/dashboard/audit')).text)).toContain(`${hotelAdmin.email} Rotated the signing secret of the address for notifications to your PMS; the previous one works until`);

    // A day and a minute later: the overlap has ended, only the new secret signs.
    vi.setSystemTime(start + 24 * 3_600_000 + 60_000);
    expect(textOf((await hotelAdmin.get('/dashboard/integrations')).text)).not.toContain('the previous signing secret works until');
    const after = await signingSecretsOf((await getEndpoint(hotel, 'callback'))!, new Date());
    expect(after).toEqual({ current: second });
  });
});
