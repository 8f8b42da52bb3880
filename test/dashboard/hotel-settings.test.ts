/**
 * Hotel settings, as an admin uses them: the form shows the settings as they apply (UTC and
 * nothing said, for a new hotel); saving sets the time zone and what guests are told, audited with
 * the old and the new values, and answered with a notice after a redirect; a form with problems
 * comes back (400) with an error summary linking to each field, the message beside it and what was
 * typed, and saves nothing; empty fields and "Not said" take a setting away. Staff get 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOperator, textOf, type DashboardClient } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let clientId: string;
let admin: DashboardClient;

const PATH = '/dashboard/settings';

beforeAll(async () => {
  stack = await startTestStack();
  ({ clientId } = await stack.createTenant());
  admin = await signedInOperator(stack, clientId, 'admin');
});

afterAll(async () => {
  await stack?.stop();
});

const settingsNow = async (id = clientId) => {
  const [{ getClient }, { clientSettingsOf }] = await Promise.all([import('../../shared/store/api-key-store'), import('../../shared/domain/client-settings')]);
  return clientSettingsOf((await getClient(id))!);
};

/** The value of the selected zone ('' for none: an empty value renders as a bare `value`). */
const selectedZone = (html: string) => {
  const selected = /<select id="f-time_zone"[^>]*>(?:(?!<\/select>)[\s\S])*?<option value(?:="([^"]*)")? selected/.exec(html);
  return selected ? (selected[1] ?? '') : undefined;
};
const checkedTaxes = (html: string) => /<input type="radio" name="taxes_included" value="([^"]+)"[^>]*checked/.exec(html)?.[1];
const textarea = (html: string, name: string) => new RegExp(`<textarea id="f-${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html)?.[1];
const summaryLinks = (html: string) =>
  [...(/<div class="error-summary"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '').matchAll(/<a href="(#[^"]+)">([^<]+)<\/a>/g)].map((m) => `${m[1]}: ${textOf(m[2]!)}`);

const FILLED = {
  time_zone: 'America/New_York',
  taxes_included: 'yes',
  cancellation_policy: 'Free cancellation until 48 hours before arrival.\r\nAfter that, the first night is charged.',
  check_in_time: '15:00',
  address: '1 Ocean Drive\r\nMiami Beach',
};

describe('hotel settings', () => {
  it('shows the settings as they apply to a new hotel: UTC, nothing said; every zone Intl knows is on the list', async () => {
    const page = await admin.get(PATH);
    expect(page.status).toBe(200);
    expect(selectedZone(page.text)).toBe('UTC');
    expect(checkedTaxes(page.text)).toBe('unset');
    const zones = [...(/<select id="f-time_zone"[\s\S]*?<\/select>/.exec(page.text)?.[0] ?? '').matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(zones[0]).toBe('UTC');
    expect(zones).toEqual(expect.arrayContaining(['Europe/London', 'America/New_York', 'Asia/Tokyo', 'Pacific/Apia']));
    expect(zones).toHaveLength(Intl.supportedValuesOf('timeZone').length + 1);
    expect(page.text).toContain('<option value="America/New_York">America/New York</option>');
    expect(page.text).toMatch(/<input id="f-check_in_time" name="check_in_time" type="time"/);
    expect(textOf(page.text)).toMatch(/It is now \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} in UTC\./);
    // Linked from Integrations.
    expect((await admin.get('/dashboard/integrations')).text).toContain('<a href="/dashboard/settings">Change hotel settings</a>');
  });

  it('saves every setting, audited with the old and the new values, and shows them after the redirect', async () => {
    const posted = await admin.request('POST', PATH, FILLED);
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(PATH);
    const page = await admin.get(posted.location!);
    expect(textOf(page.text)).toContain('Hotel settings saved: time zone, prices include taxes, cancellation policy, check-in from, address.');
    expect(selectedZone(page.text)).toBe('America/New_York');
    expect(checkedTaxes(page.text)).toBe('yes');
    expect(textarea(page.text, 'cancellation_policy')).toBe('Free cancellation until 48 hours before arrival.\nAfter that, the first night is charged.');
    expect(page.text).toMatch(/id="f-check_in_time" name="check_in_time" type="time" value="15:00"/);
    expect(textOf(page.text)).toMatch(/It is now \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} in America\/New_York\./);
    expect(await settingsNow()).toMatchObject({
      time_zone: 'America/New_York',
      taxes_included: true,
      cancellation_policy: 'Free cancellation until 48 hours before arrival.\nAfter that, the first night is charged.',
      check_in_time: '15:00',
      address: '1 Ocean Drive\nMiami Beach',
    });

    const { listAudit } = await import('../../shared/domain/audit');
    const [entry] = (await listAudit(clientId)).entries.filter((e) => e.action === 'hotel_settings.set');
    expect(entry).toMatchObject({
      operator: admin.email,
      changes: { time_zone: 'America/New_York', taxes_included: true, check_in_time: '15:00', address: '1 Ocean Drive\nMiami Beach' },
      previous: { time_zone: 'UTC', taxes_included: null, cancellation_policy: null, check_in_time: null, address: null },
    });
    expect(textOf((await admin.get('/dashboard/audit')).text)).toContain(admin.email);

    const again = await admin.submit(PATH, { ...FILLED, check_in_time: '15.00' });
    expect(textOf(again.text)).toContain('Nothing changed: the settings were already these.');
  });

  it('refuses a zone it does not know, a time that is not one and a policy too long, beside each field, keeping what was typed', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const long = 'No refunds. '.repeat(90).trim();
    const page = await hotelAdmin.request('POST', PATH, { ...FILLED, time_zone: 'Mars/Base', check_in_time: '25:00', cancellation_policy: long });
    expect(page.status).toBe(400);
    // In the order of the fields on the page.
    expect(summaryLinks(page.text)).toEqual([
      "#f-time_zone: “Mars/Base” is not a time zone: choose your hotel's time zone from the list",
      '#f-cancellation_policy: Shorten the cancellation policy to 1,000 characters or fewer (it has 1,079)',
      '#f-check_in_time: Enter the time of day guests may check in from, such as 15:00',
    ]);
    // Each message beside its field, the field marked invalid and described by it.
    expect(page.text).toMatch(/<small id="f-time_zone-error" class="field-error">“Mars\/Base” is not a time zone[^<]*<\/small><select id="f-time_zone" name="time_zone" aria-invalid="true" aria-describedby="f-time_zone-hint f-time_zone-error">/);
    expect(page.text).toMatch(/<small id="f-check_in_time-error" class="field-error">[^<]+<\/small><input id="f-check_in_time" name="check_in_time" type="time" value="25:00" aria-invalid="true"/);
    // An unknown zone cannot be selected: the list asks for one instead of showing a zone not chosen.
    expect(selectedZone(page.text)).toBe('');
    expect(textarea(page.text, 'cancellation_policy')).toBe(long);
    expect(textarea(page.text, 'address')).toBe('1 Ocean Drive\nMiami Beach');
    expect(checkedTaxes(page.text)).toBe('yes');
    expect(await settingsNow(hotel)).toMatchObject({ time_zone: 'UTC', taxes_included: null, cancellation_policy: null, check_in_time: null });

    const noTaxes = await hotelAdmin.request('POST', PATH, { ...FILLED, taxes_included: 'maybe' });
    expect(summaryLinks(noTaxes.text)).toEqual(['#f-taxes_included: Choose whether the prices guests see include taxes']);
    expect(noTaxes.text).toContain('id="f-taxes_included"');
  });

  it('takes a setting away with an empty field or "Not said"', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    expect((await hotelAdmin.request('POST', PATH, FILLED)).status).toBe(303);
    const cleared = await hotelAdmin.submit(PATH, { time_zone: 'Asia/Tokyo', taxes_included: 'unset', cancellation_policy: '  ', check_in_time: '', address: '' });
    expect(textOf(cleared.text)).toContain('Hotel settings saved: time zone, prices include taxes, cancellation policy, check-in from, address.');
    expect(await settingsNow(hotel)).toMatchObject({ time_zone: 'Asia/Tokyo', taxes_included: null, cancellation_policy: null, check_in_time: null, address: null });
    expect(checkedTaxes(cleared.text)).toBe('unset');
    expect(textarea(cleared.text, 'address')).toBe('');
  });

  it('is for admins only', async () => {
    const staff = await signedInOperator(stack, clientId, 'staff');
    expect((await staff.get(PATH)).status).toBe(403);
    expect((await staff.request('POST', PATH, { ...FILLED, time_zone: 'Europe/Paris' })).status).toBe(403);
    expect((await settingsNow()).time_zone).not.toBe('Europe/Paris');
  });
});
