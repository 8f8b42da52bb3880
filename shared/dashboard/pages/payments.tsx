/**
 * Payments: the client's payment orders newest first, and one order with its whole history
 * (attempts, provider events, transactions). Another client's order is as absent as a missing
 * one (404): clientOrderDetail answers neither.
 */
import { clientOrderDetail, listClientOrders, type OrderDetailView } from '../../domain/payments/list-orders';
import { AppError } from '../../errors';
import { formatAmount, formatTime as when } from '../format';
import { Dl, Empty, type Links, Page, Pager, Table } from '../layout';
import type { PageAction } from '../page-function';

const PAGE = '/dashboard/payments';
const PAGE_SIZE = 50;

const limitOf = (query: Record<string, string>) => (query.limit === undefined || query.limit === '' ? PAGE_SIZE : Number(query.limit));
const orderPath = (orderReference: string) => `${PAGE}/${encodeURIComponent(orderReference)}`;

const Status = ({ status }: { status: string }) => <span class={`status-${status}`}>{status}</span>;

export const paymentsPage: PageAction = async (request) => {
  const { links, query } = request;
  const page = await listClientOrders(request.operator.client_id, { limit: limitOf(query), cursor: query.cursor || undefined });
  return {
    html: (
      <Page title="Payments" links={links} operator={request.operator} nav="payments" notice={request.notice}>
        <p class="muted">Payment orders created with your payment keys and the guest booking page, newest first.</p>
        <h2>Payment orders</h2>
        {page.orders.length === 0 ? (
          <Empty>No payment orders yet.</Empty>
        ) : (
          <Table head={['Order reference', 'Partner reference', 'Amount', 'Status', 'Created', 'Paid', 'Customer', 'Kind']}>
            {page.orders.map((order) => (
              <tr>
                <td>
                  <a href={links.to(orderPath(order.order_reference))}>
                    <code>{order.order_reference}</code>
                  </a>
                </td>
                <td>{order.reference}</td>
                <td class="amount">{formatAmount(order.amount_minor, order.currency)}</td>
                <td>
                  <Status status={order.status} />
                </td>
                <td>{when(order.created_at)}</td>
                <td>{when(order.paid_at)}</td>
                <td>{order.customer_email}</td>
                <td>{order.context_type ?? '—'}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager links={links} path={PAGE} query={{ limit: query.limit || undefined }} cursor={page.next_cursor} />
      </Page>
    ),
  };
};

/** The booking a paid order became (a room booking), linked to its page. */
function Booking({ order, links }: { order: OrderDetailView; links: Links }) {
  const sync = order.booking_sync;
  if (sync.status === 'failed') return <>the booking could not be recorded</>;
  if (!sync.booking_id) return <>—</>;
  return (
    <>
      <a href={links.to(`/dashboard/bookings/${encodeURIComponent(sync.booking_id)}`)}>{sync.booking_reference ?? sync.booking_id}</a>
      {sync.confirmation_code ? ` (confirmation code ${sync.confirmation_code})` : ''}
      {sync.room_assignment === 'manual' ? ', awaiting a room' : ''}
    </>
  );
}

function Stay({ context }: { context: OrderDetailView['context'] }) {
  if (!context?.check_in_date) return <>—</>;
  return (
    <>
      {context.check_in_date} to {context.check_out_date}
      {context.guests ? `, ${context.guests} ${context.guests === 1 ? 'guest' : 'guests'}` : ''}
    </>
  );
}

const json = (value: unknown) => JSON.stringify(value, null, 2) ?? '';

export const paymentPage: PageAction = async (request) => {
  const reference = request.params.order_reference ?? '';
  const detail = await clientOrderDetail(request.operator.client_id, reference);
  if (!detail) throw new AppError(404, 'NOT_FOUND', 'There is no such payment order.');
  const { order, attempts, provider_events: events, transactions } = detail;
  const { links } = request;
  return {
    html: (
      <Page title={`Payment order ${order.order_reference}`} links={links} operator={request.operator} nav="payments" notice={request.notice}>
        <p>
          <a href={links.to(PAGE)}>All payment orders</a>
        </p>
        <Dl
          rows={[
            ['Partner reference', order.reference],
            ['Amount', formatAmount(order.amount_minor, order.currency)],
            ['Status', <Status status={order.status} />],
            ['Created', when(order.created_at)],
            ['Paid', when(order.paid_at)],
            ['Updated', when(order.updated_at)],
            ['Customer', [order.customer.name, order.customer.email, order.customer.phone].filter(Boolean).join(', ')],
            ['Kind', order.context_type ?? '—'],
            ['Stay', <Stay context={order.context} />],
            ['Booking', <Booking order={order} links={links} />],
            ['Provider', `${order.provider}${order.provider_account ? ` (${order.provider_account})` : ''}`],
            ['Provider reference', <code>{order.provider_reference}</code>],
            ['Payment order id', <code>{order.payment_order_id}</code>],
          ]}
        />

        <h2>Attempts</h2>
        {attempts.length === 0 ? (
          <Empty>No attempts.</Empty>
        ) : (
          <Table head={['Attempt', 'Provider', 'Provider reference', 'Outcome', 'Created', 'Updated']}>
            {attempts.map((attempt) => (
              <tr>
                <td>{attempt.attempt}</td>
                <td>{attempt.provider}</td>
                <td>
                  <code>{attempt.provider_reference}</code>
                </td>
                <td>
                  <Status status={attempt.outcome} />
                </td>
                <td>{when(attempt.created_at)}</td>
                <td>{when(attempt.updated_at)}</td>
              </tr>
            ))}
          </Table>
        )}

        <h2>Provider events</h2>
        {events.length === 0 ? (
          <Empty>No provider events.</Empty>
        ) : (
          <Table head={['At', 'Provider', 'Type', 'Data']}>
            {events.map((event) => (
              <tr>
                <td>{when(event.at)}</td>
                <td>{event.provider}</td>
                <td>{event.type}</td>
                <td>
                  <details>
                    <summary>Show data</summary>
                    <pre class="payload">{json(event.data)}</pre>
                  </details>
                </td>
              </tr>
            ))}
          </Table>
        )}

        <h2>Transactions</h2>
        {transactions.length === 0 ? (
          <Empty>No transactions.</Empty>
        ) : (
          <Table head={['At', 'Kind', 'Amount', 'Provider', 'Provider reference']}>
            {transactions.map((transaction) => (
              <tr>
                <td>{when(transaction.at)}</td>
                <td>{transaction.kind}</td>
                <td class="amount">{formatAmount(transaction.amount_minor, transaction.currency)}</td>
                <td>{transaction.provider}</td>
                <td>
                  <code>{transaction.provider_reference}</code>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Page>
    ),
  };
};
