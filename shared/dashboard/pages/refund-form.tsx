/**
 * "Refund" for a paid order, on its Payments page and on its booking's page: an amount in the
 * order's currency as people write it (none: what is left) and a reason, posted with a token the
 * form carries so that the same form sent twice makes one refund. Refusals come back beside the
 * field they concern (GOV.UK pattern), what was typed kept. Also the amounts people type, and the
 * refunds an order has had, in words.
 */
import { refundViewsOf } from '../../domain/payments/refunds';
import { AppError } from '../../errors';
import { minorUnits } from '../../schemas/payments';
import { getOrder } from '../../store/payment-store';
import { REFUNDABLE_STATUSES } from '../../store/refund-store';
import { formatAmount, formatTime, inWords } from '../format';
import { Empty, Field, type Links, Table } from '../layout';
import type { PageRequest } from '../page-function';

/** The longest reason kept with a refund or a cancellation, in characters. */
export const MAX_REASON = 500;

/** What an order was paid and has had refunded (minor units). */
export interface RefundableOrder {
  order_reference: string;
  currency: string;
  paid_minor: number;
  /** Refunds that succeeded. */
  refunded_minor: number;
  /** Refunds succeeded or still with the provider: what can no longer be refunded. @default refunded_minor */
  reserved_minor?: number;
}

/** What is left to refund: what was paid, less every refund made or under way. */
export const refundLeft = (order: RefundableOrder) => Math.max(0, order.paid_minor - Math.max(order.refunded_minor, order.reserved_minor ?? 0));

/** A refund as the order's pages list it. */
export interface RefundLine {
  created_at: string;
  amount_minor: number;
  currency: string;
  status: string;
  reason?: string;
}

/**
 * A paid order of the client with what it has had refunded and its refunds; undefined for an
 * order that was never paid (nothing to refund) and for none of the client's.
 */
export async function orderRefunds(clientId: string, orderReference: string): Promise<{ order: RefundableOrder; refunds: RefundLine[] } | undefined> {
  const order = await getOrder(orderReference);
  if (!order || order.client_id !== clientId || !REFUNDABLE_STATUSES.includes(order.status)) return undefined;
  return {
    order: {
      order_reference: order.order_reference,
      currency: order.currency,
      paid_minor: order.amount_minor,
      refunded_minor: order.amount_refunded_minor ?? 0,
      reserved_minor: order.refunds_reserved_minor ?? 0,
    },
    refunds: await refundViewsOf(order),
  };
}

export interface RefundFormState {
  amount: string;
  reason: string;
  errors: { refund_amount?: string; refund_reason?: string; form?: string };
}

export const REFUND_LABELS = { refund_amount: 'Amount to refund', refund_reason: 'Reason for the refund' } as const;

/**
 * An amount typed in major units ("50", "50.5", "1,250.00") in minor units; undefined when it is
 * not one (a negative, too many decimals for the currency, not a number).
 */
export function typedAmountMinor(typed: string, currency: string): number | undefined {
  const digits = minorUnits(currency);
  const plain = typed.replace(/[\s,]/g, '');
  const match = /^(\d{1,13})(?:\.(\d*))?$/.exec(plain);
  if (!match || (match[2] ?? '').length > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
}

/** The amount in the form's words, without its currency: 24000 USD is "240.00". */
export const plainAmount = (amountMinor: number, currency: string) => formatAmount(amountMinor, currency).replace(` ${currency}`, '').replace(/,/g, '');

const typedReason = (request: PageRequest, name: string) => (request.form.get(name) ?? '').replace(/\r\n?/g, '\n').trim();

/** The refund the form asks for, or what is wrong with it. */
export function parseRefundForm(
  request: PageRequest,
  order: RefundableOrder,
): { ok: true; input: { amount_minor?: number; reason?: string; idempotencyKey?: string } } | { ok: false; state: RefundFormState } {
  const amount = (request.form.get('refund_amount') ?? '').trim();
  const reason = typedReason(request, 'refund_reason');
  const errors: RefundFormState['errors'] = {};
  const left = refundLeft(order);
  let amountMinor: number | undefined;
  if (amount) {
    amountMinor = typedAmountMinor(amount, order.currency);
    if (amountMinor === undefined || amountMinor < 1) errors.refund_amount = `Enter an amount in ${order.currency}, such as ${plainAmount(Math.min(left, 5000) || 5000, order.currency)}`;
    else if (amountMinor > left) errors.refund_amount = `Enter at most ${formatAmount(left, order.currency)}: that is what is left to refund`;
  }
  if (reason.length > MAX_REASON) errors.refund_reason = `Shorten the reason to ${MAX_REASON} characters or fewer (it has ${reason.length})`;
  if (Object.keys(errors).length) return { ok: false, state: { amount, reason, errors } };
  const token = request.form.get('refund_token') ?? '';
  return {
    ok: true,
    input: {
      ...(amountMinor !== undefined ? { amount_minor: amountMinor } : {}),
      ...(reason ? { reason } : {}),
      ...(/^[0-9a-f-]{36}$/.test(token) ? { idempotencyKey: `dashboard:${token}` } : {}),
    },
  };
}

/** A refusal of the refund, beside its field; undefined for an error that is not a refusal. */
export function refundRefusal(error: unknown, order: RefundableOrder, typed: { amount: string; reason: string }): RefundFormState | undefined {
  if (!(error instanceof AppError) || error.status >= 500 || error.code === 'NOT_FOUND') return undefined;
  const left = formatAmount(refundLeft(order), order.currency);
  const errors: RefundFormState['errors'] =
    error.code === 'REFUND_EXCEEDS_PAYMENT'
      ? { refund_amount: `Enter at most ${left}: that is what is left to refund (a refund may just have been made)` }
      : error.code === 'INVALID_AMOUNT'
        ? { refund_amount: `Enter an amount in ${order.currency} of at most ${left}` }
        : error.code === 'ORDER_NOT_PAID'
          ? { form: 'This order is not paid, or is already refunded in full: there is nothing to refund' }
          : { form: `The refund was not made: ${error.message}` };
  return { ...typed, errors };
}

/** The notice after a refund: made, or asked of the provider and not yet confirmed. */
export function refundNotice(refund: { amount_minor: number; currency: string; status: string }): { kind: 'success' | 'error'; message: string } {
  const amount = formatAmount(refund.amount_minor, refund.currency);
  if (refund.status === 'succeeded') return { kind: 'success', message: `Refunded ${amount}.` };
  if (refund.status === 'pending') return { kind: 'success', message: `Refund of ${amount} asked for: the payment provider has not confirmed it yet.` };
  return { kind: 'error', message: `The refund of ${amount} failed at the payment provider: nothing was refunded.` };
}

/**
 * "Refund" on a booking's or an order's page: a GET form (an amount, optional) that opens the
 * refund's own page (./refund-page.tsx). Nothing is refunded from here.
 */
export function RefundForm({ links, action, order }: { links: Links; action: string; order: RefundableOrder }) {
  const left = formatAmount(refundLeft(order), order.currency);
  return (
    <form method="get" action={links.to(action)} aria-label="Refund" novalidate>
      <Field
        label={`${REFUND_LABELS.refund_amount} (${order.currency})`}
        name="refund_amount"
        value=""
        hint={`Leave it empty to refund what is left: ${left}. You confirm the refund on the next page.`}
      />
      <button type="submit">Refund</button>
    </form>
  );
}

/** What was refunded and each refund with its state, newest first. */
export function RefundsList({ refunds, order, zone }: { refunds: readonly RefundLine[]; order: RefundableOrder; zone: string }) {
  if (refunds.length === 0) return <Empty>No refunds.</Empty>;
  return (
    <>
      <p>
        Refunded {formatAmount(order.refunded_minor, order.currency)} of {formatAmount(order.paid_minor, order.currency)} paid.
      </p>
      <Table head={['At', 'Amount', 'Status', 'Reason']}>
        {[...refunds]
          .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
          .map((refund) => (
            <tr>
              <td>{formatTime(zone, refund.created_at)}</td>
              <td class="amount">{formatAmount(refund.amount_minor, refund.currency)}</td>
              <td>
                <span class={`status-${refund.status === 'succeeded' ? 'paid' : refund.status}`}>{refund.status === 'succeeded' ? 'Refunded' : inWords(refund.status)}</span>
              </td>
              <td>{refund.reason ?? '—'}</td>
            </tr>
          ))}
      </Table>
    </>
  );
}
