/** A stay's price: what the booking page shows and what the rate check of paid orders compares. */
import { minorUnits } from '../../schemas/payments';

/** Price x nights, rounded to the currency's minor unit. */
export function stayTotal(price: number, nights: number, currency: string): number {
  const scale = 10 ** minorUnits(currency);
  return Math.round(price * nights * scale) / scale;
}

/** A decimal amount of `currency` in its minor units (120.5 USD: 12050). */
export function toMinorUnits(amount: number, currency: string): number {
  return Math.round(amount * 10 ** minorUnits(currency));
}
