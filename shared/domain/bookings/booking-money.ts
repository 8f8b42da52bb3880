/**
 * What a booking owes, as the front desk reads it (CONTRACT.md "The front desk's money and
 * time"): its money state in one word ("Paid", "Partly refunded", "Refunded", "Unpaid", "Pay at
 * the hotel") and its balance due: the total (with its taxes) less what was paid and not refunded
 * (0 for a cancelled booking). The one computation every page (booking, Bookings list, Overview) uses.
 */
import { majorAmount } from '../../schemas/payments';
import type { PaymentOrderRecord } from '../../store/payment-store';

export type MoneyState = 'paid' | 'partly_refunded' | 'refunded' | 'unpaid' | 'pay_at_property' | 'partly_paid';

export const MONEY_WORDS: Record<MoneyState, string> = {
  paid: 'Paid',
  partly_refunded: 'Partly refunded',
  refunded: 'Refunded',
  unpaid: 'Unpaid',
  pay_at_property: 'Pay at the hotel',
  partly_paid: 'Partly paid',
};

/** The booking fields the money depends on. */
export interface MoneyBooking {
  status: string;
  payment_status: string;
  payment_method?: string | null;
  total_amount?: number | null;
  /** The taxes the guest pays beside `total_amount` (a hotel with `tax_percent`). */
  taxes_amount?: number | null;
}

/** The order's paid and refunded amounts (minor units), when it was paid online. */
export type MoneyOrder = Pick<PaymentOrderRecord, 'status' | 'amount_minor' | 'currency' | 'amount_refunded_minor'>;

export interface BookingMoney {
  state: MoneyState;
  words: string;
  /** Paid and not refunded, major units of the booking's currency. */
  held: number;
  /** What the guest pays: the total with its taxes. Major units. */
  owed: number;
  /** The total less what is held; 0 for a cancelled booking. Major units; never below 0. */
  balance_due: number;
}

const PAID_ORDER = new Set(['paid', 'partially_refunded', 'refunded']);

/** Rounded to the currency's minor units' precision (two decimals at most for the totals we keep). */
const round = (amount: number) => Math.round(amount * 100) / 100;

export function bookingMoney(booking: MoneyBooking, order?: MoneyOrder | null): BookingMoney {
  // The room revenue with the taxes the guest was charged or told (stay-price.ts).
  const total = round((booking.total_amount ?? 0) + (booking.taxes_amount ?? 0));
  const paidOrder = order && PAID_ORDER.has(order.status) ? order : undefined;
  const refundedMinor = paidOrder?.amount_refunded_minor ?? 0;
  const heldMinor = paidOrder ? Math.max(0, paidOrder.amount_minor - refundedMinor) : 0;
  let state: MoneyState;
  let held: number;
  if (paidOrder) {
    held = majorAmount(heldMinor, paidOrder.currency);
    state = refundedMinor === 0 ? 'paid' : heldMinor === 0 ? 'refunded' : 'partly_refunded';
  } else {
    // Paid elsewhere (the PMS says so), or not paid at all.
    const status = booking.payment_status;
    held = status === 'paid' ? total : 0;
    state =
      status === 'paid' ? 'paid' : status === 'refunded' ? 'refunded' : status === 'partially_paid' ? 'partly_paid' : booking.payment_method === 'pay_at_property' ? 'pay_at_property' : 'unpaid';
  }
  const balance = booking.status === 'cancelled' ? 0 : Math.max(0, round(total - held));
  return { state, words: MONEY_WORDS[state], held, owed: total, balance_due: balance };
}

/** The money of many bookings at once (a list's page): their orders read in one batch. */
export async function bookingsMoney<B extends MoneyBooking & { payment_order_reference?: string | null }>(bookings: readonly B[]): Promise<Map<B, BookingMoney>> {
  // Read when needed: the operator CLI presents bookingMoney without loading the stores.
  const { getOrders } = await import('../../store/payment-store');
  const references = [...new Set(bookings.map((b) => b.payment_order_reference).filter((r): r is string => !!r))];
  const orders = await getOrders(references);
  return new Map(bookings.map((b) => [b, bookingMoney(b, b.payment_order_reference ? orders.get(b.payment_order_reference) : undefined)]));
}
