/**
 * Receiver kit for PMS and partner developers: verify and de-duplicate the service's signed
 * callbacks (`booking.confirmed`) and webhooks (`payment_order.paid`). No dependencies beyond
 * Node's crypto: copy this file into your project.
 *
 *   const reply = await handleDelivery({ rawBody, headers }, { secret, store, onEvent });
 *   res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply.body));
 *
 * Read the raw body BEFORE parsing it: the signature covers the exact bytes sent.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface BookingConfirmedEvent {
  event: 'booking.confirmed';
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

export interface PaymentOrderPaidEvent {
  event: 'payment_order.paid';
  payment_order: { order_reference: string; external_reference: string; status: string; amount_minor: number; currency: string };
}

export type ServiceEvent = BookingConfirmedEvent | PaymentOrderPaidEvent;

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

export interface HandleOptions {
  /** The signing secret(s) shown by `callbacks set` / `webhooks set`. Without one, nothing is verified. */
  secret?: string | readonly string[];
  store: DeliveryStore;
  /** Record the event safely; throw to make the service retry later. */
  onEvent: (event: ServiceEvent, meta: DeliveryMeta) => Promise<void>;
}

/**
 * The receiver contract of the spec: verify the signature over the raw body, answer a repeated
 * delivery id with the same 2xx, and answer 2xx only after the event is recorded.
 */
export async function handleDelivery(
  request: { rawBody: string | Uint8Array; headers: Record<string, string | string[] | undefined> },
  options: HandleOptions,
): Promise<Reply> {
  if (options.secret !== undefined && !verifySignature(request.rawBody, header(request.headers, 'x-service-signature'), options.secret)) {
    return { status: 401, body: { error: 'invalid signature' } };
  }
  const deliveryId = header(request.headers, 'x-service-delivery');
  if (!deliveryId) return { status: 400, body: { error: 'missing X-Service-Delivery' } };
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
