/**
 * What a changed stay costs (CONTRACT.md "The front desk's money and time": "Change" prices the
 * new stay, "Recalculate the total", or keeps it, "Keep the total", or takes an amount staff give).
 * The one function the Change page, `ops bookings modify --total` and the booking.modified event
 * price a stay with: nights x the room's price per night (the rates of issue 40 are to replace
 * the per-night price here, and only here).
 */
import { nightsBetween } from '../../schemas/common';

/** How a change sets the booking's total: recalculated from the room's price, kept, or an amount (major units). */
export type TotalChoice = 'recalculate' | 'keep' | number;

/** The stay's total from the room's price per night, rounded to cents. */
export function stayTotal(room: { price: number }, stay: { check_in_date: string; check_out_date: string }): number {
  return Math.round(room.price * nightsBetween(stay.check_in_date, stay.check_out_date) * 100) / 100;
}

/** The booking's total after the change: `keep` (or no room to price) leaves it as it was. */
export function changedTotal(choice: TotalChoice, current: number | undefined, room: { price: number } | undefined, stay: { check_in_date: string; check_out_date: string }): number | undefined {
  if (typeof choice === 'number') return choice;
  if (choice === 'keep' || !room) return current;
  return stayTotal(room, stay);
}

/** `--total recalculate|keep|AMOUNT` and the page's choice, read; undefined for anything else. */
export function totalChoiceOf(text: string | undefined): TotalChoice | undefined {
  const value = (text ?? '').trim();
  if (value === '' || value === 'recalculate') return 'recalculate';
  if (value === 'keep') return 'keep';
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(value)) return undefined;
  return Number(value);
}
