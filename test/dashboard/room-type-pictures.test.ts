/**
 * Rooms, "Room type pictures": staff give a room type a picture (https only) that the guest pages
 * show with the type, before the PMS's own; a sync of the types keeps it; empty goes back to the
 * PMS's; a bad address comes back with the message beside the field; the Audit page says it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOperator, textOf } from '../support/dashboard-client';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

const summary = (html: string) =>
  [...(html.match(/<div class="error-summary"[\s\S]*?<\/ul>/)?.[0] ?? '').matchAll(/<a href="([^"]+)">([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!, text: textOf(m[2]!) }));

async function syncTypes(tenant: Tenant, gardenImage?: string) {
  const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      categories: [
        { external_category_id: 'GDN', name: 'Garden Queen', description: 'On the garden', ...(gardenImage ? { image_url: gardenImage } : {}) },
        { external_category_id: 'STE', name: 'Ocean Suite', description: 'Over the ocean' },
      ],
    },
  });
  expect(categories.status, categories.text).toBe(200);
}

describe('room type pictures', () => {
  it('shows the picture set on the dashboard on the guest page, keeps it across syncs, and goes back to the PMS one when emptied', async () => {
    const tenant = await stack.createTenant();
    await syncTypes(tenant, 'https://pms.example.com/garden.jpg');
    const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key: tenant.syncKey,
      body: { external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '101', room_type: 'queen', price: 120, max_occupancy: 2, external_category_id: 'GDN' }] },
    });
    expect(rooms.status, rooms.text).toBe(200);
    const staff = await signedInOperator(stack, tenant.clientId, 'staff');
    const page = await staff.get('/dashboard/rooms');
    expect(textOf(page.text)).toContain('Room type pictures');
    expect(textOf(page.text)).toContain('Your PMS sends https://pms.example.com/garden.jpg');
    const garden = page.text.match(/<form[^>]*aria-label="Picture of Garden Queen"[\s\S]*?name="category" value="([^"]+)"/)?.[1];
    expect(garden).toBeTruthy();

    const saved = await staff.submit('/dashboard/rooms/pictures', { category: garden!, image_url: 'https://hotel.example.com/garden-room.jpg' });
    expect(saved.status).toBe(200);
    expect(textOf(saved.text)).toContain('The picture of Garden Queen was saved.');
    const landing = await stack.request('GET', `/book/${tenant.clientId}`);
    expect(landing.text).toContain('src="https://hotel.example.com/garden-room.jpg"');
    expect(landing.text).not.toContain('pms.example.com/garden.jpg');

    // The PMS syncs its types again (a changed description): the hotel's picture stays.
    await stack.request('PUT', '/api/v1/property-sync/room-categories', {
      key: tenant.syncKey,
      body: { external_source: 'pms', categories: [{ external_category_id: 'GDN', name: 'Garden Queen', description: 'Quiet, on the garden', image_url: 'https://pms.example.com/garden.jpg' }] },
    });
    expect((await stack.request('GET', `/book/${tenant.clientId}`)).text).toContain('src="https://hotel.example.com/garden-room.jpg"');
    // A sync that read the types before the picture was set, and writes its category item after:
    // the picture is an item of its own, which no sync writes, so it stays.
    const { listCategories, putCategories } = await import('../../shared/store/category-store');
    const { picture_url: _set, ...readBefore } = (await listCategories(tenant.clientId)).find((c) => c.external_category_id === 'GDN')!;
    await putCategories(tenant.clientId, [{ ...readBefore, description: 'Written by a sync that read before' }]);
    const afterRace = (await stack.request('GET', `/book/${tenant.clientId}`)).text;
    expect(afterRace).toContain('Written by a sync that read before');
    expect(afterRace).toContain('src="https://hotel.example.com/garden-room.jpg"');

    const emptied = await staff.submit('/dashboard/rooms/pictures', { category: garden!, image_url: '' });
    expect(textOf(emptied.text)).toContain("Garden Queen shows your PMS's picture again.");
    expect((await stack.request('GET', `/book/${tenant.clientId}`)).text).toContain('src="https://pms.example.com/garden.jpg"');

    const audit = textOf((await staff.get('/dashboard/audit')).text);
    expect(audit).toContain('Set the picture of Garden Queen to https://hotel.example.com/garden-room.jpg');
    expect(audit).toContain("Showed the PMS's picture of Garden Queen again");
  });

  it('refuses an address that is not https, beside the field, with what was typed kept; another hotel’s type is not found', async () => {
    const tenant = await stack.createTenant();
    await syncTypes(tenant);
    const staff = await signedInOperator(stack, tenant.clientId, 'staff');
    const page = await staff.get('/dashboard/rooms');
    const suite = page.text.match(/<form[^>]*aria-label="Picture of Ocean Suite"[\s\S]*?name="category" value="([^"]+)"/)?.[1];
    const refused = await staff.request('POST', '/dashboard/rooms/pictures', { category: suite!, image_url: 'http://hotel.example.com/suite.jpg' });
    expect(refused.status).toBe(400);
    expect(summary(refused.text)).toEqual([{ href: '#f-picture-1', text: 'The picture’s address must start with https://' }]);
    expect(refused.text).toMatch(/id="f-picture-1"[^>]*value="http:\/\/hotel.example.com\/suite.jpg"|value="http:\/\/hotel.example.com\/suite.jpg"[^>]*id="f-picture-1"/);
    expect(refused.text).toContain('id="f-picture-1-error"');

    const other = await stack.createTenant();
    await syncTypes(other);
    const elsewhere = await signedInOperator(stack, other.clientId, 'staff');
    const notMine = await elsewhere.request('POST', '/dashboard/rooms/pictures', { category: suite!, image_url: 'https://evil.example.com/x.jpg' });
    expect(notMine.status).toBe(404);
    expect(textOf(notMine.text)).toContain('That room type is no longer there: reload the page');
    expect((await stack.request('GET', `/book/${tenant.clientId}`)).text).not.toContain('evil.example.com');
  });
});
