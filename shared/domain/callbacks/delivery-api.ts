/**
 * The deliveries API: a receiver reads and resends its own deliveries (docs/behaviour.md
 * "Receivers in control"). A sync key sees the client's callbacks (`booking.*`), a payment key its
 * webhooks (`payment_order.*`); another client's delivery, or one of the other kind, is 404 as if
 * it did not exist. Deliveries past their 30 days are gone.
 */
import type { Principal } from '../../auth/authorize';
import { errors } from '../../errors';
import type { ListDeliveriesQuery, ReplayDeliveriesBody } from '../../schemas/deliveries';
import { endpointDeliveriesPage, endpointPageKey } from '../../store/delivery-bulk-store';
import { type DeliveryRecord, getDeliveries, getDelivery, oldestKeptDelivery } from '../../store/delivery-store';
import type { EndpointKind } from '../../store/endpoint-store';
import { recordAudit } from '../audit';
import { nextCursor, readPage } from '../paging';
import { startBulkResend } from './bulk-resend';
import { resendDelivery } from './deliveries';

/** A page of the list when `limit` is not given. */
export const DEFAULT_DELIVERIES_PAGE = 50;
/** After every id (the index's sort keys are `<created_at>#<id>`), so `until` is inclusive. */
const OPEN_END = '9999-12-31T23:59:59.999Z';

const endpointOf = (principal: Principal): EndpointKind => (principal.kind === 'sync' ? 'callback' : 'webhook');

const isOwn = (principal: Principal, delivery: DeliveryRecord) => delivery.client_id === principal.clientId && delivery.endpoint === endpointOf(principal);

/** A time as the index writes it; the later of it and the oldest kept delivery for a range's start. */
const iso = (value: string) => new Date(value).toISOString();
const rangeStart = (since: string | undefined, now: Date) => {
  const kept = oldestKeptDelivery(now);
  return since && iso(since) > kept ? iso(since) : kept;
};

export function deliverySummary(delivery: DeliveryRecord) {
  return {
    delivery_id: delivery.delivery_id,
    event: delivery.event,
    status: delivery.status,
    created_at: delivery.created_at,
    attempts: delivery.attempts.map(({ at, status_code, duration_ms, error }) => ({ at, status_code, duration_ms, error })),
  };
}

export function deliveryDetail(delivery: DeliveryRecord) {
  return {
    ...deliverySummary(delivery),
    updated_at: delivery.updated_at,
    next_attempt_at: delivery.status === 'pending' || delivery.status === 'retrying' ? delivery.due_at : null,
    body: delivery.payload,
  };
}

/**
 * A page of the caller's deliveries, newest first: the index of its endpoint (its statuses and
 * events as filters), then the records. The cursor names a place in the caller's own index
 * partition only: any other (another client's, the other kind's) is 400 at `cursor`.
 */
export async function listOwnDeliveries(principal: Principal, query: ListDeliveriesQuery, now = new Date()) {
  const endpoint = endpointOf(principal);
  const page = readPage({ limit: query.limit ?? DEFAULT_DELIVERIES_PAGE, cursor: query.cursor }, (key) => endpointPageKey(principal.clientId, endpoint, key));
  const filter = {
    since: rangeStart(query.since, now),
    until: query.until ? iso(query.until) : OPEN_END,
    ...(query.status ? { statuses: [query.status] } : {}),
    ...(query.event ? { events: [query.event] } : {}),
  };
  const { ids, next } = await endpointDeliveriesPage(principal.clientId, endpoint, filter, page);
  const byId = new Map((await getDeliveries(ids, now)).map((d) => [d.delivery_id, d]));
  // The index lags the table a little: one whose status changed since is left out of a status filter.
  const deliveries = ids.flatMap((id) => byId.get(id) ?? []).filter((d) => isOwn(principal, d) && (!query.status || d.status === query.status));
  return { deliveries: deliveries.map(deliverySummary), ...nextCursor(next) };
}

async function ownDelivery(principal: Principal, deliveryId: string, now: Date): Promise<DeliveryRecord> {
  const delivery = await getDelivery(deliveryId, now);
  if (!delivery || !isOwn(principal, delivery)) throw errors.deliveryNotFound(deliveryId);
  return delivery;
}

/** One of the caller's deliveries with its attempts and the exact body sent. */
export async function showOwnDelivery(principal: Principal, deliveryId: string, now = new Date()) {
  return deliveryDetail(await ownDelivery(principal, deliveryId, now));
}

/** Sends one of the caller's deliveries again, same id, same body. */
export async function retryOwnDelivery(principal: Principal, deliveryId: string, now = new Date()) {
  await ownDelivery(principal, deliveryId, now);
  const resent = await resendDelivery(deliveryId, now);
  if (!resent) throw errors.deliveryNotFound(deliveryId);
  return { delivery_id: resent.delivery_id, status: resent.status };
}

/** Who the audit names for a receiver's replay: its key. */
const keyActor = (principal: Principal) => `API key ${principal.keyId}`;

/**
 * Sends again every delivery of the caller's created in [since, until] with these statuses and
 * events (all but pending ones, which are on their way, when no status is given): bounded work in
 * the request, the rest by the sweeper. Audited once, with the count.
 */
export async function replayOwnDeliveries(principal: Principal, body: ReplayDeliveriesBody, now = new Date()): Promise<{ queued: number }> {
  const since = rangeStart(body.since, now);
  const until = iso(body.until);
  if (iso(body.since) > until) throw errors.validation([{ path: 'until', message: 'must not be before since' }], 'until: must not be before since');
  const from = body.status ?? ['delivered', 'failed', 'needs_review', 'retrying'];
  const { queued } = await startBulkResend({
    clientId: principal.clientId,
    kind: 'replay',
    sources: [{ index: 'gsi4', clientId: principal.clientId, endpoint: endpointOf(principal) }],
    filter: { since, until, ...(body.event ? { events: body.event } : {}) },
    from,
    now,
  });
  await recordAudit(
    principal.clientId,
    {
      operator: keyActor(principal),
      action: 'delivery.replay',
      changes: { count: queued, since: iso(body.since), until, ...(body.status ? { status: body.status.join(' ') } : {}), ...(body.event ? { event: body.event.join(' ') } : {}) },
    },
    now,
  );
  return { queued };
}
