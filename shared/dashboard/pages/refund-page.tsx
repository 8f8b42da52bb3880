/**
 * A refund's own page (CONTRACT.md "The front desk's money and time"), opened by "Refund" on a
 * booking's or an order's page: it states the amount (what is left when none was typed), asks
 * for a reason, and refunds only when "Confirm refund" is pressed. The form carries a token, so
 * that the same confirmation sent twice makes one refund.
 */
import { randomUUID } from 'node:crypto';
import { refundOrder } from '../../domain/operator-actions/booking-changes';
import { formatAmount } from '../format';
import { Dl, ErrorSummary, Field, Page } from '../layout';
import type { PageOutcome, PageRequest } from '../page-function';
import { orderRefunds, parseRefundForm, plainAmount, REFUND_LABELS, type RefundableOrder, type RefundFormState, refundLeft, refundNotice, refundRefusal, typedAmountMinor } from './refund-form';

/** Where the refund page belongs: the page it came from, and the order it refunds. */
export interface RefundPlace {
  /** "Booking BK-…" or "Payment order PO-…". */
  subject: string;
  /** The page to go back to (and to after the refund). */
  back: string;
  /** The refund page's own path (GET shows it, POST confirms). */
  path: string;
  /** The guest, as the page names them. */
  guest?: string;
  nav: 'bookings' | 'payments';
}

/** What the page says will be refunded: the typed amount when it is one, else what is left. */
function statedAmount(order: RefundableOrder, typed: string): number {
  const minor = typed ? typedAmountMinor(typed, order.currency) : undefined;
  return minor !== undefined && minor > 0 && minor <= refundLeft(order) ? minor : refundLeft(order);
}

export function refundPage(request: PageRequest, place: RefundPlace, order: RefundableOrder, state?: RefundFormState, status?: number): PageOutcome {
  const { links } = request;
  const typed = state?.amount ?? (request.query.refund_amount ?? '').trim();
  const amount = statedAmount(order, typed);
  const left = refundLeft(order);
  return {
    ...(status ? { status } : {}),
    html: (
      <Page title="Refund" links={links} operator={request.operator} nav={place.nav} notice={request.notice}>
        <p>
          <a href={links.to(place.back)}>{place.subject}</a>
        </p>
        {state ? <ErrorSummary errors={state.errors} labels={REFUND_LABELS} /> : null}
        <Dl
          rows={[
            ...(place.guest ? [['Guest', place.guest] as const] : []),
            ['Paid', formatAmount(order.paid_minor, order.currency)],
            ['Refunded so far', formatAmount(order.refunded_minor, order.currency)],
            ['Left to refund', formatAmount(left, order.currency)],
          ]}
        />
        {left > 0 ? (
          <>
            <p>
              <strong>
                {`This refunds ${formatAmount(amount, order.currency)}${amount === left ? (order.refunded_minor > 0 ? ' (all that is left)' : ' (the whole payment)') : ''} to the guest, on the card or account they paid with.`}
              </strong>{' '}
              Nothing is refunded until you press “Confirm refund”.
            </p>
            <form method="post" action={links.to(place.path)} aria-label="Confirm refund" novalidate>
              <input type="hidden" name="refund_token" value={randomUUID()} />
              <Field
                label={`${REFUND_LABELS.refund_amount} (${order.currency})`}
                name="refund_amount"
                value={typed ? typed : plainAmount(amount, order.currency)}
                error={state?.errors.refund_amount}
                hint={`At most ${formatAmount(left, order.currency)}.`}
              />
              <Field label={REFUND_LABELS.refund_reason} name="refund_reason" value={state?.reason ?? ''} error={state?.errors.refund_reason} hint="Kept with the refund, for your hotel." />
              <div class="actions">
                <button type="submit" name="confirm" value="yes">
                  Confirm refund
                </button>
                <a href={links.to(place.back)}>Do not refund</a>
              </div>
            </form>
          </>
        ) : (
          <p>Everything paid has been refunded: there is nothing left to refund.</p>
        )}
      </Page>
    ),
  };
}

/**
 * "Confirm refund": the refund made (refundOrder, audited) and the desk sent back with a notice,
 * or the page again with what is wrong. A post without the confirmation refunds nothing.
 */
export async function confirmRefund(request: PageRequest, place: RefundPlace, order: RefundableOrder): Promise<PageOutcome> {
  if (request.form.get('confirm') !== 'yes') return refundPage(request, place, order, { amount: (request.form.get('refund_amount') ?? '').trim(), reason: request.form.get('refund_reason') ?? '', errors: {} });
  const parsed = parseRefundForm(request, order);
  if (!parsed.ok) return refundPage(request, place, order, parsed.state, 400);
  try {
    const refund = await refundOrder(request.operator, order.order_reference, parsed.input, request.now);
    return { redirect: place.back, notice: refundNotice(refund) };
  } catch (error) {
    const state = refundRefusal(error, order, { amount: request.form.get('refund_amount') ?? '', reason: request.form.get('refund_reason') ?? '' });
    if (!state) throw error;
    // The order as it is now (a refund may just have been made).
    return refundPage(request, place, (await orderRefunds(request.operator.client_id, order.order_reference))?.order ?? order, state, state.errors.form ? 409 : 400);
  }
}
