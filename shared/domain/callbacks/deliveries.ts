/**
 * Delivering events to clients (CONTRACT.md "booking.confirmed callbacks"): each delivery is
 * recorded with its exact payload, put on the queue, attempted by the sender with a 10 s
 * timeout, classified, retried on a schedule, and re-queued by operators. The delivery id is
 * the X-Service-Delivery header of every attempt.
 */
import { callbackQueue } from '../../../infra/queue-definitions';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS } from '../../../infra/service-defaults';
import { AppError } from '../../errors';
import { logger } from '../../observability';
import { enqueueDelivery, MAX_QUEUE_DELAY_SECONDS } from '../../queue';
import {
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryStatus,
  findDueDeliveries,
  getDelivery,
  leaseDelivery,
  listDeliveries,
  markEnqueued,
  markFailed,
  recordAttempt,
  requeueDelivery,
} from '../../store/delivery-store';
import { type EndpointKind, getEndpoint, putEndpoint, signingSecretOf } from '../../store/endpoint-store';
import { generateSigningSecret, signCallbackBody } from './signing';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Longer than an attempt, so a lease outlives the attempt that holds it. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 20_000;
const MAX_ERROR_LENGTH = 1024;
const TERMINAL_STATUSES: DeliveryStatus[] = ['delivered', 'failed', 'needs_review'];

export function retryDelaysSeconds(): number[] {
  const raw = process.env.CALLBACK_RETRY_DELAYS_SECONDS;
  if (!raw) return [...DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS];
  const delays = raw.split(',').map((v) => Number(v.trim()));
  if (delays.some((d) => !Number.isFinite(d) || d < 0)) throw new Error(`Invalid CALLBACK_RETRY_DELAYS_SECONDS: ${raw}`);
  return delays;
}

// ---- configuration

export function validateEndpointUrl(url: string, allowHttp: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError(400, 'VALIDATION_ERROR', `Not an absolute URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) {
    throw new AppError(400, 'VALIDATION_ERROR', 'The URL must use https');
  }
  if (parsed.username || parsed.password) throw new AppError(400, 'VALIDATION_ERROR', 'The URL must not carry credentials');
  return parsed.toString();
}

/** Sets where a client receives one kind of event; returns the secret (generated unless given). */
export async function configureEndpoint(
  clientId: string,
  kind: EndpointKind,
  input: { url: string; secret?: string; allowHttp: boolean },
  now = new Date(),
): Promise<{ secret: string; url: string }> {
  const url = validateEndpointUrl(input.url, input.allowHttp);
  if (input.secret !== undefined && input.secret.length < 16) {
    throw new AppError(400, 'VALIDATION_ERROR', 'A secret needs at least 16 characters');
  }
  const secret = input.secret ?? generateSigningSecret();
  await putEndpoint(clientId, kind, { url, secret, updated_at: now.toISOString() });
  return { secret, url };
}

// ---- putting deliveries on the queue

/** Puts a waiting delivery on the queue; if that fails it stays due and the sweeper retries it. */
export async function dispatch(deliveryId: string, dueAt: string, now = new Date()): Promise<boolean> {
  const delaySeconds = Math.max(0, (Date.parse(dueAt) - now.getTime()) / 1000);
  if (delaySeconds > MAX_QUEUE_DELAY_SECONDS) return false;
  try {
    await enqueueDelivery(deliveryId, delaySeconds);
  } catch (error) {
    logger.warn('enqueue failed; the sweeper will retry', { delivery_id: deliveryId, error: error as Error });
    return false;
  }
  await markEnqueued(deliveryId, dueAt);
  return true;
}

/** Enqueues deliveries whose enqueue failed or whose retry time has come. */
export async function sweepDueDeliveries(now = new Date()): Promise<number> {
  const due = await findDueDeliveries(now.toISOString());
  let enqueued = 0;
  for (const delivery of due) if (await dispatch(delivery.delivery_id, delivery.due_at, now)) enqueued++;
  return enqueued;
}

// ---- attempts

type Outcome = { kind: 'delivered' } | { kind: 'retry' } | { kind: 'review' };

export function classify(statusCode: number | null): Outcome {
  if (statusCode === null) return { kind: 'retry' };
  if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered' };
  if (statusCode === 429 || statusCode >= 500) return { kind: 'retry' };
  return { kind: 'review' };
}

async function post(url: string, headers: Record<string, string>, body: string) {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    // Drain the body so the connection is released; its content is not needed.
    await response.arrayBuffer().catch(() => undefined);
    return { statusCode: response.status, error: response.ok ? null : `HTTP ${response.status}`, durationMs: performance.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const message =
      (error as Error).name === 'TimeoutError'
        ? `no response within ${ATTEMPT_TIMEOUT_MS / 1000} s`
        : `${cause?.code ?? (error as Error).name}: ${cause?.message ?? (error as Error).message}`;
    return { statusCode: null, error: message, durationMs: performance.now() - started };
  }
}

/**
 * One attempt of a delivery, as the sender runs it for a queue message. Safe to run for a
 * duplicate or early message: it only sends when the delivery is waiting, due and not leased.
 */
export async function attemptDelivery(deliveryId: string, now = new Date()): Promise<DeliveryStatus | 'skipped'> {
  const current = await getDelivery(deliveryId);
  if (!current || TERMINAL_STATUSES.includes(current.status)) return 'skipped';
  if (Date.parse(current.due_at) > now.getTime() + 1000) {
    // Early (a long delay travels in hops of at most 15 minutes): send it on its way again.
    await dispatch(deliveryId, current.due_at, now);
    return 'skipped';
  }
  const delivery = await leaseDelivery(deliveryId, now, LEASE_MS);
  if (!delivery) return 'skipped';

  const endpoint = await getEndpoint(delivery.client_id, delivery.endpoint);
  let result: { statusCode: number | null; error: string | null; durationMs: number };
  if (!endpoint) {
    result = { statusCode: null, error: `no ${delivery.endpoint} URL is configured`, durationMs: 0 };
  } else {
    result = await post(
      endpoint.url,
      {
        'Content-Type': 'application/json',
        'X-Service-Event': delivery.event,
        'X-Service-Client': delivery.client_id,
        'X-Service-Delivery': delivery.delivery_id,
        'X-Service-Signature': signCallbackBody(await signingSecretOf(endpoint), delivery.payload),
      },
      delivery.payload,
    );
  }
  const finished = new Date();
  const attempt: DeliveryAttempt = {
    at: now.toISOString(),
    status_code: result.statusCode,
    duration_ms: Math.round(result.durationMs),
    error: result.error ? result.error.slice(0, MAX_ERROR_LENGTH) : null,
  };
  const outcome = endpoint ? classify(result.statusCode) : ({ kind: 'review' } as const);
  if (outcome.kind === 'delivered') {
    await recordAttempt(deliveryId, attempt, { status: 'delivered', onDueIndex: false });
    return 'delivered';
  }
  if (outcome.kind === 'review') {
    await recordAttempt(deliveryId, attempt, { status: 'needs_review', onDueIndex: false });
    return 'needs_review';
  }
  const delays = retryDelaysSeconds();
  const delay = delays[delivery.round_attempts];
  if (delay === undefined) {
    await recordAttempt(deliveryId, attempt, { status: 'failed', onDueIndex: false });
    return 'failed';
  }
  const dueAt = new Date(finished.getTime() + delay * 1000).toISOString();
  // Waits on the due index first, so a failed enqueue below is picked up by the sweeper.
  await recordAttempt(deliveryId, attempt, { status: 'retrying', dueAt, onDueIndex: true });
  await dispatch(deliveryId, dueAt, finished);
  return 'retrying';
}

/** Called before a message goes to the dead-letter queue: the record must not stay waiting. */
export async function giveUp(deliveryId: string, receiveCount: number, now = new Date()): Promise<boolean> {
  if (receiveCount < callbackQueue.maxReceiveCount) return false;
  await markFailed(deliveryId, now.toISOString());
  return true;
}

// ---- operators

export async function retryDelivery(deliveryId: string, now = new Date()): Promise<DeliveryRecord> {
  const requeued = await requeueDelivery(deliveryId, now.toISOString());
  if (!requeued) {
    const existing = await getDelivery(deliveryId);
    if (!existing) throw new AppError(404, 'NOT_FOUND', `No delivery ${deliveryId}`);
    throw new AppError(409, 'DELIVERY_NOT_RETRYABLE', `Delivery ${deliveryId} is ${existing.status}; only failed or needs_review deliveries are retried`);
  }
  await dispatch(deliveryId, requeued.due_at, now);
  return requeued;
}

export async function retryDeliveries(clientId: string, status: 'failed' | 'needs_review', now = new Date()): Promise<DeliveryRecord[]> {
  const retried: DeliveryRecord[] = [];
  for (const delivery of await listDeliveries(clientId, status)) {
    const requeued = await requeueDelivery(delivery.delivery_id, now.toISOString());
    if (!requeued) continue;
    await dispatch(delivery.delivery_id, requeued.due_at, now);
    retried.push(requeued);
  }
  return retried;
}

export async function showDelivery(deliveryId: string): Promise<DeliveryRecord> {
  const delivery = await getDelivery(deliveryId);
  if (!delivery) throw new AppError(404, 'NOT_FOUND', `No delivery ${deliveryId}`);
  return delivery;
}

export { listDeliveries };
