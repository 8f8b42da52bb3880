/**
 * The guest's language (docs/behaviour.md "The guest's language") through the whole booking: the
 * pages in the language the browser asks for (Accept-Language), the menu's choice kept in a cookie,
 * the hotel's language otherwise; the booking keeps the language it was made in, and its checkout
 * (the sandbox's page), its later pages and its e-mails (read from the SES emulator) speak it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../support/dashboard-client';
import { emailTo } from '../support/inbox';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@guest.example`;
const ja = (date: string) => new Intl.DateTimeFormat('ja-JP', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
const fr = (date: string) => new Intl.DateTimeFormat('fr-FR', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));

async function hotel(settings: Record<string, unknown> = {}) {
  const { createClientAccount, setClientSettings } = await import('../../shared/domain/clients');
  const name = `Hotel Sakura ${randomUUID().slice(0, 4)}`;
  const clientId = (await createClientAccount({ name, plan: 'premium' })).client_id;
  await setClientSettings(clientId, { time_zone: 'Asia/Tokyo', check_in_time: '15:00', ...settings });
  const { key } = await stack.issueKey(clientId, 'sync');
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: { external_source: 'pms', rooms: [{ external_room_id: 'R101', room_number: '101', room_type: 'twin', price: 120, max_occupancy: 2 }] },
  });
  expect(put.status, put.text).toBe(200);
  return { clientId, name, roomId: (put.body.items as { id: string }[])[0]!.id };
}

type Headers = Record<string, string>;
async function get(path: string, headers: Headers = {}) {
  const response = await fetch(new URL(path, stack.url), { redirect: 'manual', headers });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined, cookies: response.headers.getSetCookie() };
}
async function post(path: string, form: Record<string, string>, headers: Headers = {}) {
  const response = await fetch(new URL(path, stack.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined };
}
const langOf = (html: string) => /<html lang="([a-z]+)"/.exec(html)?.[1];

/** The details form as the page renders it, filled in, posted: the checkout's (or booking page's) address. */
async function book(h: { clientId: string; roomId: string }, stay: Record<string, string>, guest: { name: string; email: string }, headers: Headers, pay = 'checkout') {
  const page = await get(`/book/${h.clientId}/details?${new URLSearchParams({ ...stay, room_id: h.roomId })}`, headers);
  expect(page.status, page.html).toBe(200);
  const attempt = /name="attempt" value="([^"]*)"/.exec(page.html)![1]!;
  const booked = await post(`/book/${h.clientId}/bookings`, { ...stay, room_id: h.roomId, attempt, ...guest, pay }, headers);
  expect(booked.status, booked.html).toBe(303);
  return { details: page.html, next: booked.location! };
}

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('a guest whose browser asks for Japanese', () => {
  it('books in Japanese; the checkout, the booking, its page and its e-mail keep Japanese', async () => {
    const h = await hotel();
    const browser = { 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.5' };
    const stay = { check_in: day(20), check_out: day(22), guests: '2' };
    const guest = { name: '山田 花子', email: address('ja') };
    const { details, next } = await book(h, stay, guest, browser);
    expect(langOf(details)).toBe('ja');
    expect(textOf(details)).toContain(`チェックイン ${ja(stay.check_in)} 15:00から`);
    expect(textOf(details)).toContain('予約して');
    expect(textOf(details)).not.toContain('Asia/Tokyo');

    // The sandbox checkout in Japanese, dates the Japanese way, no ISO date.
    const checkout = await get(next);
    expect(langOf(checkout.html)).toBe('ja');
    expect(checkout.html).toContain(`101号室、2泊、${ja(stay.check_in)}〜${ja(stay.check_out)}`);
    expect(checkout.html).not.toContain(stay.check_in);
    expect(checkout.html).toMatch(/USD\s240\.00を支払う/);
    const paid = await fetch(next, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
    const verify = await fetch(new URL(paid.headers.get('location')!, stack.url), { redirect: 'manual' });
    const landed = new URL(verify.headers.get('location')!).pathname;

    // Its page, opened later from an English browser, still speaks the booking's language.
    const page = await get(landed, { 'accept-language': 'en' });
    expect(langOf(page.html)).toBe('ja');
    expect(textOf(page.html)).toContain('ご予約が確定しました');
    expect(textOf(page.html)).toContain('チェックインは');

    const { listBookings } = await import('../../shared/store/booking-store');
    const [booking] = (await listBookings(h.clientId)).filter((b) => b.guest_email === guest.email);
    expect(booking!.language).toBe('ja');

    const email = await emailTo(guest.email, /^ご予約確定/);
    expect(email.subject).toContain(`${h.name}、${ja(stay.check_in)}`);
    expect(email.body.text).toContain('山田 花子様');
    expect(email.body.text).toContain(`チェックイン: ${ja(stay.check_in)}`);
    expect(email.body.text).toMatch(/合計: USD\s240\.00/);
    expect(email.body.html).toMatch(/^<!doctype html><html lang="ja">/);
  });
});

describe('the language menu and the hotel’s language', () => {
  it('speaks the hotel’s language when the browser asks for none of ours; the menu’s choice wins and is kept in a cookie', async () => {
    const h = await hotel({ language: 'de' });
    const plain = await get(`/book/${h.clientId}`, { 'accept-language': 'ko-KR' });
    expect(langOf(plain.html)).toBe('de');
    expect(textOf(plain.html)).toContain('Zimmer buchen');
    // The menu: every language by its own name, each a link to this page in it.
    for (const name of ['English', 'Français', 'Deutsch', 'Español', 'Italiano', 'Português', '日本語']) expect(plain.html).toContain(`>${name}</a>`);
    expect(plain.html).toContain('<nav class="languages" aria-label="Sprache">');

    const chosen = await get(`/book/${h.clientId}?lang=fr`, { 'accept-language': 'ja' });
    expect(langOf(chosen.html)).toBe('fr');
    const cookie = chosen.cookies.find((c) => c.startsWith('guest_lang='))!;
    expect(cookie).toMatch(/^guest_lang=fr; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax/);
    const kept = await get(`/book/${h.clientId}?${new URLSearchParams({ check_in: day(10), check_out: day(12), guests: '1' })}`, { 'accept-language': 'ja', cookie: 'guest_lang=fr' });
    expect(langOf(kept.html)).toBe('fr');
    expect(textOf(kept.html)).toContain(`Du ${fr(day(10))} au ${fr(day(12))} : 2 nuits, 1 personne.`);
    expect(kept.html).toContain('\u202f: 2 nuits'); // A narrow no-break space before the colon, as French sets it.
  });

  it('answers bad input in the guest’s language, beside the field (400)', async () => {
    const h = await hotel();
    const bad = await get(`/book/${h.clientId}?check_in=${day(-3)}&check_out=${day(2)}&guests=0`, { 'accept-language': 'es-MX' });
    expect(bad.status).toBe(400);
    expect(langOf(bad.html)).toBe('es');
    expect(bad.html).toContain('La fecha de llegada no puede ser pasada');
    expect(bad.html).toContain('El número de huéspedes debe ser un número entero de al menos 1');
    expect(bad.html).toContain('<h2 id="error-summary-title">Hay un problema</h2>');
  });

  it('writes the "Confirm your booking" e-mail and the confirmation in the language the guest booked in (the menu’s)', async () => {
    const h = await hotel();
    const { setPayAtProperty } = await import('../../shared/domain/guest-booking/guest-bookings');
    await setPayAtProperty(h.clientId, true);
    const stay = { check_in: day(25), check_out: day(26), guests: '1' };
    const guest = { name: 'Jeanne Martin', email: address('fr') };
    const { next } = await book(h, stay, guest, { cookie: 'guest_lang=fr' }, 'at_property');
    const mail = await emailTo(guest.email, /^Confirmez votre réservation/);
    expect(mail.body.text).toContain('Bonjour Jeanne Martin,');
    expect(mail.body.text).toContain('(1 nuit, à régler à l’hôtel)');
    expect(mail.body.text).toMatch(/jusqu’au .*, \d\d:\d\d, heure de l’hôtel\s;/);
    const link = /^Confirmez votre réservation: (\S+)$/m.exec(mail.body.text!)![1]!;
    // Opened from another browser (English): the link's page and the booking's speak the booking's French.
    const linkPage = await get(new URL(link).pathname, { 'accept-language': 'en' });
    expect(langOf(linkPage.html)).toBe('fr');
    expect(textOf(linkPage.html)).toContain('Confirmer la réservation');
    const confirmed = await post(new URL(link).pathname, {});
    expect(confirmed.status).toBe(303);
    const page = await get(next, { 'accept-language': 'en' });
    expect(langOf(page.html)).toBe('fr');
    const confirmation = await emailTo(guest.email, /^Réservation confirmée/);
    expect(confirmation.body.text).toContain(`Arrivée: ${fr(stay.check_in)}`);
    expect(confirmation.body.text).toContain('Paiement: À régler à l’hôtel');
  });
});
