/**
 * Receiver kit for PMS and partner developers: verify and de-duplicate the service's signed
 * callbacks (`booking.*`) and webhooks (`payment_order.*`). No dependencies beyond Node's
 * crypto: copy this file into your project.
 *
 *   const reply = await handleDelivery({ rawBody, headers }, { secret, store, onEvent });
 *   res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply.body));
 *
 * Read the raw body BEFORE parsing it: the signatures cover the exact bytes sent. Both schemes
 * are checked: Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`; a
 * timestamp more than 5 minutes off is refused, so a captured delivery cannot be replayed later)
 * and the spec's `X-Service-Signature`, used when a delivery has no Standard Webhooks headers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Every callback event (to the callback URL, a PMS) and every webhook event (to the webhook URL, a website). */
export const BOOKING_EVENT_NAMES = ['booking.confirmed', 'booking.modified', 'booking.cancelled', 'booking.no_show'] as const;
export const PAYMENT_ORDER_EVENT_NAMES = ['payment_order.paid', 'payment_order.refunded'] as const;

export type BookingEventName = (typeof BOOKING_EVENT_NAMES)[number];

/** Every booking event carries the whole booking; `booking.sequence` grows strictly per booking. */
export interface BookingEvent {
  event: BookingEventName;
  created_at: string;
  hotel_id: string;
  booking: {
    id: string;
    booking_reference: string;
    confirmation_code: string;
    guest_name: string;
    guest_email: string;
    guest_phone: string;
    guests: number;
    check_in_date: string;
    check_out_date: string;
    total_amount: number;
    status: string;
    payment_status: string;
    payment_method: string;
    gateway_reference: string;
    /** 1 for the first event of the booking, then strictly growing: apply an event only if it is not lower than the one you have. */
    sequence?: number;
    /** booking.cancelled only. */
    cancellation_reason?: string;
  };
  /** null while a paid booking awaits manual room assignment. */
  room: {
    id: string;
    room_number: string;
    room_type: string;
    external_source: string;
    external_room_id: string;
    external_category_id: string;
  } | null;
}

/** The booking.confirmed case of BookingEvent. */
export type BookingConfirmedEvent = BookingEvent & { event: 'booking.confirmed' };

export interface PaymentOrderEvent {
  event: (typeof PAYMENT_ORDER_EVENT_NAMES)[number];
  payment_order: {
    order_reference: string;
    external_reference: string;
    status: string;
    amount_minor: number;
    currency: string;
    amount_refunded_minor?: number;
  };
  [field: string]: unknown;
}

export type PaymentOrderPaidEvent = PaymentOrderEvent & { event: 'payment_order.paid' };

export type ServiceEvent = BookingEvent | PaymentOrderEvent;

export interface DeliveryMeta {
  deliveryId: string;
  clientId: string;
  eventName: string;
}

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/** Where processed deliveries are remembered. Use your database (a unique key on the id) in production. */
export interface DeliveryStore {
  get(deliveryId: string): Promise<Reply | undefined>;
  put(deliveryId: string, reply: Reply): Promise<void>;
}

/** An in-memory store for tests and single-process receivers; forgets the oldest past `max`. */
export class MemoryDeliveryStore implements DeliveryStore {
  private readonly replies = new Map<string, Reply>();
  constructor(private readonly max = 10_000) {}
  async get(deliveryId: string) {
    return this.replies.get(deliveryId);
  }
  async put(deliveryId: string, reply: Reply) {
    this.replies.set(deliveryId, reply);
    if (this.replies.size > this.max) this.replies.delete(this.replies.keys().next().value as string);
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * True when `signature` is the lowercase hex HMAC-SHA256 of `rawBody` under one of the secrets
 * (several during a rotation). Compared in constant time.
 */
export function verifySignature(rawBody: string | Uint8Array, signature: string | undefined, secrets: string | readonly string[]): boolean {
  const hex = signature?.trim().toLowerCase();
  if (!hex || !/^[0-9a-f]{64}$/.test(hex)) return false;
  const given = Buffer.from(hex, 'hex');
  let valid = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    // Every secret is checked, so timing does not tell which one matched.
    valid = timingSafeEqual(given, expected) || valid;
  }
  return valid;
}

// ---- Standard Webhooks (https://www.standardwebhooks.com)

/** How far `webhook-timestamp` may be from the receiver's clock: older or newer is refused. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key of `webhook-signature`: the bytes a `whsec_` secret encodes in standard base64
 * (every secret the service generates); a secret in any other form (one an operator chose) keys
 * with its UTF-8 bytes, whole.
 */
export function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  return encoded && STANDARD_BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.from(secret, 'utf8');
}

/** One `webhook-signature` entry: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`. */
export function standardWebhookSignature(secret: string, webhookId: string, timestamp: number | string, rawBody: string | Uint8Array): string {
  const mac = createHmac('sha256', standardWebhookKey(secret)).update(`${webhookId}.${timestamp}.`).update(rawBody).digest('base64');
  return `v1,${mac}`;
}

export type StandardWebhookCheck = { valid: true } | { valid: false; reason: string };

/**
 * Checks the Standard Webhooks headers: a `webhook-timestamp` within 5 minutes of `now`, and one
 * of the space-separated `webhook-signature` entries made with one of the secrets (several
 * during a rotation). Compared in constant time.
 */
export function verifyStandardWebhook(
  rawBody: string | Uint8Array,
  headers: Record<string, string | string[] | undefined>,
  secrets: string | readonly string[],
  now = new Date(),
): StandardWebhookCheck {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return { valid: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature' };
  if (!/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: 'webhook-timestamp is not Unix seconds' };
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
    return { valid: false, reason: 'webhook-timestamp is more than 5 minutes off' };
  }
  const given = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  let valid = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = Buffer.from(standardWebhookSignature(secret, id, timestamp, rawBody).slice(3), 'base64');
    for (const signature of given) {
      // Every pair is compared, so timing does not tell which one matched.
      valid = (signature.length === expected.length && timingSafeEqual(signature, expected)) || valid;
    }
  }
  return valid ? { valid } : { valid, reason: 'invalid signature' };
}

export interface HandleOptions {
  /** The signing secret(s) shown by `callbacks set` / `webhooks set` / `rotate-secret`. Without one, nothing is verified. */
  secret?: string | readonly string[];
  /**
   * Refuse a delivery without Standard Webhooks headers instead of checking its
   * X-Service-Signature alone (the service sends both): no replay stripped of its timestamp.
   */
  requireStandardWebhooks?: boolean;
  store: DeliveryStore;
  /** Record the event safely; throw to make the service retry later. */
  onEvent: (event: ServiceEvent, meta: DeliveryMeta) => Promise<void>;
  /** The receiver's clock, for the timestamp check; now by default. */
  now?: () => Date;
}

/** Why a delivery's signatures do not hold, or undefined when they do (or no secret is set). */
function signatureProblem(request: { rawBody: string | Uint8Array; headers: Record<string, string | string[] | undefined> }, options: HandleOptions): string | undefined {
  if (options.secret === undefined) return undefined;
  if (header(request.headers, 'webhook-signature') !== undefined || options.requireStandardWebhooks) {
    const check = verifyStandardWebhook(request.rawBody, request.headers, options.secret, options.now?.() ?? new Date());
    return check.valid ? undefined : check.reason;
  }
  return verifySignature(request.rawBody, header(request.headers, 'x-service-signature'), options.secret) ? undefined : 'invalid signature';
}

/**
 * The receiver contract of the spec: verify the signatures over the raw body, answer a repeated
 * delivery id with the same 2xx, and answer 2xx only after the event is recorded.
 */
export async function handleDelivery(
  request: { rawBody: string | Uint8Array; headers: Record<string, string | string[] | undefined> },
  options: HandleOptions,
): Promise<Reply> {
  const problem = signatureProblem(request, options);
  if (problem) return { status: 401, body: { error: problem } };
  const deliveryId = header(request.headers, 'x-service-delivery') ?? header(request.headers, 'webhook-id');
  if (!deliveryId) return { status: 400, body: { error: 'missing X-Service-Delivery (or webhook-id)' } };
  const seen = await options.store.get(deliveryId);
  if (seen) return seen;

  let event: ServiceEvent;
  try {
    const text = typeof request.rawBody === 'string' ? request.rawBody : Buffer.from(request.rawBody).toString('utf8');
    event = JSON.parse(text) as ServiceEvent;
  } catch {
    return { status: 400, body: { error: 'body is not JSON' } };
  }
  const meta: DeliveryMeta = {
    deliveryId,
    clientId: header(request.headers, 'x-service-client') ?? '',
    eventName: header(request.headers, 'x-service-event') ?? event.event,
  };
  try {
    await options.onEvent(event, meta);
  } catch {
    // Not remembered: the service retries, and the retry runs onEvent again.
    return { status: 503, body: { error: 'temporarily unable to record the event' } };
  }
  const reply: Reply = { status: 200, body: { received: true, delivery_id: deliveryId } };
  await options.store.put(deliveryId, reply);
  return reply;
}

// ---- Rates and restrictions per date: what a PMS sends and reads back (docs/behaviour.md)

export type Weekday = 'mo' | 'tu' | 'we' | 'th' | 'fr' | 'sa' | 'su';
export type RateRestriction = 'min_stay_arrival' | 'min_stay_through' | 'max_stay' | 'closed_to_arrival' | 'closed_to_departure' | 'stop_sell';

/** One update of `PUT /api/v1/property-sync/rates`: `date`, or `date_from` and `date_to`; a field left out is left as it is. */
export interface RateUpdate {
  external_rate_plan_id: string;
  date?: string;
  date_from?: string;
  date_to?: string;
  days?: Weekday[];
  price?: number;
  min_stay_arrival?: number;
  min_stay_through?: number;
  max_stay?: number;
  closed_to_arrival?: boolean;
  closed_to_departure?: boolean;
  stop_sell?: boolean;
}

export interface PutRatesRequest {
  external_source: string;
  /** Your change-log id: a value set with a higher one is never overwritten by a lower one. */
  sequence?: number;
  updates: RateUpdate[];
}

export interface PutRatesResponse {
  external_source: string;
  received: number;
  days_changed: number;
  days_unchanged: number;
  days_stale: number;
}

/** `GET /api/v1/property-sync/rates`: by plan, then by date. */
export interface RatesResponse {
  rate_plans: Record<
    string,
    Record<
      string,
      { price: number | null; price_source: 'rate' | 'base' } & { [R in RateRestriction]: R extends 'closed_to_arrival' | 'closed_to_departure' | 'stop_sell' ? boolean : number }
    >
  >;
}

/** A stay on one plan, as availability's `rate_plans[]` gives it. */
export interface RatePlanOnStay {
  external_rate_plan_id: string;
  name: string;
  bookable: boolean;
  total: number;
  nights: { date: string; price: number }[];
  blocked_by: { date: string; restriction: RateRestriction }[];
}
