/** How the dashboard writes amounts and times for people. */
import { minorUnits } from '../schemas/payments';

/** `259.00 EUR` from 25900 minor units (the currency's own decimals: JPY none, KWD three). */
export function formatMinor(amountMinor: number, currency: string): string {
  const digits = minorUnits(currency);
  return `${(amountMinor / 10 ** digits).toFixed(digits)} ${currency}`;
}

/** `2026-11-23 09:10 UTC` from an ISO timestamp; `—` for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
