/**
 * A loopback stand-in for the part of the Stripe API the Stripe adapter calls, so the real SDK
 * can be exercised without an account: POST /v1/checkout/sessions (form-encoded, nested keys as
 * the SDK sends them), GET /v1/checkout/sessions/:id (with expand[]=payment_intent), POST
 * /v1/refunds, GET /v1/refunds/:id and GET /v1/refunds?payment_intent= (refunds of a paid
 * intent, never more than it, listed newest first with their metadata). It
 * checks the bearer key, scopes sessions to the Stripe-Account they were created on, replays
 * idempotent requests as Stripe does, records every request's headers and parameters, and lets a
 * test complete or expire a session as the guest or Stripe would, and settle a refund later as
 * Stripe does (pending, then succeeded or failed). Events are signed with the
 * SDK's own test-header helper.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Stripe-Account header (the connected account), if sent. */
  stripeAccount?: string;
  idempotencyKey?: string;
  stripeVersion?: string;
  authorization?: string;
  /** Form body (POST) or query (GET), decoded into nested objects and arrays. */
  params: Record<string, any>;
  status: number;
}

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  account: string | null;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  mode: string;
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  created: number;
  expires_at: number;
  livemode: false;
  line_items: any[];
  /** The language of Stripe's page (`auto` when not given, as Stripe answers). */
  locale: string;
}

export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string;
  metadata: Record<string, string>;
  reason: string | null;
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  failure_reason: string | null;
  created: number;
}

interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  status: string;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  requests: RecordedRequest[];
  sessions: Map<string, StandInSession>;
  refunds: Map<string, StandInRefund>;
  /** The next refunds created answer with these statuses, in order (then `succeeded`), as a bank that settles later does. */
  refundStatusNext(...statuses: StandInRefund['status'][]): void;
  /** Stripe settles a refund (and would send `refund.updated`): the refund as it then is. */
  settleRefund(refundId: string, status: StandInRefund['status'], failureReason?: string): StandInRefund;
  /** The guest pays (or, with paymentStatus 'unpaid', completes a delayed method still processing or failed). */
  complete(sessionId: string, options?: { paymentStatus?: 'paid' | 'unpaid'; intentStatus?: string; amountTotal?: number }): StandInSession;
  expire(sessionId: string): StandInSession;
  /** The next n API calls answer with this status and error (e.g. 500, or 403 permission_error). */
  failNext(n: number, status: number, error: { type: string; message: string; code?: string }, headers?: Record<string, string>): void;
  /** The next n API calls are recorded and never answered, as a Stripe that hangs. */
  hangNext(n: number): void;
  /** The next n refund creations (or their idempotent replays) are made, and their answers lost (the connection dropped), as a network that fails after Stripe acted. */
  loseRefundAnswers(n: number): void;
  /** Stripe no longer remembers the idempotency keys it was sent ("keys ... may be pruned after they are at least 24 hours old"). */
  forgetIdempotencyKeys(): void;
  /** A Stripe event about a session, as Stripe would POST it, and its Stripe-Signature header. */
  signedEvent(type: string, session: StandInSession | Record<string, unknown>, secret: string, options?: { account?: string }): { payload: string; signature: string };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/** `a[b][0][c]=v` pairs into `{a: {b: [{c: 'v'}]}}`, as Stripe's form decoding does. */
export function decodeStripeForm(text: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const segment = part === '' ? String(Object.keys(node).length) : part;
      if (last) node[segment] = value;
      else node = node[segment] ??= {};
    });
  }
  const arrays = (value: any): any => {
    if (!value || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    const mapped = Object.fromEntries(keys.map((k) => [k, arrays(value[k])]));
    return keys.length && keys.every((k, i) => k === String(i)) ? keys.map((k) => mapped[k]) : mapped;
  };
  return arrays(root);
}

function stripeError(res: ServerResponse, status: number, error: { type: string; message: string; code?: string; param?: string }, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req'), ...headers });
  res.end(JSON.stringify({ error }));
  return status;
}

export async function startStripeStandIn(options: { secretKey?: string } = {}): Promise<StripeStandIn> {
  const secretKey = options.secretKey ?? `sk_test_standin_${randomBytes(12).toString('hex')}`;
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, StandInSession>();
  const intents = new Map<string, PaymentIntent>();
  // The connected account each intent was paid on (a refund exists only there).
  const intentAccounts = new Map<string, string | null>();
  const refunds = new Map<string, StandInRefund>();
  const refundAccounts = new Map<string, string | null>();
  let refundStatuses: StandInRefund['status'][] = [];
  // payment_intent_data.metadata of each session, for the intent made when it is paid.
  const intentMetadata = new Map<string, Record<string, string>>();
  // Idempotency: per account and key, the parameters and the response they produced.
  const replays = new Map<string, { params: string; status: number; body: string }>();
  const faults: { status: number; error: { type: string; message: string; code?: string }; headers: Record<string, string> }[] = [];
  let hanging = 0;
  let losingRefunds = 0;

  const sessionView = (session: StandInSession, expand: string[]) => {
    const { account: _account, line_items: _items, ...view } = session;
    const intent = session.payment_intent ? intents.get(session.payment_intent) : undefined;
    return { ...view, payment_intent: expand.includes('payment_intent') && intent ? intent : session.payment_intent };
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req'), ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
    return status;
  };

  function createSession(account: string | null, params: Record<string, any>): StandInSession | { error: string; param: string } {
    for (const field of ['mode', 'success_url', 'line_items']) if (params[field] === undefined) return { error: `Missing required param: ${field}.`, param: field };
    const items = params.line_items as any[];
    if (!Array.isArray(items)) return { error: 'Invalid array', param: 'line_items' };
    const currencies = new Set(items.map((item) => item.price_data?.currency));
    if (currencies.size !== 1 || [...currencies][0] !== String([...currencies][0]).toLowerCase()) {
      return { error: 'line_items need one lowercase currency', param: 'line_items[0][price_data][currency]' };
    }
    const total = items.reduce((sum, item) => sum + Number(item.price_data.unit_amount) * Number(item.quantity ?? 1), 0);
    if (!Number.isInteger(total) || total < 1) return { error: 'Invalid integer', param: 'line_items[0][price_data][unit_amount]' };
    const sessionId = id('cs_test');
    const now = Math.floor(Date.now() / 1000);
    // Stripe: "anywhere from 30 minutes to 24 hours after Checkout Session creation".
    const expiresAt = params.expires_at === undefined ? now + 24 * 3600 : Number(params.expires_at);
    if (!Number.isInteger(expiresAt) || expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
      return { error: 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', param: 'expires_at' };
    }
    const session: StandInSession = {
      id: sessionId,
      object: 'checkout.session',
      account,
      url: `https://checkout.stripe.test/c/pay/${sessionId}`,
      status: 'open',
      payment_status: 'unpaid',
      mode: params.mode,
      amount_subtotal: total,
      amount_total: total,
      currency: [...currencies][0],
      customer_email: params.customer_email ?? null,
      client_reference_id: params.client_reference_id ?? null,
      metadata: params.metadata ?? {},
      payment_intent: null,
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      created: now,
      expires_at: expiresAt,
      livemode: false,
      line_items: items,
      locale: params.locale ?? 'auto',
    };
    intentMetadata.set(sessionId, params.payment_intent_data?.metadata ?? {});
    sessions.set(sessionId, session);
    return session;
  }

  /** A refund of a paid intent on its own account; pending and succeeded refunds count against what it paid. */
  function createRefund(account: string | null, params: Record<string, any>): StandInRefund | { error: string; param: string; code?: string } {
    const intentId = params.payment_intent as string | undefined;
    const intent = intentId ? intents.get(intentId) : undefined;
    if (!intent || intentAccounts.get(intent.id) !== account) return { error: `No such payment_intent: '${intentId}'`, param: 'payment_intent', code: 'resource_missing' };
    if (intent.status !== 'succeeded') return { error: 'This PaymentIntent has no successful charge to refund.', param: 'payment_intent', code: 'charge_not_refundable' };
    const taken = [...refunds.values()]
      .filter((r) => r.payment_intent === intent.id && r.status !== 'failed' && r.status !== 'canceled')
      .reduce((sum, r) => sum + r.amount, 0);
    const amount = params.amount === undefined ? intent.amount - taken : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) return { error: 'Invalid positive integer', param: 'amount' };
    if (taken + amount > intent.amount) {
      return { error: `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount - taken})`, param: 'amount', code: 'amount_too_large' };
    }
    const refund: StandInRefund = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: `ch_${intent.id.slice(3)}`,
      metadata: params.metadata ?? {},
      reason: params.reason ?? null,
      status: refundStatuses.shift() ?? 'succeeded',
      failure_reason: null,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(refund.id, refund);
    refundAccounts.set(refund.id, account);
    return refund;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      stripeAccount: header('stripe-account'),
      idempotencyKey: header('idempotency-key'),
      stripeVersion: header('stripe-version'),
      authorization: header('authorization'),
      params: decodeStripeForm(req.method === 'POST' ? body : url.search.slice(1)),
      status: 0,
    };
    requests.push(record);
    const answer = (status: number) => (record.status = status);
    // Made (or replayed), and the answer never arrives: the client sees a dropped connection.
    const loseAnswer = () => {
      losingRefunds -= 1;
      res.socket?.destroy();
      return answer(0);
    };

    if (record.authorization !== `Bearer ${secretKey}`) {
      return answer(stripeError(res, 401, { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' }));
    }
    if (hanging > 0) {
      hanging -= 1;
      // Recorded, never answered: the client's own timeout ends it (or close()).
      return new Promise<number>(() => {});
    }
    const fault = faults.shift();
    if (fault) return answer(stripeError(res, fault.status, fault.error, fault.headers));
    const account = record.stripeAccount ?? null;

    if (record.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const replayKey = record.idempotencyKey ? `${account ?? 'platform'} ${record.idempotencyKey}` : undefined;
      const stored = replayKey ? replays.get(replayKey) : undefined;
      if (stored) {
        if (stored.params !== body) {
          return answer(stripeError(res, 400, { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' }));
        }
        return answer(send(res, stored.status, stored.body, { 'Idempotent-Replayed': 'true' }));
      }
      const created = createSession(account, record.params);
      const [status, payload] = 'error' in created
        ? [400, JSON.stringify({ error: { type: 'invalid_request_error', message: created.error, param: created.param } })]
        : [200, JSON.stringify(sessionView(created, []))];
      if (replayKey) replays.set(replayKey, { params: body, status, body: payload });
      return answer(send(res, status, payload));
    }

    if (record.method === 'POST' && url.pathname === '/v1/refunds') {
      const replayKey = record.idempotencyKey ? `${account ?? 'platform'} ${record.idempotencyKey}` : undefined;
      const stored = replayKey ? replays.get(replayKey) : undefined;
      if (stored) {
        if (stored.params !== body) {
          return answer(stripeError(res, 400, { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' }));
        }
        if (losingRefunds > 0) return loseAnswer();
        return answer(send(res, stored.status, stored.body, { 'Idempotent-Replayed': 'true' }));
      }
      const created = createRefund(account, record.params);
      const [status, payload] = 'error' in created
        ? [400, JSON.stringify({ error: { type: 'invalid_request_error', code: created.code, message: created.error, param: created.param } })]
        : [200, JSON.stringify(created)];
      if (replayKey) replays.set(replayKey, { params: body, status, body: payload });
      if (losingRefunds > 0 && !('error' in created)) return loseAnswer();
      return answer(send(res, status, payload));
    }

    // A PaymentIntent's refunds on its account, newest first, a page at a time (`limit`, `starting_after`), as Stripe lists them.
    if (record.method === 'GET' && url.pathname === '/v1/refunds') {
      const intentId = record.params.payment_intent as string | undefined;
      const limit = Math.min(100, Math.max(1, Number(record.params.limit ?? 10)));
      const all = [...refunds.values()]
        .filter((r) => refundAccounts.get(r.id) === account && (!intentId || r.payment_intent === intentId))
        .sort((a, b) => b.created - a.created);
      const after = record.params.starting_after as string | undefined;
      const from = after ? all.findIndex((r) => r.id === after) + 1 : 0;
      const data = all.slice(from, from + limit);
      return answer(send(res, 200, { object: 'list', data, has_more: from + limit < all.length, url: '/v1/refunds' }));
    }

    const refundMatch = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname);
    if (record.method === 'GET' && refundMatch) {
      const refundId = decodeURIComponent(refundMatch[1]!);
      const refund = refunds.get(refundId);
      if (!refund || refundAccounts.get(refundId) !== account) {
        return answer(stripeError(res, 404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such refund: '${refundId}'`, param: 'id' }));
      }
      return answer(send(res, 200, refund));
    }

    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (record.method === 'GET' && match) {
      const session = sessions.get(decodeURIComponent(match[1]!));
      // A session exists only on the account it was created on.
      if (!session || session.account !== account) {
        return answer(stripeError(res, 404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${match[1]}'`, param: 'session' } as never));
      }
      const expand = ([] as string[]).concat(record.params.expand ?? []);
      return answer(send(res, 200, sessionView(session, expand)));
    }
    return answer(stripeError(res, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${record.method}: ${url.pathname}).` }));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const must = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`stand-in: no session ${sessionId}`);
    return session;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    sessions,
    refunds,
    refundStatusNext(...statuses) {
      refundStatuses = statuses;
    },
    settleRefund(refundId, status, failureReason) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`stand-in: no refund ${refundId}`);
      Object.assign(refund, { status, failure_reason: status === 'failed' ? (failureReason ?? 'lost_or_stolen_card') : null });
      return refund;
    },
    complete(sessionId, options = {}) {
      const session = must(sessionId);
      const paymentStatus = options.paymentStatus ?? 'paid';
      const intent: PaymentIntent = {
        id: id('pi'),
        object: 'payment_intent',
        status: options.intentStatus ?? (paymentStatus === 'paid' ? 'succeeded' : 'processing'),
        amount: options.amountTotal ?? session.amount_total,
        currency: session.currency,
        metadata: intentMetadata.get(sessionId) ?? {},
      };
      intents.set(intent.id, intent);
      intentAccounts.set(intent.id, session.account);
      Object.assign(session, { status: 'complete', payment_status: paymentStatus, payment_intent: intent.id, url: null });
      if (options.amountTotal !== undefined) session.amount_total = options.amountTotal;
      return session;
    },
    expire(sessionId) {
      const session = must(sessionId);
      Object.assign(session, { status: 'expired', url: null });
      return session;
    },
    hangNext(n) {
      hanging += n;
    },
    loseRefundAnswers(n) {
      losingRefunds += n;
    },
    forgetIdempotencyKeys() {
      replays.clear();
    },
    failNext(n, status, error, headers = {}) {
      for (let i = 0; i < n; i++) faults.push({ status, error, headers });
    },
    signedEvent(type, session, secret, options = {}) {
      const { line_items: _items, account, ...object } = session as Record<string, unknown>;
      const payload = JSON.stringify({
        id: id('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        type,
        account: options.account ?? account ?? undefined,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      });
      return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
