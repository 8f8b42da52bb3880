/**
 * Callback and webhook URLs never point inside (docs/behaviour.md "Payment safety in deployed stages"):
 * refused when saved, through configureEndpoint as `callbacks set` / `webhooks set` run it, and
 * again at send time against the DNS answer, which a responder on loopback gives here
 * (DNS_SERVERS): the delivery ends needs_review with the reason, and nothing is sent.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDnsServer, startDnsServer } from '../support/dns-server';
import { withEnv } from '../support/env';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let dns: TestDnsServer;

type Domain = {
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  store: typeof import('../../shared/store/room-store');
  outbound: typeof import('../../shared/net/outbound-post');
  config: typeof import('../../shared/config');
};
let domain: Domain;

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  // Each refusal is logged as a warning; this file makes many on purpose.
  process.env.LOG_LEVEL = 'ERROR';
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    store: await import('../../shared/store/room-store'),
    outbound: await import('../../shared/net/outbound-post'),
    config: await import('../../shared/config'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  await dns?.close();
});

beforeEach(() => {
  receiver.received.length = 0;
});

/** What a deployed stage would answer: the same code under another STAGE. */
// cognito-local's http endpoint and issuer are refused outside the local stack: a deployed stage has neither.
const onDeployedStage = <T>(run: () => Promise<T>) =>
  withEnv({ STAGE: 'test', COGNITO_ENDPOINT: undefined, COGNITO_ISSUER: undefined, USER_POOL_ID: undefined, USER_POOL_CLIENT_ID: undefined, SES_ENDPOINT: undefined }, run);

/** One client whose URLs the save tests set, made on the local stack (a deployed stage registers usage keys in API Gateway). */
let savingClient: Promise<string> | undefined;

async function saveUrl(url: string, kind: 'callback' | 'webhook' = 'callback') {
  savingClient ??= withEnv({ STAGE: 'local' }, () => stack.createTenant()).then((tenant) => tenant.clientId);
  return domain.callbacks.configureEndpoint(await savingClient, kind, { url });
}

async function refusalAtSave(url: string, kind: 'callback' | 'webhook' = 'callback') {
  const error = await saveUrl(url, kind).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${url} was accepted`).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  const { message, details } = error as { message: string; details: { path: string; message: string }[] };
  expect(details).toEqual([{ path: 'url', message }]);
  return message;
}

// Refused on every stage, the local stack included. [URL, what the message says]
const INSIDE: [string, string][] = [
  ['https://10.0.0.1/hooks', '10.0.0.1 is a private address'],
  ['https://172.16.0.1/hooks', '172.16.0.1 is a private address'],
  ['https://172.31.255.254/hooks', '172.31.255.254 is a private address'],
  ['https://192.168.1.10/hooks', '192.168.1.10 is a private address'],
  ['https://[fc00::1]/hooks', 'fc00::1 is a private address'],
  ['https://[fd00:ec2::254]/hooks', 'fd00:ec2::254 is a private address'],
  ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
  ['https://[fe80::1]/hooks', 'fe80::1 is a link-local address'],
  ['https://100.64.0.1/hooks', '100.64.0.1 is a shared address'],
  ['https://100.127.255.254/hooks', '100.127.255.254 is a shared address'],
  ['https://[::ffff:10.0.0.1]/hooks', '::ffff:a00:1 is an IPv4-mapped private address'],
  ['https://[::ffff:a9fe:a9fe]/hooks', '::ffff:a9fe:a9fe is an IPv4-mapped link-local address'],
  ['https://[::ffff:100.64.0.1]/hooks', '::ffff:6440:1 is an IPv4-mapped shared address'],
  ['https://[64:ff9b::a00:1]/hooks', '64:ff9b::a00:1 is a NAT64 private address'],
  ['https://0.0.0.0/hooks', '0.0.0.0 is an unspecified address'],
  ['https://[::]/hooks', ':: is an unspecified address'],
  ['https://0xa9.254.169.254/hooks', '169.254.169.254 is a link-local address'],
  ['http://10.0.0.1/hooks', '10.0.0.1 is a private address'],
];

// Loopback in its spellings: refused on deployed stages only. [URL, what the message says]
const LOOPBACK: [string, string][] = [
  ['https://127.0.0.1/hooks', '127.0.0.1 is a loopback address'],
  ['https://127.8.9.10/hooks', '127.8.9.10 is a loopback address'],
  ['https://[::1]/hooks', '::1 is a loopback address'],
  ['https://2130706433/hooks', '127.0.0.1 is a loopback address'],
  ['https://0x7f.1/hooks', '127.0.0.1 is a loopback address'],
  ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1 is an IPv4-mapped loopback address'],
  ['https://[::ffff:7f00:1]/hooks', '::ffff:7f00:1 is an IPv4-mapped loopback address'],
  ['https://localhost/hooks', 'localhost is a loopback name'],
  ['https://LOCALHOST./hooks', 'localhost is a loopback name'],
  ['https://hooks.localhost/hooks', 'hooks.localhost is a loopback name'],
];

describe('saving a callback or webhook URL', () => {
  it.each(INSIDE)('refuses %s on the local stack and on a deployed stage', async (url, reason) => {
    const expected = `The URL must not point inside the network: ${reason}`;
    expect(await refusalAtSave(url)).toBe(expected);
    expect(await refusalAtSave(url, 'webhook')).toBe(expected);
    expect(await onDeployedStage(() => refusalAtSave(url))).toBe(expected);
  });

  it.each(LOOPBACK)('refuses %s on a deployed stage; the local stack takes it', async (url, reason) => {
    expect(await onDeployedStage(() => refusalAtSave(url))).toBe(`The URL must not point inside the network: ${reason}`);
    expect(await onDeployedStage(() => refusalAtSave(url, 'webhook'))).toBe(`The URL must not point inside the network: ${reason}`);
    await expect(saveUrl(url)).resolves.toMatchObject({ url: expect.stringMatching(/^https:\/\//) });
    await expect(saveUrl(url.replace('https:', 'http:'))).resolves.toMatchObject({ url: expect.stringMatching(/^http:\/\//) });
  });

  it('takes http only on the local stack', async () => {
    expect(await onDeployedStage(() => refusalAtSave('http://pms.example.com/hooks'))).toBe('The URL must use https');
    await expect(saveUrl('http://pms.example.com/hooks')).resolves.toMatchObject({ url: 'http://pms.example.com/hooks' });
  });

  it('takes names and public addresses; their DNS answer is checked when sending', async () => {
    for (const url of ['https://pms.example.com/hooks/booking', 'https://93.184.215.14/hooks', 'https://[2606:4700::6810:84e5]/hooks', 'https://localhost.example.com/hooks']) {
      await expect(saveUrl(url)).resolves.toMatchObject({ url });
    }
  });
});

// ---- sending

/** The receiver's URL with another host. */
const receiverOn = (host: string) => `http://${host}:${new URL(receiver.url).port}/hooks/booking`;

/** A client with one synced room and a callback URL, saved as `callbacks set` saves it unless told; then a booking. */
async function bookWithCallback(
  url: string,
  save: (clientId: string) => Promise<unknown> = (clientId) => domain.callbacks.configureEndpoint(clientId, 'callback', { url }),
) {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '1', room_type: 'double', price: 90, max_occupancy: 2 }] },
  });
  expect(put.status).toBe(200);
  const [room] = await domain.store.listRooms(tenant.clientId);
  await save(tenant.clientId);
  await domain.bookings.confirmServiceBooking(tenant.clientId, {
    origin: 'reception',
    roomId: room!.id,
    requireRoom: true,
    guest_name: 'Ada Lovelace',
    guest_email: 'ada@example.com',
    guests: 2,
    check_in_date: '2027-06-10',
    check_out_date: '2027-06-12',
    total_amount: 180,
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  return tenant.clientId;
}

async function settled(clientId: string, expected: 'delivered' | 'failed' | 'needs_review') {
  return waitFor(`a ${expected} delivery`, async () => {
    const [delivery] = await domain.callbacks.listDeliveries(clientId);
    return delivery?.status === expected ? delivery : undefined;
  });
}

describe('sending to a name whose DNS answer points inside', () => {
  // [the name's first label, its DNS answer, the refused address as the attempt names it]
  it.each([
    ['private-10', ['10.0.0.7'], '10.0.0.7 (private address)'],
    ['private-172', ['172.20.1.2'], '172.20.1.2 (private address)'],
    ['private-192', ['192.168.0.5'], '192.168.0.5 (private address)'],
    ['unique-local', ['fd12:3456::7'], 'fd12:3456::7 (private address)'],
    ['link-local', ['169.254.169.254'], '169.254.169.254 (link-local address)'],
    ['link-local-v6', ['fe80::1'], 'fe80::1 (link-local address)'],
    ['shared', ['100.64.0.9'], '100.64.0.9 (shared address)'],
    ['mapped-private', ['::ffff:10.0.0.7'], '::ffff:10.0.0.7 (IPv4-mapped private address)'],
    ['mapped-link-local', ['::ffff:169.254.169.254'], '::ffff:169.254.169.254 (IPv4-mapped link-local address)'],
    ['mapped-shared', ['::ffff:100.64.0.9'], '::ffff:100.64.0.9 (IPv4-mapped shared address)'],
    ['unspecified', ['0.0.0.0'], '0.0.0.0 (unspecified address)'],
    ['one-of-several', ['198.51.100.7', '10.0.0.7'], '10.0.0.7 (private address)'],
  ])('%s.addr.test (%j) ends needs_review, nothing sent', async (label, answer, refused) => {
    const host = `${label}.addr.test`;
    dns.answer(host, answer);
    const clientId = await bookWithCallback(receiverOn(host));
    const delivery = await settled(clientId, 'needs_review');
    expect(delivery.attempts).toEqual([{ at: expect.any(String), status_code: null, duration_ms: expect.any(Number), error: `refused: ${host} resolved to ${refused}` }]);
    expect(receiver.received).toEqual([]);
    expect(dns.queries.filter((q) => q.name === host).map((q) => q.type).sort()).toEqual(['A', 'AAAA']);
  });

  it('refuses a loopback answer on a deployed stage (the sender\'s own check, as it runs there)', async () => {
    for (const [label, answer] of [['loopback-v4', ['127.0.0.1']], ['loopback-v6', ['::1']], ['loopback-mapped', ['::ffff:127.0.0.1']]] as const) {
      const host = `${label}.addr.test`;
      dns.answer(host, [...answer]);
      const result = await domain.outbound.postOutbound(receiverOn(host), {
        headers: {},
        body: '{}',
        timeoutMs: 5_000,
        allowLoopback: false,
        dnsServers: domain.config.config().dnsServers,
      });
      expect(result).toEqual({ kind: 'refused', error: expect.stringMatching(new RegExp(`^refused: ${host} resolved to \\S+ \\((IPv4-mapped )?loopback address\\)$`)) });
    }
    expect(receiver.received).toEqual([]);
  });

  it('refuses a URL stored before the check existed', async () => {
    const { putEndpoint } = await import('../../shared/store/endpoint-store');
    const url = 'https://169.254.169.254/latest/meta-data';
    const clientId = await bookWithCallback(url, (id) =>
      putEndpoint(id, 'callback', { url, secret: 'a-secret-of-enough-length', updated_at: new Date().toISOString() }),
    );
    const delivery = await settled(clientId, 'needs_review');
    expect(delivery.attempts).toEqual([
      {
        at: expect.any(String),
        status_code: null,
        duration_ms: expect.any(Number),
        error: 'refused: The URL must not point inside the network: 169.254.169.254 is a link-local address',
      },
    ]);
  });
});

describe('sending to a name whose DNS answer is allowed', () => {
  it('delivers to a loopback answer on the local stack, with the name as Host', async () => {
    dns.answer('receiver.addr.test', ['127.0.0.1']);
    const clientId = await bookWithCallback(receiverOn('receiver.addr.test'));
    const delivery = await settled(clientId, 'delivered');
    expect(delivery.attempts).toEqual([{ at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), error: null }]);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`receiver.addr.test:${new URL(receiver.url).port}`);
  });

  it('connects to the address it checked: a second, rebinding answer is never asked for', async () => {
    let answers = 0;
    dns.answer('rebinding.addr.test', () => (answers++ === 0 ? ['127.0.0.1'] : ['10.0.0.1']));
    const clientId = await bookWithCallback(receiverOn('rebinding.addr.test'));
    await settled(clientId, 'delivered');
    expect(receiver.received).toHaveLength(1);
    expect(dns.queries.filter((q) => q.name === 'rebinding.addr.test' && q.type === 'A')).toHaveLength(1);
  });

  it('keeps a DNS failure a retryable network error', async () => {
    const clientId = await bookWithCallback(receiverOn('nowhere.addr.test'));
    const failed = await settled(clientId, 'failed');
    // The first attempt and one per configured delay (0,0).
    expect(failed.attempts).toHaveLength(3);
    expect(failed.attempts.every((a) => a.status_code === null && /^ENOTFOUND: .*nowhere\.addr\.test/.test(a.error ?? ''))).toBe(true);
  });
});

describe('connections to a receiver', () => {
  /** A receiver that counts its connections; `resetSecond` drops a connection's second request unanswered. */
  async function countingReceiver(options: { resetSecond?: boolean } = {}) {
    const counts = { connections: 0, requests: 0 };
    const served = new WeakMap<object, number>();
    const server = createServer((req, res) => {
      counts.requests++;
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (options.resetSecond && n === 2) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server.on('connection', () => counts.connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const close = () => new Promise((resolve) => server.close(resolve));
    return { counts, port, close };
  }

  const post = (url: string) => domain.outbound.postOutbound(url, { headers: { 'Content-Type': 'application/json' }, body: '{"n":1}', timeoutMs: 5_000, allowLoopback: true, dnsServers: [dns.address] });

  it('sends a backlog to one receiver over one kept connection, not one connection a delivery', async () => {
    const receiving = await countingReceiver();
    try {
      for (let i = 0; i < 20; i++) expect(await post(`http://127.0.0.1:${receiving.port}/hooks`)).toEqual({ kind: 'response', statusCode: 200 });
      expect(receiving.counts).toEqual({ connections: 1, requests: 20 });
    } finally {
      await receiving.close();
    }
  });

  it('sends once more, on a new connection, when the receiver dropped the kept one', async () => {
    const receiving = await countingReceiver({ resetSecond: true });
    try {
      const url = `http://127.0.0.1:${receiving.port}/hooks`;
      expect(await post(url)).toEqual({ kind: 'response', statusCode: 200 });
      expect(await post(url)).toEqual({ kind: 'response', statusCode: 200 });
      expect(receiving.counts).toEqual({ connections: 2, requests: 3 });
    } finally {
      await receiving.close();
    }
  });

  it('checks the DNS answer before every attempt, a kept connection notwithstanding', async () => {
    const receiving = await countingReceiver();
    let answers = 0;
    dns.answer('kept.addr.test', () => (answers++ === 0 ? ['127.0.0.1'] : ['10.0.0.1']));
    try {
      const url = `http://kept.addr.test:${receiving.port}/hooks`;
      expect(await post(url)).toEqual({ kind: 'response', statusCode: 200 });
      expect(await post(url)).toEqual({ kind: 'refused', error: expect.stringMatching(/kept\.addr\.test resolved to 10\.0\.0\.1/) });
      expect(receiving.counts).toEqual({ connections: 1, requests: 1 });
    } finally {
      await receiving.close();
    }
  });
});
