/**
 * Deliveries: every callback (a booking confirmed, changed, cancelled or marked no-show, to the
 * PMS) and webhook (an order paid or refunded, to the hotel's website) of the client, newest first, each named by the guest, room and stay it is
 * about, with their attempts; "Retry" on a failed or needs_review one, "Retry all failed and
 * needs review" for all of them, each one use case that also records the audit entry
 * (operator-retries.ts, as `ops deliveries retry` does). The page checks first that a delivery
 * is the operator's client's: another client's delivery is as absent as a missing one (404).
 *
 * After "Retry" the action waits a few seconds for the attempt and then redirects
 * (POST-redirect-GET), so the page shows its outcome; a delivery still being sent when the page
 * opens is shown as "Sending…" and the page reloads itself (a plain meta refresh: no script)
 * until the outcome is known, for REFRESH_FOR_MS at most.
 */
import { showDelivery } from '../../domain/callbacks/deliveries';
import { DELIVERY_STATUSES, type DeliveryView, describeDeliveries, listDeliveriesPage } from '../../domain/callbacks/delivery-views';
import { bulkResendInProgress } from '../../domain/callbacks/bulk-resend';
import { afterRetryAttempt, retryFailedDeliveries, retryOneDelivery } from '../../domain/callbacks/operator-retries';
import { AppError, errors } from '../../errors';
import { RETRYABLE_DELIVERY_STATUSES, WAITING_DELIVERY_STATUSES } from '../../schemas/deliveries';
import type { DeliveryRecord, DeliveryStatus } from '../../store/delivery-store';
import { type EndpointConfig, type EndpointKind, getEndpoint } from '../../store/endpoint-store';
import { formatCount, formatTime, inWords } from '../format';
import { hotelZone } from '../hotel-zone';
import { Dl, Empty, type Links, Page, Pager, Select, Table } from '../layout';
import type { Notice } from '../notice';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { BulkProgress } from './bulk-progress';
import { eventInWords, receiverOf, subjectOf } from './delivery-words';

const PAGE = '/dashboard/deliveries';
const PAGE_SIZE = 50;
const RETRYABLE: readonly DeliveryStatus[] = RETRYABLE_DELIVERY_STATUSES;
const WAITING: readonly DeliveryStatus[] = WAITING_DELIVERY_STATUSES;
/** How long "Retry" waits for the attempt before it answers (the function has 10 s in all). */
export const RETRY_WAIT_MS = 4000;
/** How often a page of a delivery being sent reloads itself. */
export const REFRESH_SECONDS = 2;
/** For how long after it was queued a delivery's page reloads itself; later it asks for a reload. */
export const REFRESH_FOR_MS = 2 * 60_000;

const detailPath = (deliveryId: string) => `${PAGE}/${encodeURIComponent(deliveryId)}`;
const isStatus = (value: string | undefined): value is DeliveryStatus => (DELIVERY_STATUSES as readonly string[]).includes(value ?? '');

/** `?limit=` (1 to 100; the listing refuses anything else with 400), else the page size. */
function limitOf(query: Record<string, string>, fallback: number): number {
  return query.limit === undefined || query.limit === '' ? fallback : Number(query.limit);
}

type Endpoints = Record<EndpointKind, EndpointConfig | undefined>;

async function endpointsOf(clientId: string): Promise<Endpoints> {
  const [callback, webhook] = await Promise.all([getEndpoint(clientId, 'callback'), getEndpoint(clientId, 'webhook')]);
  return { callback, webhook };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Where the delivery goes: its endpoint's URL now (every attempt reads it afresh). */
function Target({ delivery, endpoints }: { delivery: DeliveryView; endpoints: Endpoints }) {
  const url = endpoints[delivery.endpoint]?.url;
  return (
    <>
      {capitalised(receiverOf(delivery.endpoint))}: {url ? <code class="url">{url}</code> : <span class="muted">no URL set</span>}
    </>
  );
}

const Status = ({ status }: { status: DeliveryStatus }) => <span class={`status-${status}`}>{inWords(status)}</span>;

const lastError = (delivery: DeliveryView) => delivery.attempts.at(-1)?.error ?? '—';

/** "Retry" for one delivery; `back` says which page the notice is shown on. */
function RetryButton({ links, delivery, back, status }: { links: Links; delivery: DeliveryView; back: 'list' | 'detail'; status?: string }) {
  return (
    <form method="post" action={links.to(`${detailPath(delivery.delivery_id)}/retry`)} class="inline">
      <input type="hidden" name="back" value={back} />
      {status ? <input type="hidden" name="status" value={status} /> : null}
      <button type="submit" aria-label={back === 'list' ? `Retry ${eventInWords(delivery.event).toLowerCase()}, ${subjectOf(delivery.about)}` : undefined}>
        Retry
      </button>
    </form>
  );
}

export const deliveriesPage: PageAction = async (request) => {
  const clientId = request.operator.client_id;
  const { links, query } = request;
  const status = query.status || undefined;
  const limit = limitOf(query, PAGE_SIZE);
  const [page, zone, bulk] = await Promise.all([
    listDeliveriesPage(clientId, { status, limit, cursor: query.cursor || undefined }),
    hotelZone(clientId),
    bulkResendInProgress(clientId),
  ]);
  const kept = { status, limit: query.limit || undefined };
  const statusWords = status && isStatus(status) ? inWords(status).toLowerCase() : status;
  return {
    html: (
      <Page title="Deliveries" links={links} operator={request.operator} nav="deliveries" notice={request.notice}>
        <p class="muted">
          What the service tells your PMS (a booking confirmed, changed, cancelled or marked no-show) and your website (an order paid or refunded), newest first; where each goes is on its own page. Times are the
          hotel's ({zone}).
        </p>
        <form method="get" action={links.to(PAGE)} class="filters" aria-label="Filter deliveries">
          <Select
            label="Status"
            name="status"
            value={status ?? ''}
            options={[{ value: '', label: 'All statuses' }, ...DELIVERY_STATUSES.map((s) => ({ value: s, label: inWords(s) }))]}
          />
          {query.limit ? <input type="hidden" name="limit" value={query.limit} /> : null}
          <button type="submit">Filter</button>
        </form>
        {bulk ? <BulkProgress progress={bulk} zone={zone} /> : null}
        <div class="actions">
          <form method="post" action={links.to(`${PAGE}/retry-failed`)} class="inline">
            <button type="submit" aria-describedby="retry-all-hint">
              Retry all failed and needs review
            </button>
          </form>
          <p id="retry-all-hint" class="hint">
            Sends again every delivery that is <strong>Failed</strong> (its automatic attempts are over) or <strong>Needs review</strong> (the receiver refused it:
            fix the cause first), with the same content and delivery id. Delivered ones and those still being sent are left alone.
          </p>
        </div>
        <h2>{status ? `Deliveries: ${statusWords}` : 'All deliveries'}</h2>
        {page.deliveries.length === 0 ? (
          <Empty>{status ? `No ${statusWords} deliveries.` : 'No deliveries yet.'}</Empty>
        ) : (
          <Table head={['Created', 'Event', 'Guest, room and stay', 'Status', 'Sent to', 'Attempts', 'Last error', 'Action']}>
            {page.deliveries.map((delivery) => (
              <tr>
                <td>{formatTime(zone, delivery.created_at)}</td>
                <td>
                  <a href={links.to(detailPath(delivery.delivery_id))}>{eventInWords(delivery.event)}</a>
                </td>
                <td>{subjectOf(delivery.about)}</td>
                <td>
                  <Status status={delivery.status} />
                </td>
                <td>{capitalised(receiverOf(delivery.endpoint))}</td>
                <td>{delivery.attempts.length}</td>
                <td>{lastError(delivery)}</td>
                <td>{RETRYABLE.includes(delivery.status) ? <RetryButton links={links} delivery={delivery} back="list" status={status} /> : null}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager links={links} path={PAGE} query={kept} cursor={page.next_cursor} />
      </Page>
    ),
  };
};

/** The delivery, if it is the operator's client's; else 404, the same as for one that does not exist. */
async function ownDelivery(request: PageRequest): Promise<DeliveryRecord> {
  const deliveryId = request.params.delivery_id ?? '';
  const notFound = () => errors.noSuchDelivery();
  if (!deliveryId || deliveryId.length > 128) throw notFound();
  const delivery = await showDelivery(deliveryId).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 404) return undefined;
    throw error;
  });
  if (!delivery || delivery.client_id !== request.operator.client_id) throw notFound();
  return delivery;
}

/** Who and what the delivery is about, with the booking or the payment order linked. */
function About({ delivery, links }: { delivery: DeliveryView; links: Links }) {
  const { about } = delivery;
  return (
    <>
      {subjectOf(about)}
      {about.booking_id ? (
        <>
          {' · '}
          <a href={links.to(`/dashboard/bookings/${encodeURIComponent(about.booking_id)}`)}>Booking {about.booking_reference ?? ''}</a>
        </>
      ) : null}
      {about.order_reference ? (
        <>
          {' · '}
          <a href={links.to(`/dashboard/payments/${encodeURIComponent(about.order_reference)}`)}>Order {about.order_reference}</a>
        </>
      ) : null}
    </>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * Whether the delivery is being sent now (waiting and due), and whether its page reloads itself:
 * while it was queued recently, unless the operator stopped the reloading (`?reload=off`).
 */
function beingSent(delivery: DeliveryView, request: Pick<PageRequest, 'now' | 'query'>): { sending: boolean; refresh: boolean } {
  const now = request.now.getTime();
  const sending = WAITING.includes(delivery.status) && Date.parse(delivery.due_at) <= now;
  return { sending, refresh: sending && request.query.reload !== 'off' && now - Date.parse(delivery.updated_at) < REFRESH_FOR_MS };
}

/** Where things stand, in a sentence or two. */
function Outcome({ delivery, zone, request }: { delivery: DeliveryView; zone: string; request: PageRequest }) {
  const receiver = receiverOf(delivery.endpoint);
  const last = delivery.attempts.at(-1);
  const answer = last ? (last.status_code ? `HTTP ${last.status_code}` : (last.error ?? 'no answer')) : null;
  const { sending, refresh } = beingSent(delivery, request);
  if (sending) {
    const stopped = request.query.reload === 'off';
    return refresh ? (
      <p class="outcome">
        <strong>Sending…</strong> This page reloads itself every {REFRESH_SECONDS} seconds until the outcome is known.{' '}
        <a href={request.links.to(detailPath(delivery.delivery_id), { reload: 'off' })}>Stop reloading</a>
      </p>
    ) : (
      <p class="outcome">
        <strong>Sending…</strong> {stopped ? '' : 'It is taking longer than usual. '}
        <a href={request.links.to(detailPath(delivery.delivery_id), { reload: stopped ? 'off' : undefined })}>Check again</a> to see the outcome.
      </p>
    );
  }
  switch (delivery.status) {
    case 'delivered':
      return (
        <p class="outcome">
          <Status status="delivered" />: {receiver} accepted it{last ? ` (${answer}) on ${formatTime(zone, last.at)}` : ''}. It was delivered; nothing more to do.
        </p>
      );
    case 'needs_review':
      return (
        <p class="outcome">
          <Status status="needs_review" />: {receiver} refused it{answer ? ` (${answer})` : ''}. It is not tried again by itself: fix the cause on {receiver}'s side, then
          press Retry.
        </p>
      );
    case 'failed':
      return (
        <p class="outcome">
          <Status status="failed" />: {receiver} could not be reached{answer ? ` (last answer: ${answer})` : ''} and the automatic attempts are over. Press Retry once it is back.
        </p>
      );
    default:
      return (
        <p class="outcome">
          <Status status={delivery.status} />: {answer ? `the last attempt failed (${answer}); ` : ''}the next attempt is at {formatTime(zone, delivery.due_at)}, by itself.
        </p>
      );
  }
}

export const deliveryPage: PageAction = async (request) => {
  const clientId = request.operator.client_id;
  const [record, endpoints, zone] = await Promise.all([ownDelivery(request), endpointsOf(clientId), hotelZone(clientId)]);
  const delivery = (await describeDeliveries(clientId, [record]))[0]!;
  const { links } = request;
  const waiting = WAITING.includes(delivery.status);
  const title = delivery.about.guest_name ? `${eventInWords(delivery.event)}: ${delivery.about.guest_name}` : eventInWords(delivery.event);
  return {
    html: (
      <Page title={title} links={links} operator={request.operator} nav="deliveries" notice={request.notice} refreshSeconds={beingSent(delivery, request).refresh ? REFRESH_SECONDS : undefined}>
        <p>
          <a href={links.to(PAGE)}>All deliveries</a>
        </p>
        <Outcome delivery={delivery} zone={zone} request={request} />
        {RETRYABLE.includes(delivery.status) ? (
          <div class="actions">
            <RetryButton links={links} delivery={delivery} back="detail" />
          </div>
        ) : null}
        <Dl
          rows={[
            ['Event', eventInWords(delivery.event)],
            ['About', <About delivery={delivery} links={links} />],
            ['Status', <Status status={delivery.status} />],
            ['Sent to', <Target delivery={delivery} endpoints={endpoints} />],
            ['Created', formatTime(zone, delivery.created_at)],
            ['Updated', formatTime(zone, delivery.updated_at)],
            ...(waiting ? [['Next attempt', formatTime(zone, delivery.due_at)] as const] : []),
            ['Attempts', String(delivery.attempts.length)],
          ]}
        />
        <h2>Attempts</h2>
        {delivery.attempts.length === 0 ? (
          <Empty>No attempt yet.</Empty>
        ) : (
          <Table head={['#', 'At', 'Answer', 'Duration', 'Error']}>
            {delivery.attempts.map((attempt, i) => (
              <tr>
                <td>{i + 1}</td>
                <td>{formatTime(zone, attempt.at)}</td>
                <td>{attempt.status_code ? `HTTP ${attempt.status_code}` : 'none'}</td>
                <td>{attempt.duration_ms} ms</td>
                <td>{attempt.error ?? '—'}</td>
              </tr>
            ))}
          </Table>
        )}
        <h2>What is sent</h2>
        <p class="muted">
          Every attempt sends the same body under the same delivery id, <code>{delivery.delivery_id}</code> (the <code>X-Service-Delivery</code> header), so{' '}
          {receiverOf(delivery.endpoint)} can recognise a repeat.
        </p>
        <details>
          <summary>The exact body (JSON)</summary>
          <pre class="payload">{prettyJson(delivery.payload)}</pre>
        </details>
      </Page>
    ),
  };
};

function failure(error: unknown): Notice {
  if (error instanceof AppError && error.status < 500) return { kind: 'error', message: error.message };
  throw error;
}

/** Runs an action; a refusal of the use case (a delivery no longer retryable) comes back as an error notice. */
async function act(back: string, run: () => Promise<Notice>): Promise<PageOutcome> {
  try {
    return { redirect: back, notice: await run() };
  } catch (error) {
    return { redirect: back, notice: failure(error) };
  }
}

/**
 * The page a Retry button was pressed on: the delivery's own, the overview, its booking's (the
 * booking the delivery names, never a path from the form), or the list (with its status filter).
 */
function backTo(request: PageRequest, deliveryId: string, bookingId?: string): string {
  const back = request.form.get('back');
  if (back === 'detail') return detailPath(deliveryId);
  if (back === 'overview') return '/dashboard';
  if (back === 'booking' && bookingId) return `/dashboard/bookings/${encodeURIComponent(bookingId)}`;
  const status = request.form.get('status') ?? undefined;
  return isStatus(status) ? `${PAGE}?status=${status}` : PAGE;
}

/** What a retry came to, for the notice on the page it is answered on. */
function retryNotice(delivery: DeliveryRecord | undefined, attemptsBefore: number, who: string): Notice {
  const receiver = delivery ? receiverOf(delivery.endpoint) : 'the receiver';
  const last = delivery?.attempts.at(-1);
  const answer = last ? (last.status_code ? `HTTP ${last.status_code}` : (last.error ?? 'no answer')) : '';
  if (!delivery || delivery.attempts.length <= attemptsBefore) {
    return { kind: 'success', message: `${who}: queued again and being sent to ${receiver} now.` };
  }
  switch (delivery.status) {
    case 'delivered':
      return { kind: 'success', message: `${who}: queued again and delivered; ${receiver} accepted it.` };
    case 'needs_review':
      return { kind: 'error', message: `${who}: queued again, and ${receiver} refused it again (${answer}).` };
    case 'failed':
      return { kind: 'error', message: `${who}: queued again, but ${receiver} could not be reached (${answer}).` };
    default:
      return { kind: 'error', message: `${who}: queued again, but the attempt failed (${answer}); it is tried again by itself.` };
  }
}

export const retryDeliveryAction: PageAction = async (request) => {
  const delivery = await ownDelivery(request);
  return act(backTo(request, delivery.delivery_id, delivery.booking_id), async () => {
    await retryOneDelivery({ delivery, actor: request.operator.email, now: request.now });
    const view = (await describeDeliveries(request.operator.client_id, [delivery]))[0]!;
    const who = [eventInWords(delivery.event), view.about.guest_name].filter(Boolean).join(' for ');
    return retryNotice(await afterRetryAttempt(delivery.delivery_id, delivery.attempts.length, RETRY_WAIT_MS), delivery.attempts.length, who);
  });
};

export const retryFailedAction: PageAction = (request) =>
  act(PAGE, async () => {
    const { failed, needs_review: review } = await retryFailedDeliveries({ clientId: request.operator.client_id, actor: request.operator.email, now: request.now });
    const count = failed + review;
    return {
      kind: 'success',
      message:
        count === 0
          ? 'Nothing to send again: no delivery is failed or needs review.'
          : `${formatCount(count)} ${count === 1 ? 'delivery' : 'deliveries'} queued again. ${formatCount(failed)} had failed, ${formatCount(review)} needed review.`,
    };
  });
