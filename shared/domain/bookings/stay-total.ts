/**
 * How a change sets a booking's total (docs/behaviour.md "Booking changes, cancellations and
 * refunds"): "Recalculate the total" (change-pricing.ts prices the new stay), "Keep the total",
 * or an amount staff give. Plain rules, no reads: the CLI's argument parsing uses them too.
 */
import { stayPrice } from './stay-price';

/** How a change sets the booking's total: recalculated from the rates, kept, or an amount (major units). */
export type TotalChoice = 'recalculate' | 'keep' | number;

/** The booking's total after the change: `keep` (or no room to price) leaves it as it was; `recalculated` is stayTotals' for the room. */
export function changedTotal(choice: TotalChoice, current: number | undefined, recalculated: number | undefined): number | undefined {
  if (typeof choice === 'number') return choice;
  if (choice === 'keep' || recalculated === undefined) return current;
  return recalculated;
}

/** A booking's money as kept: the room revenue and, beside it, the taxes the guest pays (a hotel with `tax_percent`). */
export interface StayMoney {
  total_amount?: number;
  taxes_amount?: number;
}

/** The hotel's taxes as they apply now (client settings). */
export interface TaxSettings {
  tax_percent?: number;
  taxes_included?: boolean | null;
}

/**
 * The booking's room revenue and taxes after the change. A booking that was taxed (it carries
 * `taxes_amount`) stays taxed, at the hotel's rate now: recalculated, the rates' price is the room
 * price and stay-price.ts splits it as the guest pages do (taxes added, or included); an amount
 * staff give is what the guest pays in all, the taxes being the part of it above amount / (1 +
 * rate). `keep` (or no room to price) keeps both. A booking without taxes gets none.
 */
export function changedMoney(choice: TotalChoice, booking: StayMoney, recalculated: number | undefined, taxes: TaxSettings, currency: string): StayMoney {
  const kept = { ...(booking.total_amount !== undefined ? { total_amount: booking.total_amount } : {}), ...(booking.taxes_amount ? { taxes_amount: booking.taxes_amount } : {}) };
  const amount = changedTotal(choice, booking.total_amount, recalculated);
  if (choice === 'keep' || amount === undefined || (choice === 'recalculate' && recalculated === undefined)) return kept;
  if (!booking.taxes_amount) return { total_amount: amount };
  const price = stayPrice(amount, { tax_percent: taxes.tax_percent ?? 0, taxes_included: typeof choice === 'number' ? true : taxes.taxes_included }, currency);
  return { total_amount: price.revenue, ...(price.taxes ? { taxes_amount: price.taxes } : {}) };
}

/** `--total recalculate|keep|AMOUNT` and the page's choice, read; undefined for anything else. */
export function totalChoiceOf(text: string | undefined): TotalChoice | undefined {
  const value = (text ?? '').trim();
  if (value === '' || value === 'recalculate') return 'recalculate';
  if (value === 'keep') return 'keep';
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(value)) return undefined;
  return Number(value);
}
