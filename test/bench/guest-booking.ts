/**
 * Guest booking page: a hotel of 200 rooms (4 categories, 20 rooms booked in the week), the
 * booking page's search answer for the week (GET /book/{client_id}?check_in&check_out&guests,
 * the server-rendered results with a Book button per free room) through the local gateway, its
 * p50 and p99; beside it, interleaved request by request, the API's availability for the same
 * stay (the same availability use case, as JSON) as a baseline taken in the same window. And the
 * page weight a phone downloads for the results, at its heaviest (all 200 rooms free): the HTML
 * plus the one stylesheet, against 50 KB (no script, no image).
 */
import { addDays, bookings, categories, rooms, SOURCE, WEEK } from './lib/fixtures';
import { expectStatus } from './lib/http';
import type { BenchStack } from './lib/stack';
import { bytes, median, ms, percentile, ratio, round, x } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const ROOMS = 200;
const BOOKED = 20;
/** 50 KB, read as 50 KiB (51,200 bytes), without images: the target for the page. */
const MAX_PAGE_BYTES = 50 * 1024;
const GUESTS = 2;

export async function guestBooking(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { http } = stack;
  const samples = config.quick ? 40 : 300;
  const warmup = 10;

  config.log(`setting up a hotel of ${ROOMS} rooms`);
  const tenant = await stack.createTenant('Guest booking');
  const key = tenant.syncKey;
  expectStatus(await http.send('PUT', '/api/v1/property-sync/room-categories', { key, body: { external_source: SOURCE, categories: categories() } }), 200);
  const put = await http.send('PUT', '/api/v1/property-sync/rooms', { key, body: { external_source: SOURCE, rooms: rooms(ROOMS, { withCategories: true }) } });
  expectStatus(put, 200);
  const roomIds = (put.body.items as { external_room_id: string }[]).map((i) => i.external_room_id);
  expectStatus(await http.send('PUT', '/api/v1/property-sync/bookings', { key, body: { external_source: SOURCE, bookings: bookings(roomIds.slice(0, BOOKED), WEEK.check_in_date, 7, 'week') } }), 200);

  const page = `/book/${tenant.clientId}?check_in=${WEEK.check_in_date}&check_out=${WEEK.check_out_date}&guests=${GUESTS}`;
  const api = `/api/v1/property-sync/availability?check_in_date=${WEEK.check_in_date}&check_out_date=${WEEK.check_out_date}&guests=${GUESTS}`;
  const offered = (html: string) => html.match(/>Book<\/button>/g)?.length ?? 0;

  async function timePage(): Promise<{ ms: number; html: string }> {
    const t = performance.now();
    const response = await http.send('GET', page);
    const elapsed = performance.now() - t;
    expectStatus(response, 200);
    return { ms: elapsed, html: response.text };
  }
  async function timeApi(): Promise<number> {
    const t = performance.now();
    const response = await http.send('GET', api, { key });
    const elapsed = performance.now() - t;
    expectStatus(response, 200);
    return elapsed;
  }

  for (let i = 0; i < warmup; i++) {
    await timePage();
    await timeApi();
  }
  config.log(`measuring ${samples} search answers, interleaved with the API's availability`);
  const pageMs: number[] = [];
  const apiMs: number[] = [];
  let html = '';
  for (let i = 0; i < samples; i++) {
    // Order swapped every round, so neither side always runs on a warmer connection.
    if (i % 2) apiMs.push(await timeApi());
    const sample = await timePage();
    pageMs.push(sample.ms);
    html = sample.html;
    if (!(i % 2)) apiMs.push(await timeApi());
  }

  // The heaviest answer: a week three weeks later, when every room is free.
  const freeWeek = { check_in: addDays(WEEK.check_in_date, 21), check_out: addDays(WEEK.check_out_date, 21) };
  const full = await http.send('GET', `/book/${tenant.clientId}?check_in=${freeWeek.check_in}&check_out=${freeWeek.check_out}&guests=${GUESTS}`);
  expectStatus(full, 200);
  const css = await http.send('GET', '/book/style.css');
  expectStatus(css, 200);
  const form = await http.send('GET', `/book/${tenant.clientId}`);
  expectStatus(form, 200);
  const htmlBytes = Buffer.byteLength(html);
  const fullBytes = Buffer.byteLength(full.text);
  const fullOffered = offered(full.text);
  const cssBytes = Buffer.byteLength(css.text);
  const formBytes = Buffer.byteLength(form.text);
  const rooms_offered = offered(html);
  // The page lists each room type once: as many as the types the API finds a free room of.
  const free = await http.send('GET', api, { key });
  expectStatus(free, 200);
  const freeRooms = free.body.available_rooms as { room_type: string; category?: { name: string } | null }[];
  const freeTypes = new Set(freeRooms.map((room) => room.category?.name ?? room.room_type)).size;
  const scripts = (html.match(/<script/g) ?? []).length;

  const p50 = median(pageMs);
  const p99 = percentile(pageMs, 99);
  const apiP50 = median(apiMs);
  const apiP99 = percentile(apiMs, 99);
  const weight = fullBytes + cssBytes;
  const rows: Row[] = [
    { figure: `Search answer, ${ROOMS} rooms: p50`, value: ms(p50), baseline: `${ms(apiP50)} (API availability)`, ratio: x(ratio(p50, apiP50)), target: 'reference' },
    { figure: `Search answer, ${ROOMS} rooms: p99`, value: ms(p99), baseline: `${ms(apiP99)} (API availability)`, ratio: x(ratio(p99, apiP99)), target: 'reference' },
    {
      figure: `Page weight: results of ${fullOffered} room types (every room free), HTML + CSS`,
      value: `${bytes(weight)} (${weight.toLocaleString('en-US')} B: HTML ${fullBytes.toLocaleString('en-US')}, CSS ${cssBytes.toLocaleString('en-US')})`,
      ratio: `${Math.round((100 * weight) / MAX_PAGE_BYTES)}% of 50 KB`,
      target: `< 50 KB (${MAX_PAGE_BYTES.toLocaleString('en-US')} B)`,
      met: weight < MAX_PAGE_BYTES,
    },
    { figure: `Page weight: results of ${rooms_offered} room types (the measured answer), HTML + CSS`, value: bytes(htmlBytes + cssBytes), target: '< 50 KB', met: htmlBytes + cssBytes < MAX_PAGE_BYTES },
    { figure: 'Page weight: the search form alone, HTML + CSS', value: bytes(formBytes + cssBytes), target: `< 50 KB`, met: formBytes + cssBytes < MAX_PAGE_BYTES },
    { figure: 'Scripts on the page', value: String(scripts), target: '0', met: scripts === 0 },
    {
      figure: `Room types offered (each type with a free room among the ${ROOMS - BOOKED} of ${ROOMS} rooms free, as the API's availability finds them)`,
      value: String(rooms_offered),
      target: String(freeTypes),
      met: freeRooms.length === ROOMS - BOOKED && rooms_offered === freeTypes,
    },
  ];
  return {
    id: 'guest-booking',
    title: 'Guest booking page',
    method:
      `A hotel of ${ROOMS} rooms (4 categories, ${BOOKED} rooms booked in the week); the booking page's search answer ` +
      `(GET /book/{client_id} with ${WEEK.check_in_date}..${WEEK.check_out_date}, ${GUESTS} guests: the server-rendered results, a Book button per free room) ` +
      `through the local gateway, ${samples} requests one at a time after ${warmup} warm-ups, interleaved with the API's availability for the same stay ` +
      '(the same use case answered as JSON) as the baseline. Page weight: the bytes of the results HTML (also for a week when all 200 rooms are free, the heaviest answer) and of the stylesheet, uncompressed (no script, no image).',
    rows,
    notes: [`Search answer mean ${ms(pageMs.reduce((a, b) => a + b, 0) / pageMs.length)}, max ${ms(Math.max(...pageMs))}.`],
    data: {
      rooms: ROOMS,
      booked: BOOKED,
      week: WEEK,
      samples,
      page_ms: { p50: round(p50), p99: round(p99), mean: round(pageMs.reduce((a, b) => a + b, 0) / pageMs.length), max: round(Math.max(...pageMs)) },
      api_ms: { p50: round(apiP50), p99: round(apiP99) },
      bytes: { all_free_html: fullBytes, measured_html: htmlBytes, css: cssBytes, total: weight, form_html: formBytes, target: MAX_PAGE_BYTES },
      rooms_offered,
      rooms_offered_all_free: fullOffered,
    },
    seconds: (performance.now() - started) / 1000,
  };
}
