/**
 * The Stripe provider: a hosted Checkout Session per payment attempt, created on the client's
 * connected account (a direct charge: the hotel is the merchant of record), and the session
 * retrieved again whenever the service needs to know what happened. Webhook events are only a
 * reason to ask again (functions/stripe-webhook.ts); they never mark an order paid by themselves.
 *
 * Configuration: the platform secret key (stripe-secrets.ts) and, for tests against a local
 * stand-in, STRIPE_API_BASE (e.g. http://127.0.0.1:12111) instead of https://api.stripe.com.
 */
import type Stripe from 'stripe';
import { config } from '../config';
import { errors } from '../errors';
import { logger } from '../observability';
import { SECRET_LIKE } from '../secrets/redaction';
import type { ProviderSettings } from '../store/payment-store';
import type { Checkout, CheckoutRequest, CheckoutState, PaymentProvider, ProviderPayment, ProviderRefund, RefundLookup, RefundRequest, RefundState } from './provider';
import { stripeSecret } from './stripe-secrets';

/** A connected account id as Stripe issues them. */
export const STRIPE_ACCOUNT_PATTERN = /^acct_[A-Za-z0-9]+$/;

/**
 * One call's budget: a request that hangs is cut after STRIPE_TIMEOUT_MS and tried once more, so
 * the whole call (both tries and the SDK's back-off between them) ends well inside the functions' 10 s Lambda timeout (test/unit/provider-budget.test.ts), in our
 * error envelope (503 with Retry-After) rather than a killed function.
 */
export const STRIPE_TIMEOUT_MS = 3_000;
/** Connection errors, 409 lock conflicts and retryable 5xx; POSTs carry our idempotency key. */
export const STRIPE_MAX_NETWORK_RETRIES = 1;
/**
 * The SDK's wait before its first retry: its initial network retry delay (0.5 s; the n-th retry
 * waits at most 0.5 x 2^(n-1) s, never under 0.5 s). One retry: one such wait.
 */
export const STRIPE_FIRST_RETRY_DELAY_MS = 500;
/** The longest one Stripe call can take with this client: two tries and the wait between them. */
export const STRIPE_CALL_BUDGET_MS = STRIPE_TIMEOUT_MS * (STRIPE_MAX_NETWORK_RETRIES + 1) + STRIPE_FIRST_RETRY_DELAY_MS * STRIPE_MAX_NETWORK_RETRIES;

/**
 * Stripe's shortest Checkout Session life: `expires_at` must be 30 minutes to 24 hours after the
 * session's creation (https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-expires_at).
 * A little more than 30 minutes is asked when the wanted end is nearer than that by the time of
 * the call, so that Stripe's clock never refuses it.
 */
const STRIPE_MIN_SESSION_SECONDS = 30 * 60 + 10;

/** The session's `expires_at` for a wanted end (a guest's room hold): that end, or Stripe's shortest. */
export function sessionExpiresAt(wanted: Date, now = new Date()): number {
  return Math.max(Math.floor(wanted.getTime() / 1000), Math.ceil(now.getTime() / 1000) + STRIPE_MIN_SESSION_SECONDS);
}

/**
 * How long after a checkout's opening its session may be created: the hold's write, the order's
 * and the Stripe call itself, each within its own budget.
 */
export const STRIPE_CHECKOUT_LEAD_MS = 2 * STRIPE_CALL_BUDGET_MS;

/**
 * The end of a session opened now for a wanted end (a guest's hold is made to last until then):
 * the wanted end, or the latest `expires_at` Stripe's shortest session may need if the call comes
 * STRIPE_CHECKOUT_LEAD_MS later, in whole seconds as Stripe keeps it.
 */
export function stripeCheckoutEnd(wanted: Date, now: Date): Date {
  return new Date(sessionExpiresAt(wanted, new Date(now.getTime() + STRIPE_CHECKOUT_LEAD_MS)) * 1000);
}

/** The wanted end itself, which the room is held until: a call too late for it (past its lead) opens no session (503). */
function exactExpiry(wanted: Date): number {
  const seconds = Math.floor(wanted.getTime() / 1000);
  if (sessionExpiresAt(wanted) > seconds) throw errors.serviceUnavailable();
  return seconds;
}

interface ApiBase {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

function apiBase(): ApiBase | undefined {
  const raw = config().stripe.apiBase;
  if (!raw) return undefined;
  const url = new URL(raw);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

// Loaded on first use: functions that never talk to Stripe (sandbox-only clients, status
// lookups) do not pay for the SDK at cold start.
let sdk: Promise<typeof import('stripe')> | undefined;
const loadSdk = async () => (await (sdk ??= import('stripe'))).default;

let cached: { key: string; base: string; client: Stripe } | undefined;

/** One SDK client per container (re-made only if the key or API base changes, e.g. after rotation). */
export async function stripeClient(): Promise<Stripe> {
  const key = await stripeSecret('secretKey');
  const base = config().stripe.apiBase ?? '';
  if (cached && cached.key === key && cached.base === base) return cached.client;
  const StripeSdk = await loadSdk();
  const client = new StripeSdk(key, {
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'hotel-integration-api' },
    ...apiBase(),
  });
  cached = { key, base, client };
  return client;
}

function requireAccount(settings: ProviderSettings): string {
  if (!settings.account) {
    throw errors.stripeAccountMissing();
  }
  return settings.account;
}

/**
 * One key per order and attempt: a create retried by the SDK, by a concurrent request or by a
 * retried transaction returns the same session instead of a second one. A new attempt (after
 * the previous checkout failed or expired) gets a new key and so a new session.
 */
function idempotencyKeyFor(request: CheckoutRequest): string {
  return `checkout-session:${request.orderReference}:${request.attempt}`;
}

interface StripeErrorLike {
  type: string;
  message: string;
  code?: string;
  statusCode?: number;
  requestId?: string;
}

/** The SDK's errors all carry a `type` naming their class (StripeInvalidRequestError...). */
function isStripeError(error: unknown): error is StripeErrorLike {
  const type = error instanceof Error ? (error as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.startsWith('Stripe');
}

/**
 * Stripe's answer as one of ours: its outages are a dependency fault (503, retry), a refusal of
 * this client's checkout is the client's setup (422), and a bad platform key is ours (500).
 */
function translate(error: unknown, account: string, action: string): never {
  if (!isStripeError(error)) throw error;
  const context = { action, stripe_account: account, stripe_error: error.type, stripe_code: error.code, stripe_request_id: error.requestId, status: error.statusCode };
  switch (error.type) {
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      logger.warn('Stripe unavailable', context);
      throw errors.serviceUnavailable();
    case 'StripePermissionError':
      logger.warn('Stripe refused access to the connected account', context);
      throw errors.stripeAccountNotConnected(account);
    case 'StripeInvalidRequestError':
    case 'StripeCardError': {
      logger.warn('Stripe rejected the request', context);
      const message = (error.message ?? '').replace(SECRET_LIKE, '[redacted]').slice(0, 300);
      throw action.includes('refund') ? errors.providerRejectedRefund(error.code, message) : errors.providerRejected(error.code, message);
    }
    default:
      // Authentication (the platform key), idempotency misuse and anything unexpected.
      logger.error('Stripe call failed', context);
      throw errors.internal();
  }
}

type PaymentIntentRef = string | Stripe.PaymentIntent | null;

const intentId = (intent: PaymentIntentRef) => (intent === null ? undefined : typeof intent === 'string' ? intent : intent.id);

/** A completed session whose (asynchronous) payment did not go through. */
const FAILED_INTENT_STATUSES = new Set(['requires_payment_method', 'canceled']);

export function sessionState(session: Pick<Stripe.Checkout.Session, 'status' | 'payment_status' | 'payment_intent'>): CheckoutState {
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return 'paid';
  if (session.status === 'expired') return 'expired';
  // Complete but unpaid: a delayed method (bank debit...) still processing, or it failed.
  if (session.status === 'complete' && typeof session.payment_intent === 'object' && session.payment_intent) {
    if (FAILED_INTENT_STATUSES.has(session.payment_intent.status)) return 'failed';
  }
  return 'open';
}

export function stripeProvider(): PaymentProvider {
  return {
    name: 'stripe',
    checkoutEnd: stripeCheckoutEnd,
    ...refundMethods,

    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      const account = requireAccount(request.settings);
      const stripe = await stripeClient();
      const idempotencyKey = idempotencyKeyFor(request);
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            // The room and its taxes as lines of their own: Stripe's total is their sum, the order's amount.
            line_items: (request.lines ?? [{ name: request.description, amountMinor: request.amountMinor }]).map((line) => ({
              quantity: 1,
              price_data: { currency: request.currency.toLowerCase(), unit_amount: line.amountMinor, product_data: { name: line.name } },
            })),
            customer_email: request.customer.email,
            // The guest's language (Stripe speaks all seven of ours); a partner's order: Stripe's own choice.
            ...(request.language ? { locale: request.language } : {}),
            client_reference_id: request.orderReference,
            metadata: { order_reference: request.orderReference },
            payment_intent_data: { metadata: { order_reference: request.orderReference } },
            // Both lead to our verify URL: the service asks Stripe what happened either way.
            success_url: request.returnUrl,
            cancel_url: request.returnUrl,
            ...(request.expiresAt ? { expires_at: exactExpiry(request.expiresAt) } : {}),
          },
          { stripeAccount: account, idempotencyKey },
        );
      } catch (error) {
        translate(error, account, 'create checkout session');
      }
      if (!session.url) {
        logger.error('Stripe returned a checkout session without a URL', { stripe_account: account, session_id: session.id });
        throw errors.internal();
      }
      return { providerReference: session.id, checkoutUrl: session.url };
    },

    async getPayment(providerReference: string, settings: ProviderSettings): Promise<ProviderPayment> {
      const account = requireAccount(settings);
      const stripe = await stripeClient();
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(providerReference, { expand: ['payment_intent'] }, { stripeAccount: account });
      } catch (error) {
        if (isStripeError(error) && error.type === 'StripeInvalidRequestError' && error.statusCode === 404) {
          // Not on the attempt's account, or never existed; the caller keeps the order processing and alarms.
          logger.warn('Stripe does not know the checkout session on the attempt\'s account', {
            stripe_account: account,
            session_id: providerReference,
            stripe_request_id: error.requestId,
          });
          return { state: 'not_found', amountMinor: 0, currency: '', raw: { id: providerReference, error: 'resource_missing' } };
        }
        translate(error, account, 'retrieve checkout session');
      }
      const paymentId = intentId(session.payment_intent);
      const state = sessionState(session);
      return {
        state,
        amountMinor: session.amount_total ?? 0,
        currency: (session.currency ?? '').toUpperCase(),
        ...(state === 'paid' && paymentId ? { paymentId } : {}),
        raw: {
          id: session.id,
          status: session.status,
          payment_status: session.payment_status,
          amount_total: session.amount_total,
          currency: session.currency,
        },
      };
    },
  };
}

// ---- refunds

/** Stripe's refund statuses as ours: `requires_action` and `pending` settle later (refund.updated). */
export function refundState(status: string | null | undefined): RefundState {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return 'pending';
  }
}

function providerRefundOf(refund: Stripe.Refund): ProviderRefund {
  return {
    providerRefundId: refund.id,
    state: refundState(refund.status),
    amountMinor: refund.amount,
    currency: refund.currency.toUpperCase(),
    ...(refund.failure_reason ? { failureReason: refund.failure_reason } : {}),
    raw: { id: refund.id, status: refund.status, amount: refund.amount, currency: refund.currency, failure_reason: refund.failure_reason ?? null, payment_intent: refund.payment_intent },
  };
}

/** Metadata values are at most 500 characters at Stripe. */
const STRIPE_METADATA_MAX = 500;

/** The PaymentIntent of the paid checkout, when the order did not record it. */
async function paidIntentOf(stripe: Stripe, request: Pick<RefundRequest, 'paymentId' | 'checkoutReference'>, account: string): Promise<string> {
  if (request.paymentId?.startsWith('pi_')) return request.paymentId;
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(request.checkoutReference, {}, { stripeAccount: account });
  } catch (error) {
    translate(error, account, 'retrieve checkout session for a refund');
  }
  const intent = intentId(session.payment_intent);
  if (!intent) throw errors.providerRejectedRefund('no_payment_intent', 'the checkout has no payment to refund');
  return intent;
}

const refundMethods = {
  /**
   * A refund on the connected account the order was paid on, of its PaymentIntent, keyed by the
   * service's refund id: a call retried (by the SDK, a retried request, a recovery) answers the
   * same refund. Our reason goes in metadata (Stripe's own `reason` is an enum).
   */
  async refund(request: RefundRequest): Promise<ProviderRefund> {
    const account = requireAccount(request.settings);
    const stripe = await stripeClient();
    const paymentIntent = await paidIntentOf(stripe, request, account);
    try {
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: request.amountMinor,
          metadata: {
            order_reference: request.orderReference,
            refund_id: request.refundId,
            ...(request.reason ? { reason: request.reason.slice(0, STRIPE_METADATA_MAX) } : {}),
          },
        },
        { stripeAccount: account, idempotencyKey: `refund:${request.refundId}` },
      );
      return providerRefundOf(refund);
    } catch (error) {
      translate(error, account, 'create refund');
    }
  },

  /** The PaymentIntent's refunds, newest first, page by page (the SDK's auto-pagination), matched on our refund id. */
  async findRefund(lookup: RefundLookup): Promise<ProviderRefund | undefined> {
    const account = requireAccount(lookup.settings);
    const stripe = await stripeClient();
    const paymentIntent = await paidIntentOf(stripe, lookup, account);
    try {
      for await (const refund of stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 }, { stripeAccount: account })) {
        if (refund.metadata?.refund_id === lookup.refundId) return providerRefundOf(refund);
      }
      return undefined;
    } catch (error) {
      translate(error, account, 'list refunds');
    }
  },

  async getRefund(providerRefundId: string, settings: ProviderSettings): Promise<ProviderRefund | undefined> {
    const account = requireAccount(settings);
    const stripe = await stripeClient();
    try {
      return providerRefundOf(await stripe.refunds.retrieve(providerRefundId, {}, { stripeAccount: account }));
    } catch (error) {
      if (isStripeError(error) && error.type === 'StripeInvalidRequestError' && error.statusCode === 404) return undefined;
      translate(error, account, 'retrieve refund');
    }
  },
};

// ---- webhooks

/**
 * Verifies the Stripe-Signature header over the exact bytes received (the SDK compares in
 * constant time and enforces its 5-minute timestamp tolerance) and parses the event. Several
 * secrets may be configured, comma-separated (e.g. the platform endpoint's and the Connect
 * endpoint's, or an old and a new one while rolling).
 */
export async function constructStripeEvent(payload: string, signature: string | undefined, secrets: string): Promise<Stripe.Event> {
  if (!signature) throw errors.stripeSignatureMissing();
  const StripeSdk = await loadSdk();
  const candidates = secrets.split(',').map((s) => s.trim()).filter(Boolean);
  for (const secret of candidates) {
    try {
      return StripeSdk.webhooks.constructEvent(payload, signature, secret);
    } catch (error) {
      // Signed but not JSON cannot come from Stripe; answer it like any unparsable body.
      if (error instanceof SyntaxError) throw errors.invalidJson();
      if ((error as { type?: string }).type !== 'StripeSignatureVerificationError') throw error;
    }
  }
  throw errors.stripeSignatureMismatch();
}
