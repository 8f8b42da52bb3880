/**
 * How a change sets a booking's total (docs/behaviour.md "Booking changes, cancellations and
 * refunds"): "Recalculate the total" (change-pricing.ts prices the new stay), "Keep the total",
 * or an amount staff give. Plain rules, no reads: the CLI's argument parsing uses them too.
 */

/** How a change sets the booking's total: recalculated from the rates, kept, or an amount (major units). */
export type TotalChoice = 'recalculate' | 'keep' | number;

/** The booking's total after the change: `keep` (or no room to price) leaves it as it was; `recalculated` is stayTotals' for the room. */
export function changedTotal(choice: TotalChoice, current: number | undefined, recalculated: number | undefined): number | undefined {
  if (typeof choice === 'number') return choice;
  if (choice === 'keep' || recalculated === undefined) return current;
  return recalculated;
}

/** `--total recalculate|keep|AMOUNT` and the page's choice, read; undefined for anything else. */
export function totalChoiceOf(text: string | undefined): TotalChoice | undefined {
  const value = (text ?? '').trim();
  if (value === '' || value === 'recalculate') return 'recalculate';
  if (value === 'keep') return 'keep';
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(value)) return undefined;
  return Number(value);
}
