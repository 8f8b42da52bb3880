/** How the dashboard writes amounts and times for people. */
import { majorAmount, minorUnits } from '../schemas/payments';

/** An amount in minor units as people write it: 24000 USD is "240.00 USD", 5000 JPY "5,000 JPY". */
export function formatAmount(amountMinor: number, currency: string): string {
  const digits = minorUnits(currency);
  const major = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(majorAmount(amountMinor, currency));
  return `${major} ${currency}`;
}

/** `2026-11-23 09:10:07 UTC` from an ISO timestamp; `none` (a dash) for none. */
export function formatTime(iso: string | null | undefined, none = '—'): string {
  return iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : none;
}
