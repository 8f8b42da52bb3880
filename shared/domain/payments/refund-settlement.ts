/**
 * Refunds the provider settles later (docs/behaviour.md "Booking changes, cancellations and
 * refunds"): a Stripe refund answered `pending`, or one that fails after it succeeded. Stripe's
 * webhook (`refund.created`, `refund.updated`, `refund.failed`, `charge.refunded`,
 * `charge.refund.updated`) only names the refund; as with payments, the service asks Stripe
 * about it again and records that answer (refunds.ts `recordProviderAnswer`).
 */
import { logger } from '../../observability';
import { getOrder } from '../../store/payment-store';
import { getRefundRecord, listRefundRecords, type RefundRecord } from '../../store/refund-store';
import { providerFor } from './providers';
import { attemptAccount } from './reconcile-payment-order';
import { driveRefund, recordProviderAnswer } from './refunds';

/** The Stripe events that may change a refund of ours. */
export const STRIPE_REFUND_EVENTS: ReadonlySet<string> = new Set(['refund.created', 'refund.updated', 'refund.failed', 'charge.refunded', 'charge.refund.updated']);

/** A refund an event names: ours by its metadata, and Stripe's id of it. */
interface RefundHint {
  orderReference: string;
  refundId?: string;
  providerRefundId?: string;
}

type StripeLike = { id?: unknown; object?: unknown; metadata?: Record<string, unknown> | null; refunds?: { data?: unknown[] } | null };

const text = (value: unknown) => (typeof value === 'string' && value.length >= 1 && value.length <= 128 ? value : undefined);

function hintOfRefund(refund: StripeLike): RefundHint | undefined {
  const orderReference = text(refund.metadata?.order_reference);
  if (!orderReference) return undefined;
  const refundId = text(refund.metadata?.refund_id);
  const providerRefundId = text(refund.id);
  return { orderReference, ...(refundId ? { refundId } : {}), ...(providerRefundId ? { providerRefundId } : {}) };
}

/** What a refund or charge event names: the refund itself, or the refunds a charge lists (else its order, from the charge's metadata). */
export function refundHints(object: unknown): RefundHint[] {
  const event = (object ?? {}) as StripeLike;
  if (event.object === 'refund') return [hintOfRefund(event)].filter((h): h is RefundHint => Boolean(h));
  if (event.object !== 'charge') return [];
  const listed = (event.refunds?.data ?? []).map((r) => hintOfRefund(r as StripeLike)).filter((h): h is RefundHint => Boolean(h));
  if (listed.length) return listed;
  const orderReference = text(event.metadata?.order_reference);
  return orderReference ? [{ orderReference }] : [];
}

/**
 * Asks the provider about the refund (or, when the event names only the order, each of its
 * refunds not yet settled) and records what it says. Returns the refunds as they now stand;
 * refunds and orders that are not the service's are ignored.
 */
export async function settleRefunds(hint: RefundHint, now = new Date()): Promise<RefundRecord[]> {
  const order = await getOrder(hint.orderReference);
  if (!order) return [];
  const refunds = hint.refundId
    ? [await getRefundRecord(order.order_reference, hint.refundId)].filter((r): r is RefundRecord => Boolean(r))
    : (await listRefundRecords(order.order_reference)).filter((r) => r.status === 'requested' || r.status === 'pending');
  const settings = await attemptAccount(order);
  const settled: RefundRecord[] = [];
  for (const refund of refunds) {
    const providerRefundId = refund.provider_refund_id ?? (hint.refundId ? hint.providerRefundId : undefined);
    if (!providerRefundId) {
      // Never answered: ask again under its own key, which answers the same refund.
      settled.push(await driveRefund(refund, now));
      continue;
    }
    const answer = await providerFor(order.provider).getRefund(providerRefundId, settings);
    if (!answer) {
      logger.warn('the provider does not know a refund of this order', { order_reference: order.order_reference, refund_id: refund.refund_id, provider_refund_id: providerRefundId });
      settled.push(refund);
      continue;
    }
    settled.push(await recordProviderAnswer(refund, answer, now));
  }
  return settled;
}

/** A Stripe refund or charge event: the refunds it names, settled. */
export async function settleStripeRefundEvent(object: unknown, now = new Date()): Promise<RefundRecord[]> {
  const settled: RefundRecord[] = [];
  for (const hint of refundHints(object)) {
    const order = await getOrder(hint.orderReference);
    if (order?.provider !== 'stripe') continue;
    settled.push(...(await settleRefunds(hint, now)));
  }
  return settled;
}
