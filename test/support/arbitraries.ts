/**
 * Malformed requests for the bad-input suite (fast-check). Each generator starts from a request
 * the route would accept and breaks it in one named way (broken JSON, wrong type, missing field,
 * huge string or number, impossible date, reversed range, unicode or control characters, array
 * over the limit, body over 1 MiB, wrong content type, duplicated or oversized headers, path
 * traversal, unknown reference), optionally adding noise that does not change the verdict
 * (unknown fields, duplicated harmless headers). The route's own oracle (`accepts`) filters out
 * the rare mutation that happens to stay valid, so no generated request can change data.
 */
import fc from 'fast-check';
import type { Route } from '../../definitions/routes';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = (string | number)[];

export const MIB = 1024 * 1024;
const JSON_MIME = /^application\/(.+\+)?json($|;.+)/;

/** One generated request, what it broke, and the statuses the contract allows for it. */
export interface BadCase {
  kind: string;
  method: string;
  target: string;
  headers: [string, string][];
  body?: Buffer;
  expect: number[];
  /** Codes the answer may carry (undefined: any code of the contract). */
  codes?: string[];
}

/** What a route accepts, and what a valid request to it looks like. */
export interface RouteFixture {
  route: Route;
  /** Header lines of a credential the route accepts ([] for public routes). */
  auth: [string, string][];
  /** A concrete path of the route, parameters filled. */
  path: string;
  /** For routes with path parameters: the path built from a parameter value (raw, as sent). */
  pathWith?: (rawParam: string) => string;
  /** For routes read from the query string: a valid query. */
  query?: Record<string, string>;
  /** For routes with a JSON body: a valid body. */
  body?: Json;
  /** JSON routes: does the schema accept this parsed body? */
  schemaAccepts?: (body: unknown) => boolean;
  /** JSON routes: for a schema-valid body, the statuses with which the route refuses it (undefined: it would be accepted). */
  domainRefuses?: (body: any) => number[] | undefined;
  /** Query routes: does the route accept this query (last value of each name wins, as in API Gateway)? */
  queryAccepts?: (query: Record<string, string>) => boolean;
  /** Paths inside `body` that are references to other records (unknown values give 422). */
  references?: Path[];
  /** Paths of arrays limited to 500 items. */
  syncArrays?: Path[];
  /** Pairs of date fields [check-in, check-out]. */
  datePairs?: [Path, Path][];
}

// ---- JSON helpers

export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Every path inside a JSON value (containers and leaves), root excluded. */
export function paths(value: Json, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])]);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
  return [];
}

export function getAt(value: Json, path: Path): Json | undefined {
  let current: any = value;
  for (const part of path) current = current?.[part];
  return current;
}

export function setAt(value: Json, path: Path, replacement: Json): Json {
  const copy = clone(value);
  let current: any = copy;
  for (const part of path.slice(0, -1)) current = current[part];
  current[path.at(-1)!] = replacement;
  return copy;
}

export function deleteAt(value: Json, path: Path): Json {
  const copy = clone(value);
  let current: any = copy;
  for (const part of path.slice(0, -1)) current = current[part];
  if (Array.isArray(current)) current.splice(Number(path.at(-1)), 1);
  else delete current[path.at(-1)!];
  return copy;
}

/** Placeholders replaced by raw JSON text after serialisation (numbers JSON.stringify cannot write). */
const RAW = (i: number) => `@@RAW${i}@@`;
function serialize(value: Json, raws: string[]): string {
  let text = JSON.stringify(value);
  raws.forEach((raw, i) => {
    text = text.replace(JSON.stringify(RAW(i)), raw);
  });
  return text;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

// ---- value pools

/** Strings nobody should have to store: control characters, bidi overrides, lone surrogates, traversal, injection. */
export const nastyStrings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u0007\u0008\u001b[31m',
    '\r\nX-Injected: 1',
    '\u202Etxt.exe',
    '\uFEFF',
    '\ud800',
    '\udfff\ud800',
    '😀🏨🛏️',
    'Z̷̢̛͓a̴l̸g̵o̶',
    '../../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '%2e%2e%2f%2e%2e%2f',
    '..%252f..%252f',
    'CLIENT#00000000-0000-0000-0000-000000000000',
    'ORDER#PO-AAAAAAAAAAAA',
    "' OR '1'='1",
    '{"$ne": null}',
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    '   ',
    '\t',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
);

export const impossibleDates = fc.constantFrom(
  '2026-02-30',
  '2026-02-29',
  '2025-13-01',
  '2026-00-10',
  '2026-04-31',
  '2026-01-32',
  '0000-00-00',
  '9999-99-99',
  '2026-2-3',
  '20260203',
  '2026/02/03',
  '03-02-2026',
  '2026-02-03T00:00:00Z',
  ' 2026-02-03',
  '2026-02-03 ',
  '２０２６-０２-０３',
  '٢٠٢٦-٠٢-٠٣',
  '+02026-02-03',
  '-2026-02-03',
  '',
  'today',
);

/** Numbers as raw JSON text: beyond double range, negative zero, tiny, and not-JSON spellings. */
export const rawNumbers = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e309',
  '123456789012345678901234567890123',
  '-0',
  '1e-400',
  '4.9e-324',
  '9007199254740993',
  '1E+21',
  '007',
  '+1',
  '.5',
  '1.',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  '1_000',
);

/** Negative, fractional, huge and non-finite-ish numbers. */
export const badNumbers = fc.oneof(
  fc.constantFrom(-1, -0.01, -1e12, 0, 0.5, 1.5, 2.0000001, 1e21, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 1e12 + 1, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1e9, max: -1 }),
);

/** A value of another JSON type than `original`. */
function wrongTypeFor(original: Json | undefined): fc.Arbitrary<Json> {
  const pool: Json[] = [];
  if (typeof original !== 'string') pool.push('1', 'true', '', 'x');
  if (typeof original !== 'number') pool.push(1, 0, -1, 2.5);
  if (typeof original !== 'boolean') pool.push(true, false);
  if (!Array.isArray(original)) pool.push([], [1], ['a', 'b']);
  if (!(original && typeof original === 'object' && !Array.isArray(original))) pool.push({}, { a: 1 });
  pool.push(null);
  return fc.constantFrom(...pool);
}

/** Unknown fields with junk values, some deeply nested. */
const extraValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  nastyStrings,
  fc.integer({ min: 20, max: 200 }).map((depth) => {
    let value: Json = 'deep';
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { d: value };
    return value;
  }),
);
const extraKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'client_id', 'pk', 'sk', 'id', 'hotel_id', ''), fc.string({ maxLength: 12 }));

function addExtraFields(body: Json, at: Path[], fields: [string, Json][]): Json {
  let result = clone(body);
  for (const [i, [key, value]] of fields.entries()) {
    const target = at[i % at.length] ?? [];
    const container = target.length ? getAt(result, target) : result;
    if (!container || typeof container !== 'object' || Array.isArray(container)) continue;
    // defineProperty: a "__proto__" key must become a real own property in the JSON text.
    const copy = target.length ? clone(container) : result;
    Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
    result = target.length ? setAt(result, target, copy) : copy;
  }
  return result;
}

function objectPaths(body: Json): Path[] {
  return [[], ...paths(body).filter((p) => {
    const v = getAt(body, p);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  })];
}

// ---- the expected answer, as the contract describes it

function expectedForJson(f: RouteFixture, contentType: string | undefined, bytes: Buffer): { expect: number[]; codes?: string[] } | 'accepted' {
  if (bytes.length > MIB) return { expect: [413], codes: ['PAYLOAD_TOO_LARGE'] };
  // Media types are case-insensitive: the service lower-cases the type before it checks it.
  const mediaType = contentType?.replace(/^[^;]*/, (t) => t.trim().toLowerCase());
  if (mediaType === undefined || !JSON_MIME.test(mediaType)) return { expect: [415], codes: ['UNSUPPORTED_MEDIA_TYPE'] };
  const parsed = tryParse(bytes.length ? bytes.toString('utf8') : 'null');
  if (!parsed.ok) return { expect: [400], codes: ['INVALID_JSON'] };
  if (!f.schemaAccepts!(parsed.value)) return { expect: [400] };
  const refused = f.domainRefuses?.(parsed.value);
  return refused ? { expect: refused } : 'accepted';
}

// ---- generators

interface BodyMutation {
  kind: string;
  body?: Json;
  /** Raw literals for @@RAWn@@ placeholders in `body`. */
  raws?: string[];
  /** Replaces the serialised body entirely. */
  bytes?: Buffer;
  contentType?: string | null;
}

function bodyMutations(f: RouteFixture): fc.Arbitrary<BodyMutation> {
  const base = f.body!;
  const all = paths(base);
  const leaves = all.filter((p) => {
    const v = getAt(base, p);
    return v === null || typeof v !== 'object';
  });
  const stringLeaves = leaves.filter((p) => typeof getAt(base, p) === 'string');
  const numberLeaves = leaves.filter((p) => typeof getAt(base, p) === 'number');
  const dateLeaves = stringLeaves.filter((p) => /^\d{4}-\d{2}-\d{2}$/.test(String(getAt(base, p))));
  const text = JSON.stringify(base);
  const pick = <T>(items: T[]) => fc.constantFrom(...items);

  const mutations: fc.Arbitrary<BodyMutation>[] = [
    // Broken JSON: a proper prefix of an object is never JSON; and other near-misses.
    fc.integer({ min: 0, max: text.length - 1 }).map((n) => ({ kind: 'broken-json', bytes: Buffer.from(text.slice(0, n)) })),
    fc.constantFrom(
      `${text},`,
      `${text}}`,
      `${text} x`,
      `[${text}`,
      text.replace(/"/g, "'"),
      text.replace(/":/, '" '),
      text.replace(/,"/, ',,"'),
      `\uFEFF${text}`,
      `/* c */${text}`,
      `${text.slice(0, -1)},}`,
      `{"a":"\\x41"}`,
      `{"a":"\\u12"}`,
      '{"a":"unterminated}',
      '{"a":\u0001}',
    ).map((t) => ({ kind: 'broken-json', bytes: Buffer.from(t) })),
    fc.constantFrom('null', 'true', '0', '-1', '"text"', '[]', `[${text}]`, '{}', '""').map((t) => ({ kind: 'not-an-object', bytes: Buffer.from(t) })),
    // Invalid UTF-8 in place of a string.
    fc.constantFrom(Buffer.from([0xff, 0xfe]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80])).map((bad) => ({
      kind: 'invalid-utf8',
      bytes: Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from(',"x":'), bad, Buffer.from('}')]),
    })),
    fc.tuple(pick(all), fc.nat()).chain(([path]) => wrongTypeFor(getAt(base, path)).map((value) => ({ kind: 'wrong-type', body: setAt(base, path, value) }))),
    pick(all).map((path) => ({ kind: 'missing-field', body: deleteAt(base, path) })),
    fc.tuple(pick(stringLeaves), fc.constantFrom(129, 2001, 10_000, 200_000), fc.constantFrom('x', 'é', '😀', '\u0000')).map(([path, n, ch]) => ({
      kind: 'huge-string',
      body: setAt(base, path, ch.repeat(Math.ceil(n / ch.length))),
    })),
    fc.tuple(pick(stringLeaves), nastyStrings).map(([path, value]) => ({ kind: 'unicode-control', body: setAt(base, path, value) })),
  ];
  if (numberLeaves.length) {
    mutations.push(
      fc.tuple(pick(numberLeaves), badNumbers).map(([path, value]) => ({ kind: 'bad-number', body: setAt(base, path, value) })),
      fc.tuple(pick(numberLeaves), rawNumbers).map(([path, raw]) => ({ kind: 'raw-number', body: setAt(base, path, RAW(0)), raws: [raw] })),
    );
  }
  if (dateLeaves.length) {
    mutations.push(fc.tuple(pick(dateLeaves), impossibleDates).map(([path, value]) => ({ kind: 'impossible-date', body: setAt(base, path, value) })));
  }
  if (f.datePairs?.length) {
    mutations.push(
      fc.tuple(pick(f.datePairs), fc.constantFrom('swap', 'same', 'long')).map(([[inPath, outPath], how]) => {
        const checkIn = String(getAt(base, inPath));
        const checkOut = String(getAt(base, outPath));
        if (how === 'swap') return { kind: 'reversed-range', body: setAt(setAt(base, inPath, checkOut), outPath, checkIn) };
        if (how === 'same') return { kind: 'reversed-range', body: setAt(base, outPath, checkIn) };
        const later = new Date(Date.parse(`${checkIn}T00:00:00Z`) + 366 * 86_400_000).toISOString().slice(0, 10);
        return { kind: 'reversed-range', body: setAt(base, outPath, later) };
      }),
    );
  }
  if (f.syncArrays?.length) {
    mutations.push(
      fc.tuple(pick(f.syncArrays), fc.integer({ min: 501, max: 520 })).map(([path, n]) => {
        const [item] = getAt(base, path) as Json[];
        const items = Array.from({ length: n }, () => clone(item!));
        return { kind: 'array-over-limit', body: setAt(base, path, items) };
      }),
    );
  }
  const nestedArrays = paths(base).filter((p) => Array.isArray(getAt(base, p)) && !f.syncArrays?.some((s) => s.join('.') === p.join('.')));
  if (nestedArrays.length) {
    mutations.push(
      fc.tuple(pick(nestedArrays), fc.integer({ min: 101, max: 140 })).map(([path, n]) => {
        const [item = 'x'] = getAt(base, path) as Json[];
        return { kind: 'array-over-limit', body: setAt(base, path, Array.from({ length: n }, () => item)) };
      }),
    );
  }
  if (f.references?.length) {
    mutations.push(
      fc.tuple(pick(f.references), fc.oneof(nastyStrings, fc.uuid(), fc.constantFrom('../R101', 'R101/..', 'R101%00', 'r101', 'R101 ', 'STD#', '*'))).map(([path, value]) => ({
        kind: 'unknown-reference',
        body: setAt(base, path, value),
      })),
    );
  }
  // Bodies over 1 MiB: ASCII or two-byte characters (under 1 Mi characters, over 1 MiB of bytes).
  mutations.push(
    fc.tuple(fc.integer({ min: 1, max: 64 * 1024 }), fc.constantFrom('x', 'é'), fc.boolean()).map(([extra, ch, broken]) => {
      const padding = ch.repeat(Math.ceil((MIB + extra) / Buffer.byteLength(ch)));
      const bytes = Buffer.from(`{"padding":"${padding}",${text.slice(1)}`);
      return { kind: 'body-over-1mib', bytes: broken ? bytes.subarray(0, bytes.length - 1) : bytes };
    }),
  );
  mutations.push(
    fc
      .constantFrom(null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx', 'json', 'application/', '*/*', 'text/json', 'application/json;', 'application/json-patch')
      .map((contentType) => ({ kind: 'wrong-content-type', body: base, contentType })),
  );
  return fc.oneof(...mutations);
}

/** Extra, harmless header lines: duplicated and long ones, well under any limit. */
const noiseHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    fc.constant<[string, string]>(['X-Duplicate', 'a']),
    fc.constant<[string, string]>(['Accept', 'application/json']),
    fc.constant<[string, string]>(['Accept', '*/*']),
    fc.integer({ min: 1000, max: 3000 }).map((n): [string, string] => ['X-Long', 'v'.repeat(n)]),
    fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((v): [string, string] => ['User-Agent', v.replace(/[^\x21-\x7e]/g, '') || 'agent']),
  ),
  { maxLength: 4 },
);

/** Requests with a JSON body: one mutation, maybe unknown fields, maybe noise headers and an Idempotency-Key. */
export function jsonBodyCases(f: RouteFixture): fc.Arbitrary<BadCase> {
  const extras = fc.array(fc.tuple(extraKey, extraValue), { maxLength: 3 });
  return fc
    .record({
      mutation: bodyMutations(f),
      extras,
      noise: noiseHeaders,
      idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 200 }).map((s) => s.replace(/[^\x21-\x7e]/g, '') || 'k')), { nil: undefined }),
      duplicateContentType: fc.boolean(),
    })
    .map(({ mutation, extras, noise, idempotencyKey, duplicateContentType }) => {
      let body = mutation.body;
      if (body !== undefined && extras.length) body = addExtraFields(body, objectPaths(body), extras);
      const bytes = mutation.bytes ?? Buffer.from(serialize(body!, mutation.raws ?? []), 'utf8');
      const contentType = mutation.contentType === undefined ? 'application/json' : (mutation.contentType ?? undefined);
      const headers: [string, string][] = [...f.auth, ...noise];
      if (contentType !== undefined) {
        // The same header twice: the gateway, like API Gateway, keeps the last one.
        if (duplicateContentType) headers.push(['Content-Type', 'text/plain']);
        headers.push(['Content-Type', contentType]);
      }
      if (idempotencyKey !== undefined && f.route.idempotent) headers.push(['Idempotency-Key', idempotencyKey]);
      const verdict = expectedForJson(f, contentType, bytes);
      return { mutation: mutation.kind, extras: extras.length, verdict, bytes, headers };
    })
    .filter(({ verdict }) => verdict !== 'accepted')
    .map(({ mutation, extras, verdict, bytes, headers }) => {
      const { expect, codes } = verdict as { expect: number[]; codes?: string[] };
      return { kind: extras ? `${mutation}+extra-fields` : mutation, method: f.route.method, target: f.path, headers, body: bytes, expect, codes };
    });
}

/** A valid body with an Idempotency-Key the contract refuses (empty or over 255 characters): 400, nothing runs. */
export function badIdempotencyKeyCases(f: RouteFixture): fc.Arbitrary<BadCase> {
  return fc.oneof(fc.constant(''), fc.integer({ min: 256, max: 4000 }).map((n) => 'k'.repeat(n))).map((key) => ({
    kind: 'bad-idempotency-key',
    method: f.route.method,
    target: f.path,
    headers: [...f.auth, ['Content-Type', 'application/json'], ['Idempotency-Key', key]],
    body: Buffer.from(JSON.stringify(f.body)),
    expect: [400],
    codes: ['VALIDATION_ERROR'],
  }));
}

/** Lone surrogates cannot be percent-encoded; they become U+FFFD, as a browser would send them. */
export const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const encodeQuery = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`).join('&');

/** Query-string routes: missing, malformed, reversed, oversized and duplicated parameters. */
export function queryCases(f: RouteFixture): fc.Arbitrary<BadCase> {
  const base = Object.entries(f.query!) as [string, string][];
  const names = base.map(([k]) => k);
  const badValue = fc.oneof(
    impossibleDates,
    nastyStrings,
    fc.constantFrom('0', '-1', '1.5', '1e3', '00002', '２', ' 1', '1 ', '0x10', '99999999', 'NaN', 'null', '[]', 'x'.repeat(129), 'y'.repeat(2001)),
  );
  const mutated = fc.oneof(
    fc.constantFrom(...names).map((name) => ({ kind: 'missing-param', pairs: base.filter(([k]) => k !== name) })),
    fc.tuple(fc.constantFrom(...names), badValue).map(([name, value]) => ({ kind: 'bad-param', pairs: base.map(([k, v]): [string, string] => [k, k === name ? value : v]) })),
    // Repeated names: the last value wins, as in API Gateway's queryStringParameters.
    fc.tuple(fc.constantFrom(...names), badValue).map(([name, value]) => ({ kind: 'duplicated-param', pairs: [...base, [name, value] as [string, string]] })),
    fc.constantFrom('swap', 'same', 'long').map((how) => {
      const q = { ...f.query! };
      if (how === 'swap') [q.check_in_date, q.check_out_date] = [q.check_out_date!, q.check_in_date!];
      else if (how === 'same') q.check_out_date = q.check_in_date!;
      else q.check_out_date = new Date(Date.parse(`${q.check_in_date}T00:00:00Z`) + 366 * 86_400_000).toISOString().slice(0, 10);
      return { kind: 'reversed-range', pairs: Object.entries(q) as [string, string][] };
    }),
  );
  return fc
    .record({ m: mutated, raw: fc.constantFrom('', '&%ZZ=1', '&a=%FF%FE', '&&&', '&=x', `&pad=${'p'.repeat(6000)}`), noise: noiseHeaders })
    .map(({ m, raw, noise }) => {
      const queryString = encodeQuery(m.pairs) + raw;
      const parsed = Object.fromEntries(new URLSearchParams(queryString));
      return { m, accepted: f.queryAccepts!(parsed), target: `${f.path}?${queryString}`, noise };
    })
    .filter(({ accepted }) => !accepted)
    .map(({ m, target, noise }) => ({ kind: m.kind, method: f.route.method, target, headers: [...f.auth, ...noise], expect: [400], codes: ['VALIDATION_ERROR'] }));
}

/** Path parameters: traversal (raw and encoded), encoded control bytes, malformed escapes, huge and unicode values. */
export const pathParams: fc.Arbitrary<{ kind: string; raw: string }> = fc.oneof(
  fc
    .constantFrom(
      '..',
      '../..',
      '../verify',
      '..%2F..%2Fproperty-sync%2Frooms',
      '%2e%2e%2f%2e%2e%2f',
      '..%5C..%5C',
      '%252e%252e%252f',
      '.',
      '%2F',
      '%00',
      'PO-AAAA%00AAAAAAA',
      '%0d%0aX-Injected:%201',
      '%E0%A4%A',
      '%',
      '%ZZ',
      '%C0%AE%C0%AE%2F',
      '%F0%9F%98%80',
      '%EF%BC%8E%EF%BC%8E',
      'PO-aaaaaaaaaaaa',
      "PO-'OR'1'='1",
      'verify',
    )
    .map((raw) => ({ kind: 'path-traversal', raw })),
  fc.constantFrom('../../api/v1/property-sync/rooms', '../../../sandbox/checkout/x', './PO-AAAAAAAAAAAA', 'a/b').map((raw) => ({ kind: 'path-traversal', raw })),
  nastyStrings.map((s) => ({ kind: 'unicode-control', raw: encodeURIComponent(wellFormed(s)) })),
  fc.integer({ min: 200, max: 7000 }).map((n) => ({ kind: 'huge-string', raw: 'P'.repeat(n) })),
);

export function pathParamCases(f: RouteFixture, expect: number[], codes?: string[]): fc.Arbitrary<BadCase> {
  return fc.record({ p: pathParams, noise: noiseHeaders }).map(({ p, noise }) => {
    const target = f.pathWith!(p.raw);
    // Traversal can land on another route (or none): there any refusal is right, never a 5xx.
    const normalized = new URL(target, 'http://127.0.0.1').pathname;
    const elsewhere = normalized !== target || normalized.split('/').length !== f.path.split('/').length || p.raw === 'verify';
    // A malformed percent-escape cannot be decoded into a parameter: the gateway refuses it (400).
    let malformed = false;
    try {
      decodeURIComponent(p.raw);
    } catch {
      malformed = true;
    }
    return {
      kind: p.kind,
      method: f.route.method,
      target,
      headers: [...f.auth, ...noise, ...(f.route.method === 'POST' ? ([['Content-Type', 'application/x-www-form-urlencoded']] as [string, string][]) : [])],
      ...(f.route.method === 'POST' ? { body: Buffer.from('outcome=paid') } : {}),
      expect: elsewhere ? [400, 401, 403, 404, 405, 415] : malformed ? [400] : expect,
      codes: elsewhere ? undefined : malformed ? ['VALIDATION_ERROR'] : codes,
    };
  });
}

/** Headers the gateway itself refuses: one header line larger than the HTTP server takes. */
export function oversizedHeaderCases(f: RouteFixture): fc.Arbitrary<BadCase> {
  return fc.integer({ min: 17 * 1024, max: 64 * 1024 }).map((n) => ({
    kind: 'oversized-header',
    method: f.route.method,
    target: f.path,
    headers: [...f.auth, ['X-Huge', 'h'.repeat(n)]],
    expect: [400, 431],
  }));
}

/** Credentials sent wrongly to a keyed route: the authorizer answers before anything is read. */
export function credentialCases(f: RouteFixture, validKey: string, otherKindKey: string): fc.Arbitrary<BadCase> {
  const cases: [string, [string, string][], number, string][] = [
    ['no-key', [], 401, 'MISSING_API_KEY'],
    ['malformed-key', [['Authorization', 'Bearer svc_sync_short']], 401, 'INVALID_API_KEY'],
    ['malformed-key', [['Authorization', `Bearer ${validKey.slice(0, -1)}!`]], 401, 'INVALID_API_KEY'],
    ['malformed-key', [['Authorization', `Bearer ${validKey}${'A'.repeat(200)}`]], 401, 'INVALID_API_KEY'],
    ['malformed-key', [['Authorization', `Basic ${validKey}`]], 401, 'INVALID_API_KEY'],
    ['malformed-key', [['Authorization', `Bearer ${validKey} ${validKey}`]], 401, 'INVALID_API_KEY'],
    ['malformed-key', [['Authorization', `Bearer ${'\u00e9'.repeat(50)}`]], 401, 'INVALID_API_KEY'],
    // Two Authorization lines: the last one counts, as in API Gateway.
    ['duplicated-header', [['Authorization', `Bearer ${validKey}`], ['Authorization', 'Bearer svc_pay_nope']], 401, 'INVALID_API_KEY'],
    ['wrong-kind-key', [['Authorization', `Bearer ${otherKindKey}`]], 403, 'INSUFFICIENT_SCOPE'],
  ];
  return fc.constantFrom(...cases).map(([kind, auth, status, code]) => ({
    kind,
    method: f.route.method,
    target: f.path + (f.query ? `?${encodeQuery(Object.entries(f.query))}` : ''),
    headers: [...auth, ['Content-Type', 'application/json']],
    body: f.body === undefined ? undefined : Buffer.from(JSON.stringify(f.body)),
    expect: [status],
    codes: [code],
  }));
}

/** Anything at all, for routes this suite has no model of (added after it was written). */
export function genericCases(f: RouteFixture): fc.Arbitrary<BadCase> {
  return fc
    .record({
      body: fc.oneof(
        fc.constant(undefined),
        fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
        fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v))),
        fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
      ),
      contentType: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/x-www-form-urlencoded'),
      param: pathParams,
      noise: noiseHeaders,
    })
    .map(({ body, contentType, param, noise }) => ({
      kind: 'generic',
      method: f.route.method,
      target: f.pathWith ? f.pathWith(param.raw) : f.path,
      headers: [...f.auth, ...noise, ...(contentType ? ([['Content-Type', contentType]] as [string, string][]) : [])],
      body,
      expect: [400, 401, 403, 404, 405, 409, 413, 415, 422],
    }));
}
