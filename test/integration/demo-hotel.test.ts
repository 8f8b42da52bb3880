/**
 * The first `npm start` fills in a demo hotel through the API (infra/local/demo-hotel.ts) and says
 * so; the dashboard and the guest page show it at once. `npm start -- --empty` starts without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/schemas/common';
import { DashboardClient, textOf } from '../support/dashboard-client';
import { freeStackPorts, killAllStackProcesses, startStackProcess, stopStackProcess } from '../support/local-stack-process';
import type { TestStack } from '../support/stack';

const dirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'demo-hotel-'));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  killAllStackProcesses();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const today = new Date().toISOString().slice(0, 10);

describe('npm start: the demo hotel', () => {
  it('is filled in on the first start and shown on the dashboard and the guest page', async () => {
    const stack = await startStackProcess(await freeStackPorts(), newDataDir(), { DEMO_HOTEL: '' });
    try {
      const output = stack.output();
      expect(output).toMatch(/demo hotel: 3 room types, 12 rooms, 18 bookings over the coming four weeks and 4 deliveries, made through the API/);
      const clientId = /demo client: (\S+)/.exec(output)![1]!;
      const syncKey = /demo sync key \(shown once\):\s+(svc_sync_\S+)/.exec(output)![1]!;
      const [, email, password] = /sign in as (\S+) with password (\S+)/.exec(output)!;
      // Through the API's own paths: the sync routes and the payment orders are in the request log.
      for (const line of [/PUT \/api\/v1\/property-sync\/room-categories 200/, /PUT \/api\/v1\/property-sync\/rooms 200/, /PUT \/api\/v1\/property-sync\/bookings 200/, /POST \/api\/v1\/payments\/payment-orders 201/]) {
        expect(output).toMatch(line);
      }

      // Tonight some rooms are taken (guests in house, arrivals), the others free, by category.
      const availability = await fetch(`${stack.url}/api/v1/property-sync/availability?check_in_date=${today}&check_out_date=${addDays(today, 1)}&guests=1`, {
        headers: { Authorization: `Bearer ${syncKey}` },
      }).then((r) => r.json() as Promise<{ available_rooms: unknown[]; categories: { name: string }[] }>);
      expect(availability.available_rooms.length).toBeGreaterThan(0);
      expect(availability.available_rooms.length).toBeLessThan(12);
      expect(availability.categories.map((c) => c.name).sort()).toEqual(['Garden Suite', 'Standard Double', 'Superior Twin']);

      // The guest page lists rooms with their category's description.
      const guest = await fetch(`${stack.url}/book/${clientId}?check_in=${addDays(today, 30)}&check_out=${addDays(today, 32)}&guests=2`);
      expect(guest.status).toBe(200);
      const guestText = textOf(await guest.text());
      expect(guestText).toContain('A quiet double room on the courtyard side');
      expect(guestText).toContain('Garden Suite');

      // The dashboard: bookings, rooms, and the deliveries waiting for a receiver.
      const operator = new DashboardClient({ url: stack.url } as TestStack, email!);
      await operator.signIn(password);
      expect(operator.hasSession()).toBe(true);
      // The overview: today's arrivals and the guests in house.
      const overview = textOf((await operator.request('GET', '/dashboard')).text);
      expect(overview).toMatch(/Arrivals today \(2\)/);
      for (const name of ['Mei Tanaka', 'Oluwaseun Adeyemi', 'Kofi Mensah']) expect(overview).toContain(name);
      const bookings = textOf((await operator.request('GET', '/dashboard/bookings?limit=100')).text);
      for (const name of ['Ana Silva', 'Hana Novak', 'Elena Petrova', 'Samuel Osei']) expect(bookings).toContain(name);
      const rooms = textOf((await operator.request('GET', '/dashboard/rooms')).text);
      for (const room of ['101', '204', '303', 'Garden Suite']) expect(rooms).toContain(room);
      const deliveries = textOf((await operator.request('GET', '/dashboard/deliveries')).text);
      expect(deliveries.match(/Booking confirmed/g)?.length).toBe(2);
      expect(deliveries.match(/Order paid/g)?.length).toBe(2);
    } finally {
      await stopStackProcess(stack.child);
    }
  }, 240_000);

  it('is left empty with --empty', async () => {
    // As `npm start -- --empty` runs it; DEMO_HOTEL unset, so only the flag asks for it.
    const empty = await startStackProcess(await freeStackPorts(), newDataDir(), { DEMO_HOTEL: '' }, 'bin/local.ts', ['--empty']);
    try {
      expect(empty.output()).toContain('demo hotel: left empty');
      const syncKey = /demo sync key \(shown once\):\s+(svc_sync_\S+)/.exec(empty.output())![1]!;
      const availability = await fetch(`${empty.url}/api/v1/property-sync/availability?check_in_date=${today}&check_out_date=${addDays(today, 1)}&guests=1`, {
        headers: { Authorization: `Bearer ${syncKey}` },
      }).then((r) => r.json() as Promise<{ available_rooms: unknown[] }>);
      expect(availability.available_rooms).toEqual([]);
    } finally {
      await stopStackProcess(empty.child);
    }
  }, 240_000);
});
