/**
 * Delivering events to clients (docs/behaviour.md "booking.confirmed callbacks"): each delivery is
 * recorded with its exact payload, put on the queue, attempted by the sender with a 10 s
 * timeout, classified, retried on a schedule, and re-queued by operators. The delivery id is
 * the X-Service-Delivery header of every attempt.
 */
import { callbackQueue } from '../../../definitions/queues';
import { config } from '../../config';
import { errors } from '../../errors';
import { describeHostRefusal, refusedHost } from '../../net/address-policy';
import { postOutbound } from '../../net/outbound-post';
import { logger } from '../../observability';
import { enqueueDelivery, MAX_QUEUE_DELAY_SECONDS } from '../../queue';
import {
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryStatus,
  getDelivery,
  leaseDelivery,
  markEnqueued,
  markFailed,
  recordAttempt,
  requeueDelivery,
} from '../../store/delivery-store';
import { SEALED_FORMAT_VERSION, SecretCannotBeOpenedError } from '../../secrets/sealed-secrets';
import { type EndpointKind, getEndpoint, putEndpoint, putEndpointUrl, signingSecretsOf } from '../../store/endpoint-store';
import { markDeliveryDue } from '../../store/delivery-bulk-store';
import { listDeliveries } from '../../store/delivery-listings';
import { ATTEMPT_TIMEOUT_MS, LEASE_MS, resendAfter } from './resend';
import { generateSigningSecret, signCallbackBody, signStandardWebhook } from './signing';

export { ATTEMPT_TIMEOUT_MS };
const MAX_ERROR_LENGTH = 1024;
const TERMINAL_STATUSES: DeliveryStatus[] = ['delivered', 'failed', 'needs_review'];


// ---- configuration

/**
 * Why a URL may not receive events on this stage, or undefined (docs/behaviour.md "Payment safety in
 * deployed stages"): https only, except that the local stack, whose receivers run on the
 * developer's machine, also takes http and loopback. Checked when saved and before every attempt;
 * a name is judged by its DNS answer at send time only (outbound-post.ts): the saving process
 * (an operator's laptop) does not see the sender's DNS, and an answer may change after saving.
 */
function endpointUrlProblem(url: string, local: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `Not an absolute URL: ${url}`;
  }
  const refusal = refusedHost(parsed.hostname, { allowLoopback: local });
  if (refusal) return `The URL must not point inside the network: ${describeHostRefusal(parsed.hostname, refusal)}`;
  if (parsed.protocol !== 'https:' && !(local && parsed.protocol === 'http:')) return 'The URL must use https';
  if (parsed.username || parsed.password) return 'The URL must not carry credentials';
  return undefined;
}

/** A callback or webhook URL, normalized, if this stage may send to it; else 400 VALIDATION_ERROR. */
export function validateEndpointUrl(url: string): string {
  const problem = endpointUrlProblem(url, config().isLocal);
  if (problem) throw errors.validation([{ path: 'url', message: problem }], problem);
  return new URL(url).toString();
}

/** Sets where a client receives one kind of event; returns the secret (generated unless given). */
export async function configureEndpoint(
  clientId: string,
  kind: EndpointKind,
  input: { url: string; secret?: string },
  now = new Date(),
): Promise<{ secret: string; url: string }> {
  const url = validateEndpointUrl(input.url);
  if (input.secret !== undefined && input.secret.length < 16) {
    throw errors.secretTooShort();
  }
  const secret = input.secret ?? generateSigningSecret();
  await putEndpoint(clientId, kind, { url, secret, updated_at: now.toISOString() });
  return { secret, url };
}

/**
 * Changes where a client receives one kind of event and never its signing secret (the
 * dashboard's "Save"): the receiver keeps verifying with the secret it has. A secret is made only
 * when there was none (the first URL), or when the one kept is sealed in a retired format and
 * could sign nothing; `secret` is then the new one, to show once. Only a rotation, or an
 * operator giving a secret (configureEndpoint), replaces a working one; a rotation between
 * reading and saving is kept (read again).
 */
export async function setEndpointUrl(
  clientId: string,
  kind: EndpointKind,
  input: { url: string },
  now = new Date(),
): Promise<{ url: string; secret?: string; previousUrl?: string }> {
  const url = validateEndpointUrl(input.url);
  for (let tries = 0; tries < 3; tries++) {
    const current = await getEndpoint(clientId, kind);
    if (!current || !current.sealed_secret.startsWith(`${SEALED_FORMAT_VERSION}:`)) {
      return { ...(await configureEndpoint(clientId, kind, { url }, now)), ...(current ? { previousUrl: current.url } : {}) };
    }
    if (await putEndpointUrl(current, url, now.toISOString())) return { url, previousUrl: current.url };
  }
  throw errors.serviceUnavailable();
}

// ---- putting deliveries on the queue

/**
 * Puts a waiting delivery on the queue, delayed until `dueAt`, and moves it on the due index from
 * `indexedAt` (by default its due time, where a new delivery, a recorded retry or an operator
 * retry puts it; null: not on the index, as an earlier version left deliveries it enqueued) to
 * when the sweeper is to send it again should the message be lost. If the enqueue fails, or the
 * delay is longer than SQS allows, it stays where it is: the sweeper sends it when that time comes.
 */
export async function dispatch(deliveryId: string, dueAt: string, now = new Date(), indexedAt: string | null = dueAt): Promise<boolean> {
  const delaySeconds = Math.max(0, (Date.parse(dueAt) - now.getTime()) / 1000);
  if (delaySeconds > MAX_QUEUE_DELAY_SECONDS) return false;
  try {
    await enqueueDelivery(deliveryId, delaySeconds);
  } catch (error) {
    logger.warn('enqueue failed; the sweeper will retry', { delivery_id: deliveryId, error: error as Error });
    return false;
  }
  await markEnqueued(deliveryId, indexedAt, resendAfter(Math.max(Date.parse(dueAt), Date.now())));
  return true;
}

// ---- attempts

type Outcome = { kind: 'delivered' } | { kind: 'retry' } | { kind: 'review' };

export function classify(statusCode: number | null): Outcome {
  if (statusCode === null) return { kind: 'retry' };
  if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered' };
  if (statusCode === 429 || statusCode >= 500) return { kind: 'retry' };
  return { kind: 'review' };
}

/** One POST; `refused` when the URL or its DNS answer points inside the network (never sent). */
async function post(url: string, headers: Record<string, string>, body: string) {
  const started = performance.now();
  const { isLocal, dnsServers } = config();
  const problem = endpointUrlProblem(url, isLocal);
  if (problem) return { statusCode: null, error: `refused: ${problem}`, durationMs: 0, refused: true };
  const result = await postOutbound(url, { headers, body, timeoutMs: ATTEMPT_TIMEOUT_MS, allowLoopback: isLocal, dnsServers });
  const durationMs = performance.now() - started;
  if (result.kind !== 'response') return { statusCode: null, error: result.error, durationMs, refused: result.kind === 'refused' };
  const ok = result.statusCode >= 200 && result.statusCode < 300;
  return { statusCode: result.statusCode, error: ok ? null : `HTTP ${result.statusCode}`, durationMs, refused: false };
}

/** Where to send, with the secrets that sign: the current one, and the previous one while its overlap lasts. */
type SendTarget = { url: string; secret: string; previous?: { secret: string; valid_until: string } } | { refused: string; unopenedSecret?: string };

/**
 * The endpoints of one batch of attempts (one sender invocation), each read and its secret
 * opened once: a batch mostly holds one client's deliveries, and every read of a secret is a
 * KMS call in the stack.
 */
export type SendTargets = Map<string, Promise<SendTarget>>;

/**
 * Where and with what secret a client's deliveries are sent, or why they cannot be: no URL, or
 * a secret that does not open for this client and kind (moved from another record, altered, or
 * sealed in a retired format). No retry changes either, so the attempt is recorded and the
 * delivery waits for review. A KMS fault (throttling, timeout) throws instead: the message is
 * retried.
 */
async function lookUpTarget(clientId: string, kind: EndpointKind): Promise<SendTarget> {
  const endpoint = await getEndpoint(clientId, kind);
  if (!endpoint) return { refused: `no ${kind} URL is configured` };
  try {
    const { current, previous } = await signingSecretsOf(endpoint);
    return { url: endpoint.url, secret: current, ...(previous ? { previous } : {}) };
  } catch (error) {
    if (!(error instanceof SecretCannotBeOpenedError)) throw error;
    return { refused: `the ${kind} signing secret cannot be opened (${error.message}); set the ${kind} again`, unopenedSecret: error.message };
  }
}

async function sendTarget(delivery: DeliveryRecord, targets: SendTargets): Promise<SendTarget> {
  const key = `${delivery.client_id}#${delivery.endpoint}`;
  let lookup = targets.get(key);
  if (!lookup) targets.set(key, (lookup = lookUpTarget(delivery.client_id, delivery.endpoint)));
  // A lookup that failed (a timeout) is not kept, and fails no other attempt: each tries its own.
  const target = await lookup.catch(() => {
    if (targets.get(key) === lookup) targets.delete(key);
    return lookUpTarget(delivery.client_id, delivery.endpoint);
  });
  if ('unopenedSecret' in target) {
    logger.warn('signing secret cannot be opened', {
      delivery_id: delivery.delivery_id,
      client_id: delivery.client_id,
      endpoint: delivery.endpoint,
      reason: target.unopenedSecret,
    });
  }
  return target;
}

/**
 * The headers of one attempt (docs/behaviour.md "Receivers in control"): the spec's, and the
 * Standard Webhooks ones, `webhook-timestamp` the attempt's time. While a rotation's overlap lasts
 * `webhook-signature` carries a signature with the new and with the previous secret, and
 * X-Service-Signature keeps the previous one, so a receiver may switch at any time until then.
 */
function signedHeaders(delivery: DeliveryRecord, target: { secret: string; previous?: { secret: string; valid_until: string } }, now: Date): Record<string, string> {
  const previous = target.previous && Date.parse(target.previous.valid_until) > now.getTime() ? target.previous.secret : undefined;
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'X-Service-Event': delivery.event,
    'X-Service-Client': delivery.client_id,
    'X-Service-Delivery': delivery.delivery_id,
    'X-Service-Signature': signCallbackBody(previous ?? target.secret, delivery.payload),
    'webhook-id': delivery.delivery_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(previous ? [target.secret, previous] : [target.secret], delivery.delivery_id, timestamp, delivery.payload),
  };
}

/**
 * One attempt of a delivery, as the sender runs it for a queue message. Safe to run for a
 * duplicate or early message: it only sends when the delivery is waiting, due and not leased.
 * `targets` is shared by the attempts of one batch.
 */
export async function attemptDelivery(deliveryId: string, now = new Date(), targets: SendTargets = new Map()): Promise<DeliveryStatus | 'skipped'> {
  const claim = await leaseDelivery(deliveryId, now, LEASE_MS);
  if (!claim.leased) {
    const { current } = claim;
    if (current && !TERMINAL_STATUSES.includes(current.status) && Date.parse(current.due_at) > now.getTime() + 1000) {
      // Early (a duplicate, or a message sent before its due time): send it on its way again.
      await dispatch(deliveryId, current.due_at, now, current.indexed_at ?? null);
    }
    // Otherwise gone, finished, or in another attempt's hands: a duplicate.
    return 'skipped';
  }
  const delivery = claim.leased;

  const target = await sendTarget(delivery, targets);
  let result: { statusCode: number | null; error: string | null; durationMs: number; refused: boolean };
  if ('refused' in target) {
    result = { statusCode: null, error: target.refused, durationMs: 0, refused: true };
  } else {
    result = await post(target.url, signedHeaders(delivery, target, now), delivery.payload);
    if (result.refused) {
      logger.warn('delivery not sent: its URL is refused', {
        delivery_id: delivery.delivery_id,
        client_id: delivery.client_id,
        endpoint: delivery.endpoint,
        reason: result.error,
      });
    }
  }
  const finished = new Date();
  const attempt: DeliveryAttempt = {
    at: now.toISOString(),
    status_code: result.statusCode,
    duration_ms: Math.round(result.durationMs),
    error: result.error ? result.error.slice(0, MAX_ERROR_LENGTH) : null,
  };
  // Refused: no retry changes the answer; the delivery waits for an operator (docs/behaviour.md "Payment safety in deployed stages").
  const outcome = result.refused ? ({ kind: 'review' } as const) : classify(result.statusCode);
  if (outcome.kind === 'delivered') {
    await recordAttempt(deliveryId, attempt, { status: 'delivered', onDueIndex: false });
    return 'delivered';
  }
  if (outcome.kind === 'review') {
    await recordAttempt(deliveryId, attempt, { status: 'needs_review', onDueIndex: false });
    return 'needs_review';
  }
  const delays = config().callbackRetryDelaysSeconds;
  const delay = delays[delivery.round_attempts];
  if (delay === undefined) {
    await recordAttempt(deliveryId, attempt, { status: 'failed', onDueIndex: false });
    return 'failed';
  }
  const dueAt = new Date(finished.getTime() + delay * 1000).toISOString();
  // Waits on the due index at its due time first, so a failed enqueue below is picked up by the
  // sweeper; the enqueue then moves it to its resend-after time.
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
    if (!existing) throw errors.deliveryNotFound(deliveryId);
    throw errors.deliveryNotRetryable(deliveryId, existing.status);
  }
  await dispatch(deliveryId, requeued.due_at, now);
  return requeued;
}

/**
 * A receiver's retry of one of its deliveries (POST /api/v1/deliveries/{id}/retry): sent again
 * under the same id with the same bytes, whatever it became (a pending one is on its way
 * already; one an attempt holds right now is left to it). Undefined when there is none.
 */
export async function resendDelivery(deliveryId: string, now = new Date()): Promise<DeliveryRecord | undefined> {
  const marked = await markDeliveryDue(deliveryId, ['delivered', 'failed', 'needs_review', 'retrying'], now);
  if (marked) {
    await dispatch(deliveryId, marked.due_at, now);
    return marked;
  }
  return getDelivery(deliveryId, now);
}

export async function showDelivery(deliveryId: string): Promise<DeliveryRecord> {
  const delivery = await getDelivery(deliveryId);
  if (!delivery) throw errors.deliveryNotFound(deliveryId);
  return delivery;
}

export { listDeliveries };
