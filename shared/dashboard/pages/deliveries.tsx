/**
 * Deliveries: every callback (booking.confirmed) and webhook (payment_order.paid) of the client,
 * newest first, with their attempts; "Retry" on a failed or needs_review one, "Retry all failed"
 * for all of them. The retry use cases name a delivery by id alone, so the page checks first that
 * it is the operator's client's: another client's delivery is as absent as a missing one (404).
 */
import { recordAudit } from '../../domain/audit';
import { retryDeliveries, retryDelivery, showDelivery } from '../../domain/callbacks/deliveries';
import { DELIVERY_STATUSES, type DeliveryView, deliveryView, listDeliveriesPage } from '../../domain/callbacks/delivery-views';
import { AppError } from '../../errors';
import type { DeliveryRecord, DeliveryStatus } from '../../store/delivery-store';
import { type EndpointConfig, type EndpointKind, getEndpoint } from '../../store/endpoint-store';
import { Dl, Empty, type Links, Page, Pager, Select, Table } from '../layout';
import type { Notice } from '../notice';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { formatTime as when } from '../format';

const PAGE = '/dashboard/deliveries';
const PAGE_SIZE = 50;
const RETRYABLE: readonly DeliveryStatus[] = ['failed', 'needs_review'];

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

/** Where the delivery goes: its endpoint's URL now (every attempt reads it afresh). */
function Target({ delivery, endpoints }: { delivery: DeliveryView; endpoints: Endpoints }) {
  const url = endpoints[delivery.endpoint]?.url;
  return (
    <>
      {delivery.endpoint}: {url ? <code>{url}</code> : <span class="muted">no URL set</span>}
    </>
  );
}

const Status = ({ status }: { status: DeliveryStatus }) => <span class={`status-${status}`}>{status}</span>;

const lastError = (delivery: DeliveryView) => delivery.attempts.at(-1)?.error ?? '—';

/** "Retry" for one delivery; `back` says which page the notice is shown on. */
function RetryButton({ links, deliveryId, back, status }: { links: Links; deliveryId: string; back: 'list' | 'detail'; status?: string }) {
  return (
    <form method="post" action={links.to(`${detailPath(deliveryId)}/retry`)} class="inline">
      <input type="hidden" name="back" value={back} />
      {status ? <input type="hidden" name="status" value={status} /> : null}
      <button type="submit">Retry</button>
    </form>
  );
}

export const deliveriesPage: PageAction = async (request) => {
  const clientId = request.operator.client_id;
  const { links, query } = request;
  const status = query.status || undefined;
  const limit = limitOf(query, PAGE_SIZE);
  const [page, endpoints] = await Promise.all([
    listDeliveriesPage(clientId, { status, limit, cursor: query.cursor || undefined }),
    endpointsOf(clientId),
  ]);
  const kept = { status, limit: query.limit || undefined };
  return {
    html: (
      <Page title="Deliveries" links={links} operator={request.operator} nav="deliveries" notice={request.notice}>
        <p class="muted">Callbacks (booking.confirmed, to your PMS) and webhooks (payment_order.paid, to your website), newest first.</p>
        <form method="get" action={links.to(PAGE)} class="filters" aria-label="Filter deliveries">
          <Select
            label="Status"
            name="status"
            value={status ?? ''}
            options={[{ value: '', label: 'All statuses' }, ...DELIVERY_STATUSES.map((s) => ({ value: s, label: s }))]}
          />
          {query.limit ? <input type="hidden" name="limit" value={query.limit} /> : null}
          <button type="submit">Filter</button>
        </form>
        <div class="actions">
          <form method="post" action={links.to(`${PAGE}/retry-failed`)} class="inline">
            <button type="submit">Retry all failed</button>
          </form>
          <span class="muted">Queues every failed and needs_review delivery again.</span>
        </div>
        <h2>{status ? `Deliveries ${status}` : 'All deliveries'}</h2>
        {page.deliveries.length === 0 ? (
          <Empty>{status ? `No ${status} deliveries.` : 'No deliveries yet.'}</Empty>
        ) : (
          <Table head={['Created', 'Event', 'Status', 'Target', 'Attempts', 'Last error', 'Delivery', 'Action']}>
            {page.deliveries.map((delivery) => (
              <tr>
                <td>{when(delivery.created_at)}</td>
                <td>{delivery.event}</td>
                <td>
                  <Status status={delivery.status} />
                </td>
                <td>
                  <Target delivery={delivery} endpoints={endpoints} />
                </td>
                <td>{delivery.attempts.length}</td>
                <td>{lastError(delivery)}</td>
                <td>
                  <a href={links.to(detailPath(delivery.delivery_id))}>
                    <code>{delivery.delivery_id}</code>
                  </a>
                </td>
                <td>{RETRYABLE.includes(delivery.status) ? <RetryButton links={links} deliveryId={delivery.delivery_id} back="list" status={status} /> : null}</td>
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
  const notFound = () => new AppError(404, 'NOT_FOUND', 'There is no such delivery.');
  if (!deliveryId || deliveryId.length > 128) throw notFound();
  const delivery = await showDelivery(deliveryId).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 404) return undefined;
    throw error;
  });
  if (!delivery || delivery.client_id !== request.operator.client_id) throw notFound();
  return delivery;
}

/** What the delivery is about, read from its payload: the booking or the payment order, linked. */
function About({ delivery, links }: { delivery: DeliveryView; links: Links }) {
  let payload: { booking?: { id?: string; booking_reference?: string }; payment_order?: { order_reference?: string } } = {};
  try {
    payload = JSON.parse(delivery.payload) as typeof payload;
  } catch {
    // Shown as it is below.
  }
  const booking = payload.booking;
  if (booking?.id) {
    return (
      <>
        Booking <a href={links.to(`/dashboard/bookings/${encodeURIComponent(booking.id)}`)}>{booking.booking_reference ?? booking.id}</a>
      </>
    );
  }
  const order = payload.payment_order?.order_reference;
  if (order) {
    return (
      <>
        Payment order <a href={links.to(`/dashboard/payments/${encodeURIComponent(order)}`)}>{order}</a>
      </>
    );
  }
  return <>—</>;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export const deliveryPage: PageAction = async (request) => {
  const delivery = deliveryView(await ownDelivery(request));
  const endpoints = await endpointsOf(request.operator.client_id);
  const { links } = request;
  const waiting = delivery.status === 'pending' || delivery.status === 'retrying';
  return {
    html: (
      <Page title={`Delivery ${delivery.delivery_id}`} links={links} operator={request.operator} nav="deliveries" notice={request.notice}>
        <p>
          <a href={links.to(PAGE)}>All deliveries</a>
        </p>
        <Dl
          rows={[
            ['Event', delivery.event],
            ['Status', <Status status={delivery.status} />],
            ['Target', <Target delivery={delivery} endpoints={endpoints} />],
            ['About', <About delivery={delivery} links={links} />],
            ['Created', when(delivery.created_at)],
            ['Updated', when(delivery.updated_at)],
            ...(waiting ? [['Next attempt', when(delivery.due_at)] as const] : []),
            ['Attempts', String(delivery.attempts.length)],
          ]}
        />
        {RETRYABLE.includes(delivery.status) ? (
          <div class="actions">
            <RetryButton links={links} deliveryId={delivery.delivery_id} back="detail" />
          </div>
        ) : null}
        <h2>Attempts</h2>
        {delivery.attempts.length === 0 ? (
          <Empty>No attempt yet.</Empty>
        ) : (
          <Table head={['#', 'At', 'Status code', 'Duration', 'Error']}>
            {delivery.attempts.map((attempt, i) => (
              <tr>
                <td>{i + 1}</td>
                <td>{when(attempt.at)}</td>
                <td>{attempt.status_code ?? '—'}</td>
                <td>{attempt.duration_ms} ms</td>
                <td>{attempt.error ?? '—'}</td>
              </tr>
            ))}
          </Table>
        )}
        <h2>Payload</h2>
        <p class="muted">The exact JSON body sent on every attempt.</p>
        <pre class="payload">{prettyJson(delivery.payload)}</pre>
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

/** The page a Retry button was pressed on: the delivery's own, or the list (with its status filter). */
function backTo(request: PageRequest, deliveryId: string): string {
  if (request.form.get('back') === 'detail') return detailPath(deliveryId);
  const status = request.form.get('status') ?? undefined;
  return isStatus(status) ? `${PAGE}?status=${status}` : PAGE;
}

export const retryDeliveryAction: PageAction = async (request) => {
  const delivery = await ownDelivery(request);
  return act(backTo(request, delivery.delivery_id), async () => {
    await retryDelivery(delivery.delivery_id, request.now);
    await recordAudit(
      request.operator.client_id,
      { operator: request.operator.email, action: 'delivery.retry', target: delivery.delivery_id, changes: { event: delivery.event, status: 'pending', was: delivery.status } },
      request.now,
    );
    return { kind: 'success', message: `Delivery ${delivery.delivery_id} queued again.` };
  });
};

export const retryFailedAction: PageAction = (request) =>
  act(PAGE, async () => {
    const clientId = request.operator.client_id;
    const failed = await retryDeliveries(clientId, 'failed', request.now);
    const review = await retryDeliveries(clientId, 'needs_review', request.now);
    const count = failed.length + review.length;
    await recordAudit(
      clientId,
      { operator: request.operator.email, action: 'delivery.retry_all', changes: { count, failed: failed.length, needs_review: review.length } },
      request.now,
    );
    return {
      kind: 'success',
      message:
        count === 0
          ? '0 deliveries queued again: none was failed or needs_review.'
          : `${count} ${count === 1 ? 'delivery' : 'deliveries'} queued again.`,
    };
  });
