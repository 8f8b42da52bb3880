/**
 * The hotel dashboard in headless Chromium, as hotel staff use it (docs/behaviour.md "Hotel
 * dashboard"): sign-in, every navigation link with an axe-core audit, rooms, bookings of every
 * origin, a paid booking given its room, a delivery retried, a sync key created with one scope
 * and revoked, staff kept out of Integrations, another hotel's records hidden, a form posted from
 * another site refused, the CSP and the cookies. Screenshots go to test-results/screenshots (and
 * to docs/screenshots with UPDATE_SCREENSHOTS=1, for the README).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAV } from '../../shared/dashboard/layout';
import { closePage, confirmPasswordIfAsked, hasChromium, launchChromium, payOnSandboxCheckout, seriousAxeViolations, shoot } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { orderStatus, paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

/** The screenshots the README shows. */
const README_SHOTS = new Set<string>(['dashboard-overview', 'dashboard-overview-phone']);

let stack: TestStack;
let receiver: Receiver;
let tenant: Tenant;
let other: Tenant;
let browser: Browser | undefined;
let admin: BrowserContext;
let evilSite: { url: string; server: Server };
const emails = { admin: '', staff: '', otherAdmin: '' };
let paid: { orderReference: string; bookingId: string };
let syncedBookingId: string;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const needsChromium = it.skipIf(!hasChromium);

async function signIn(context: BrowserContext, email: string, password = OPERATOR_PASSWORD): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${stack.url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

async function availableRoomNumbers(checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, {
    key: tenant.syncKey,
  });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

/** Another site, with a form that posts to the dashboard: what a cross-site request forgery tries. */
async function startEvilSite(target: string) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Win a prize</title></head><body><form method="post" action="${target}/dashboard/integrations/keys">` +
        '<input type="hidden" name="kind" value="sync"><input type="hidden" name="scopes" value="rooms:write"><input type="hidden" name="name" value="forged">' +
        '<button type="submit">Claim your prize</button></form></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  [tenant, other] = await Promise.all([stack.createTenant(), stack.createTenant()]);
  const { createOperator } = await import('../../shared/domain/operators');
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  const suffix = Math.random().toString(36).slice(2, 8);
  emails.admin = `front-office-${suffix}@hotel.example`;
  emails.staff = `reception-${suffix}@hotel.example`;
  emails.otherAdmin = `other-${suffix}@hotel.example`;
  await createOperator({ clientId: tenant.clientId, email: emails.admin, role: 'admin', password: OPERATOR_PASSWORD });
  await createOperator({ clientId: tenant.clientId, email: emails.staff, role: 'staff', password: OPERATOR_PASSWORD });
  await createOperator({ clientId: other.clientId, email: emails.otherAdmin, role: 'admin', password: OPERATOR_PASSWORD });

  // Rooms and a synced booking from the PMS; a paid room order that found no room; callbacks to
  // a PMS that refuses the first one (400: needs_review).
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: ['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: n === '103' ? 'suite' : 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(rooms.status).toBe(200);
  const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      bookings: [
        { external_booking_id: 'PMS-1', external_room_id: 'R101', guest_name: 'Grace Hopper', check_in_date: day(0), check_out_date: day(2), guests: 1, status: 'confirmed' },
      ],
    },
  });
  expect(synced.status).toBe(200);
  syncedBookingId = synced.body.items[0].id;
  // A reception booking, as the desk makes one.
  const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
  const { listRooms } = await import('../../shared/store/room-store');
  const room103 = (await listRooms(tenant.clientId)).find((r) => r.room_number === '103')!;
  await createReceptionBooking(tenant.clientId, room103.id, {
    guest_name: 'Katherine Johnson',
    guest_email: 'katherine@example.com',
    check_in_date: day(6),
    check_out_date: day(8),
    guests: 2,
    total_amount: 240,
  });
  await configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
  receiver.respondWith(400);
  if (hasChromium) {
    browser = await launchChromium();
    admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }
  // The guest pays in the browser, on the sandbox checkout's own origin, and comes back to the API's.
  const guest = await browser?.newContext();
  const order = await paidRoomBooking(stack, tenant, { check_in_date: day(3), check_out_date: day(5) }, guest ? { pay: (url) => payOnSandboxCheckout(guest, url, stack.url) } : {});
  await guest?.close();
  expect(order.sync.room_assignment).toBe('manual');
  paid = { orderReference: order.orderReference, bookingId: order.sync.booking_id };
  await waitFor('the first booking.confirmed, refused', async () => (receiver.received.length >= 1 ? true : undefined));

  evilSite = await startEvilSite(stack.url);
});

afterAll(async () => {
  await browser?.close();
  if (evilSite) {
    evilSite.server.closeAllConnections();
    await new Promise((resolve) => evilSite.server.close(resolve));
  }
  await receiver?.close();
  await stack?.stop();
});

describe(`the hotel dashboard in headless Chromium (skipped without Chromium: .ci/run installs it)`, () => {
  needsChromium('refuses a wrong password with the form again, then signs in with HttpOnly, SameSite=Strict cookies', async () => {
    const page = await signIn(admin, emails.admin, 'Not-the-password-1');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Incorrect email or password');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(emails.admin);
    expect(await admin.cookies()).toEqual([]);
    await shoot(page, 'dashboard-sign-in', README_SHOTS);

    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    const cookies = await admin.cookies();
    expect(cookies.map((c) => c.name).sort()).toEqual(['dashboard_access', 'dashboard_id', 'dashboard_refresh']);
    for (const cookie of cookies) {
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard', secure: false });
    }
    await closePage(page);
  });

  needsChromium('every navigation link opens its page, with no serious or critical axe violation, at 1280 and 390 px', async () => {
    const page = await admin.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') blocked.push(message.text());
    });
    await page.goto(`${stack.url}/dashboard`);
    for (const item of NAV) {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: item.label, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(item.label);
      expect(await seriousAxeViolations(page), item.label).toEqual([]);
      await shoot(page, `dashboard-${item.key}`, README_SHOTS);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const item of NAV) {
      await page.goto(`${stack.url}${item.path}`);
      const violations = await seriousAxeViolations(page);
      expect(violations, `${item.label} at 390 px: ${JSON.stringify(violations)}`).toEqual([]);
      // Nothing wider than the phone but the tables, which scroll in their own box.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${item.label} at 390 px`).toBeLessThanOrEqual(0);
    }
    await page.goto(`${stack.url}/dashboard`);
    await shoot(page, 'dashboard-overview-phone', README_SHOTS);
    // The stylesheet loaded under the CSP, and nothing was refused by it.
    expect(blocked.filter((text) => text.includes('Content Security Policy'))).toEqual([]);
    await closePage(page);
  });

  needsChromium('lists the rooms and the bookings of every origin', async () => {
    const page = await admin.newPage();
    await page.goto(`${stack.url}/dashboard/rooms`);
    for (const number of ['101', '102', '103']) await expect(page.getByRole('cell', { name: number, exact: true }).first().isVisible()).resolves.toBe(true);
    await page.goto(`${stack.url}/dashboard/bookings`);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('Grace Hopper');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Katherine Johnson');
    for (const origin of ['From your PMS', 'Paid online', 'Reception']) expect(text).toContain(origin);
    await page.goto(`${stack.url}/dashboard/bookings/${syncedBookingId}`);
    await expect(page.locator('main').textContent()).resolves.toContain('PMS-1');
    await closePage(page);
  });

  needsChromium('gives the paid booking a room with "Assign room": the API stops offering it and the order names it', async () => {
    const page = await admin.newPage();
    await page.goto(`${stack.url}/dashboard/bookings`);
    expect(await availableRoomNumbers(day(3), day(5))).toContain('102');
    await page.getByRole('row').filter({ hasText: 'Ada Lovelace' }).getByRole('button', { name: 'Assign room' }).first().click();
    await page.getByLabel('Room').selectOption({ label: await page.getByLabel('Room').locator('option', { hasText: '102' }).first().innerText() });
    await page.getByRole('button', { name: 'Assign' }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('102');
    await shoot(page, 'dashboard-booking-assigned', README_SHOTS);

    expect(await availableRoomNumbers(day(3), day(5))).not.toContain('102');
    const status = await orderStatus(stack, tenant, paid.orderReference);
    expect(status.body.service_booking_sync).toMatchObject({ booking_id: paid.bookingId, room_assignment: 'manual' });
    expect(status.body.service_booking_sync.room_id).toBeTruthy();
    await closePage(page);
  });

  needsChromium('retries a needs_review delivery with "Retry" and it is delivered', async () => {
    const { listDeliveries } = await import('../../shared/domain/callbacks/deliveries');
    const review = await waitFor('a needs_review delivery', async () => (await listDeliveries(tenant.clientId, 'needs_review'))[0]);
    const page = await admin.newPage();
    await page.goto(`${stack.url}/dashboard/deliveries/${review.delivery_id}`);
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/queued/i);
    await waitFor('the retried delivery delivered', async () => {
      const [delivered] = (await listDeliveries(tenant.clientId, 'delivered')).filter((d) => d.delivery_id === review.delivery_id);
      return delivered;
    });
    await page.reload();
    await expect(page.locator('main').textContent()).resolves.toContain('delivered');
    await closePage(page);
  });

  needsChromium('creates a sync key with one scope, shown once; it works with exactly that scope; "Revoke" stops it', async () => {
    const page = await admin.newPage();
    await page.goto(`${stack.url}/dashboard/integrations`);
    const form = page.getByRole('form', { name: 'Create sync key' });
    await form.getByRole('checkbox', { name: 'availability:read' }).check();
    await form.getByLabel('Name').fill('Channel manager');
    await form.getByRole('button', { name: 'Create key' }).click();
    await confirmPasswordIfAsked(page, OPERATOR_PASSWORD);
    const key = (await page.locator('code.secret').textContent())?.trim() ?? '';
    expect(key).toMatch(/^svc_sync_/);
    await shoot(page, 'dashboard-key-created', README_SHOTS);

    const read = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${day(10)}&check_out_date=${day(11)}&guests=1`, { key });
    expect(read.status).toBe(200);
    const write = await stack.request('PUT', '/api/v1/property-sync/rooms', { key, body: { external_source: 'pms', rooms: [] } });
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');

    await page.reload();
    expect(await page.content()).not.toContain(key);
    const row = page.getByRole('row').filter({ hasText: 'Channel manager' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    // Its confirmation page first (test/browser/integrations.test.ts covers it).
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('was revoked');
    await expect(page.getByRole('row').filter({ hasText: 'Channel manager' }).textContent()).resolves.toContain('revoked');
    await closePage(page);
  });

  needsChromium('answers staff with 403 on Integrations, and another hotel with 404 on this hotel\'s records', async () => {
    const staffContext = await browser!.newContext();
    const staffPage = await signIn(staffContext, emails.staff);
    await expect(staffPage.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    const refused = await staffPage.goto(`${stack.url}/dashboard/integrations`);
    expect(refused?.status()).toBe(403);
    await staffContext.close();

    const otherContext = await browser!.newContext();
    const otherPage = await signIn(otherContext, emails.otherAdmin);
    for (const path of [`/dashboard/bookings/${paid.bookingId}`, `/dashboard/payments/${paid.orderReference}`]) {
      const answer = await otherPage.goto(`${stack.url}${path}`);
      expect(answer?.status(), path).toBe(404);
    }
    await otherPage.goto(`${stack.url}/dashboard/bookings`);
    expect(await otherPage.locator('main').textContent()).not.toContain('Grace Hopper');
    await otherContext.close();
  });

  needsChromium('refuses a form posted from another site (no session cookie, foreign Origin): 403, no key made', async () => {
    const page = await admin.newPage();
    await page.goto(evilSite.url);
    const [answer] = await Promise.all([page.waitForResponse(`${stack.url}/dashboard/integrations/keys`), page.getByRole('button', { name: 'Claim your prize' }).click()]);
    expect(answer.status()).toBe(403);
    await page.goto(`${stack.url}/dashboard/integrations`);
    expect(await page.locator('main').textContent()).not.toContain('forged');
    await closePage(page);
  });

  needsChromium('serves every page with a CSP that runs no script and forbids framing', async () => {
    const page = await admin.newPage();
    const response = await page.goto(`${stack.url}/dashboard/bookings`);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(await page.locator('script').count()).toBe(0);
    await closePage(page);
  });
});
