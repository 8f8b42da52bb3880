/**
 * Payments: the client's payment orders newest first, and one order with its whole history
 * (attempts, provider events, transactions), amounts with their currency and statuses in words.
 * An order the guest booking page made is named by its stay, never by its internal `guest:`
 * reference; a paid room booking's page names the room its booking has now. A paid order shows
 * what was refunded and each refund, and "Refund" while something is left (./refund-form.tsx).
 * Another client's order is as absent as a missing one (404): clientOrderDetail answers neither.
 */
import { bookingRoom } from '../../domain/bookings/room-names';
import { isGuestPageOrder } from '../../schemas/payments';
import { bookingOfStay } from '../../domain/payments/stay-orders';
import { clientOrderDetail, listClientOrders, type OrderDetailView, type OrderSummary } from '../../domain/payments/list-orders';
import { errors } from '../../errors';
import { nightsBetween } from '../../schemas/common';
import { formatAmount, formatDate, formatTime, inWords } from '../format';
import { hotelZone } from '../hotel-zone';
import { Dl, Empty, type Links, Page, Pager, Table } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { roomName } from './booking-history';
import { orderRefunds, RefundForm, refundLeft, RefundsList } from './refund-form';
import { confirmRefund, type RefundPlace, refundPage } from './refund-page';

const PAGE = '/dashboard/payments';
const PAGE_SIZE = 50;

const limitOf = (query: Record<string, string>) => (query.limit === undefined || query.limit === '' ? PAGE_SIZE : Number(query.limit));
const orderPath = (orderReference: string) => `${PAGE}/${encodeURIComponent(orderReference)}`;
const refundsPath = (orderReference: string) => `${orderPath(orderReference)}/refunds`;

const Status = ({ status }: { status: string }) => <span class={`status-${status}`}>{inWords(status)}</span>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2027-11-10 to 2027-11-12, 2 nights, 2 guests". */
function stayWords(stay: NonNullable<OrderSummary['stay']>): string {
  const nights = nightsBetween(stay.check_in_date, stay.check_out_date);
  return [`${formatDate(stay.check_in_date)} to ${formatDate(stay.check_out_date)}`, plural(nights, 'night', 'nights'), stay.guests ? plural(stay.guests, 'guest', 'guests') : ''].filter(Boolean).join(', ');
}

/** What the order pays for, as the hotel knows it: a stay (from its booking page or a partner), or the partner's reference. */
function paysFor(order: OrderSummary): string {
  const from = isGuestPageOrder({ external_reference: order.reference }) ? 'your booking page' : `reference ${order.reference}`;
  if (order.stay) return `Room booking: ${stayWords(order.stay)} (${from})`;
  return isGuestPageOrder({ external_reference: order.reference }) ? 'Your booking page' : order.reference;
}

export const paymentsPage: PageAction = async (request) => {
  const { links, query } = request;
  const [page, zone] = await Promise.all([listClientOrders(request.operator.client_id, { limit: limitOf(query), cursor: query.cursor || undefined }), hotelZone(request.operator.client_id)]);
  const when = (iso: string | null | undefined) => formatTime(zone, iso);
  return {
    html: (
      <Page title="Payments" links={links} operator={request.operator} nav="payments" notice={request.notice}>
        <p class="muted">Payment orders created with your payment keys and the guest booking page, newest first.</p>
        <h2>Payment orders</h2>
        {page.orders.length === 0 ? (
          <Empty>No payment orders yet.</Empty>
        ) : (
          <Table head={['Order reference', 'For', 'Amount', 'Status', 'Created', 'Paid', 'Guest']}>
            {page.orders.map((order) => (
              <tr>
                <td>
                  <a href={links.to(orderPath(order.order_reference))}>
                    <code>{order.order_reference}</code>
                  </a>
                </td>
                <td>{paysFor(order)}</td>
                <td class="amount">{formatAmount(order.amount_minor, order.currency)}</td>
                <td>
                  <Status status={order.status} />
                </td>
                <td>{when(order.created_at)}</td>
                <td>{when(order.paid_at)}</td>
                <td>{order.customer_name ? `${order.customer_name} (${order.customer_email})` : order.customer_email}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager links={links} path={PAGE} query={{ limit: query.limit || undefined }} cursor={page.next_cursor} />
      </Page>
    ),
  };
};

/**
 * The booking a paid order became (a room booking), linked to its page; for an order that made
 * none (declined, expired), the booking its stay has since (`stayBooking`: paid on another order).
 */
function Booking({ order, links, stayBooking }: { order: OrderDetailView; links: Links; stayBooking: string | undefined }) {
  const sync = order.booking_sync;
  if (sync.status === 'failed') return <>the booking could not be recorded</>;
  if (!sync.booking_id) {
    return stayBooking ? <a href={links.to(`/dashboard/bookings/${encodeURIComponent(stayBooking)}`)}>Open the booking (paid on another order)</a> : <>—</>;
  }
  return (
    <>
      <a href={links.to(`/dashboard/bookings/${encodeURIComponent(sync.booking_id)}`)}>{sync.booking_reference ?? 'Open the booking'}</a>
      {sync.confirmation_code ? ` (confirmation code ${sync.confirmation_code})` : ''}
    </>
  );
}

const json = (value: unknown) => JSON.stringify(value, null, 2) ?? '';

/** The provider's event type in words: `payment.paid` is "payment paid". */
const eventWords = (type: string) => type.replace(/[._]/g, ' ');

const ATTEMPT_OUTCOMES: Record<string, string> = { open: 'Open', paid: 'Paid', failed: 'Declined', cancelled: 'Cancelled', expired: 'Expired' };
const TRANSACTION_KINDS: Record<string, string> = { payment: 'Payment', refund: 'Refund' };

/** The client's order of the path, with its history; 404 for none and for another client's. */
async function orderOf(request: PageRequest) {
  const detail = await clientOrderDetail(request.operator.client_id, request.params.order_reference ?? '');
  if (!detail) throw errors.noSuchPaymentOrder();
  return detail;
}

async function paymentView(request: PageRequest, detail: Awaited<ReturnType<typeof orderOf>>): Promise<PageOutcome> {
  const clientId = request.operator.client_id;
  const { order, attempts, provider_events: events, transactions } = detail;
  // The room is the booking's as it is now (staff may have assigned one since it was paid), not the order's record of how it was paid.
  const stay = { context: order.context ?? undefined, customer: { email: order.customer.email } };
  const [booking, refunded, zone, stayBooking] = await Promise.all([
    order.booking_sync.booking_id ? bookingRoom(clientId, order.booking_sync.booking_id) : undefined,
    orderRefunds(clientId, order.order_reference),
    hotelZone(clientId),
    order.booking_sync.booking_id ? undefined : bookingOfStay(clientId, { order_reference: order.order_reference, ...stay }),
  ]);
  const when = (iso: string | null | undefined) => formatTime(zone, iso);
  const refundable = refunded?.order;
  const fromBookingPage = isGuestPageOrder({ external_reference: order.reference });
  const { links } = request;
  return {
    html: (
      <Page title={`Payment order ${order.order_reference}`} links={links} operator={request.operator} nav="payments" notice={request.notice}>
        <p>
          <a href={links.to(PAGE)}>All payment orders</a>
        </p>
        <Dl
          rows={[
            fromBookingPage ? ['Made on', 'Your booking page'] : ['Partner reference', order.reference],
            ['Amount', formatAmount(order.amount_minor, order.currency)],
            ['Status', <Status status={order.status} />],
            ...(refundable ? [['Refunded', formatAmount(refundable.refunded_minor, order.currency)] as const] : []),
            ['Created', when(order.created_at)],
            ['Paid', when(order.paid_at)],
            ['Updated', when(order.updated_at)],
            ['Customer', [order.customer.name, order.customer.email, order.customer.phone].filter(Boolean).join(', ')],
            ['For', order.stay ? `Room booking: ${stayWords(order.stay)}` : order.context_type ? inWords(order.context_type) : '—'],
            ['Booking', <Booking order={order} links={links} stayBooking={stayBooking} />],
            ...(booking ? [['Room', booking.room ? roomName(booking.room) : booking.awaiting_room ? 'Awaiting a room' : 'No room'] as const] : []),
            ['Provider', `${inWords(order.provider)}${order.provider_account ? ` (${order.provider_account})` : ''}`],
            ['Provider reference', <code>{order.provider_reference}</code>],
          ]}
        />

        {refundable ? (
          <>
            <h2>Refunds</h2>
            <RefundsList refunds={refunded.refunds} order={refundable} zone={zone} />
            {refundLeft(refundable) > 0 ? <RefundForm links={links} action={refundsPath(order.order_reference)} order={refundable} /> : null}
          </>
        ) : null}

        <h2>Attempts</h2>
        {attempts.length === 0 ? (
          <Empty>No attempts.</Empty>
        ) : (
          <Table head={['Attempt', 'Provider', 'Provider reference', 'Outcome', 'Created', 'Updated']}>
            {attempts.map((attempt) => (
              <tr>
                <td>{attempt.attempt}</td>
                <td>{inWords(attempt.provider)}</td>
                <td>
                  <code>{attempt.provider_reference}</code>
                </td>
                <td>
                  <span class={`status-${attempt.outcome}`}>{ATTEMPT_OUTCOMES[attempt.outcome] ?? inWords(attempt.outcome)}</span>
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
          <Table head={['At', 'Provider', 'Event', 'Data']}>
            {events.map((event) => (
              <tr>
                <td>{when(event.at)}</td>
                <td>{inWords(event.provider)}</td>
                <td>{eventWords(event.type)}</td>
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
                <td>{TRANSACTION_KINDS[transaction.kind] ?? inWords(transaction.kind)}</td>
                <td class="amount">{formatAmount(transaction.amount_minor, transaction.currency)}</td>
                <td>{inWords(transaction.provider)}</td>
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
}

export const paymentPage: PageAction = async (request) => paymentView(request, await orderOf(request));

/** The order's refund page's place, and the order as it can be refunded; undefined for an order not paid. */
async function orderRefund(request: PageRequest) {
  const detail = await orderOf(request);
  const order = (await orderRefunds(request.operator.client_id, detail.order.order_reference))?.order;
  const path = orderPath(detail.order.order_reference);
  const place: RefundPlace = { subject: `Payment order ${detail.order.order_reference}`, back: path, path: refundsPath(detail.order.order_reference), guest: detail.order.customer.name ?? detail.order.customer.email, nav: 'payments' };
  return { order, place };
}

const NOT_PAID = { kind: 'error', message: 'This order is not paid: there is nothing to refund.' } as const;

/** "Refund" on the order's page opens this page: the amount, a reason, "Confirm refund". */
export const refundPaymentPage: PageAction = async (request) => {
  const { order, place } = await orderRefund(request);
  if (!order) return { redirect: place.back, notice: NOT_PAID };
  return refundPage(request, place, order);
};

/** "Confirm refund": refunded (refundOrder, audited), or the page back with the refusal beside its field. */
export const refundPayment: PageAction = async (request) => {
  const { order, place } = await orderRefund(request);
  if (!order) return { redirect: place.back, notice: NOT_PAID };
  return confirmRefund(request, place, order);
};
