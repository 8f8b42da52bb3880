/** What partners, staff and the status lookup see of an order's refunds. */
import type { PaymentOrderRecord } from '../../store/payment-store';
import { listRefundRecords, type RefundRecord } from '../../store/refund-store';

export interface RefundView {
  refund_id: string;
  amount_minor: number;
  currency: string;
  status: 'succeeded' | 'pending' | 'failed';
  created_at: string;
  reason?: string;
}

/** What partners, staff and the status lookup see of a refund (one in flight is `pending`). */
export function refundView(refund: RefundRecord): RefundView {
  return {
    refund_id: refund.refund_id,
    amount_minor: refund.amount_minor,
    currency: refund.currency,
    status: refund.status === 'requested' ? 'pending' : refund.status,
    created_at: refund.created_at,
    ...(refund.reason ? { reason: refund.reason } : {}),
  };
}

/** A refund as the API answers it: the refund route's body, and each of the status lookup's `refunds`. */
export function refundCreatedView(refund: RefundView) {
  return { refund_id: refund.refund_id, amount_minor: refund.amount_minor, currency: refund.currency, status: refund.status, created_at: refund.created_at };
}

/** The order's refunds as the status lookup shows them, oldest first (none read for an order never refunded). */
export async function refundViewsOf(order: PaymentOrderRecord): Promise<RefundView[]> {
  if (order.refunds_reserved_minor === undefined) return [];
  return (await listRefundRecords(order.order_reference)).map(refundView);
}

