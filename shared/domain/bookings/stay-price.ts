/**
 * What a guest pays for a stay (docs/behaviour.md "The guest's booking page as a storefront"):
 * the room price, the taxes as an amount and the total, from the client's `tax_percent` and
 * `taxes_included`. One computation behind the details page, the confirmation page and e-mail,
 * the checkout's amount and line items, and the room revenue reports and the below-rate check
 * use (the price without taxes). Rounded in the currency's minor units (JPY: whole yen).
 */
import { majorAmount, minorUnits } from '../../schemas/payments';

export interface StayPrice {
  /** The room price as sold (the rate's or price x nights); with taxes included, the taxes are part of it. */
  room: number;
  /** The taxes as an amount: added to `room`, or the part of it that is taxes when included. */
  taxes: number;
  /** What the guest pays. */
  total: number;
  /** The room revenue: the price without taxes. */
  revenue: number;
  /** Whether `taxes` are included in `room` (else added to it). */
  included: boolean;
  percent: number;
}

/** The stay's figures for a room price of `room` (major units of `currency`). */
export function stayPrice(room: number, taxes: { tax_percent: number; taxes_included?: boolean | null }, currency: string): StayPrice {
  const scale = 10 ** minorUnits(currency);
  const roomMinor = Math.round(room * scale);
  const percent = taxes.tax_percent > 0 ? taxes.tax_percent : 0;
  const included = taxes.taxes_included === true;
  // Included: the taxes are the part of the price above price / (1 + rate); else the rate of the price.
  const taxesMinor = percent === 0 ? 0 : included ? roomMinor - Math.round((roomMinor * 100) / (100 + percent)) : Math.round((roomMinor * percent) / 100);
  const totalMinor = included ? roomMinor : roomMinor + taxesMinor;
  return {
    room: majorAmount(roomMinor, currency),
    taxes: majorAmount(taxesMinor, currency),
    total: majorAmount(totalMinor, currency),
    revenue: majorAmount(totalMinor - taxesMinor, currency),
    included,
    percent,
  };
}

/** The taxes in minor units of a paid amount whose order says them (a guest page's order): the room revenue is the rest. */
export function revenueMinor(order: { amount_minor: number; context?: { taxes_minor?: number } }): number {
  return order.amount_minor - Math.min(order.context?.taxes_minor ?? 0, order.amount_minor);
}
