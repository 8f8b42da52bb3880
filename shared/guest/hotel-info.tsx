/**
 * What the guest booking pages say of the hotel and its prices, where the hotel has said it
 * (client settings, and what the PMS syncs of a category): amounts in its currency, its taxes,
 * its check-in time, its cancellation policy, a category's description and amenities.
 */
import type { GuestClient, OfferedCategory } from '../domain/guest-booking/guest-bookings';
import { formatPrice } from '../dashboard/format';
import type { StayPrice } from '../domain/bookings/stay-price';
import { day } from './emails';

/** `1,240.50 EUR`: an amount in the currency's major units, with its own decimals. */
export function money(amount: number, currency: string): string {
  return formatPrice(amount, currency);
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The price rows of a stay: the room price, its taxes as an amount, and what the guest pays (stay-price.ts). */
export function priceRows(price: StayPrice, currency: string, nights: number): [string, string][] {
  const total = `${money(price.total, currency)} for ${plural(nights, 'night')}`;
  if (price.taxes <= 0) return [['Total', total]];
  if (price.included) return [['Total', total], [`Taxes included (${price.percent}%)`, money(price.taxes, currency)]];
  return [
    ['Room price', money(price.room, currency)],
    [`Taxes (${price.percent}%)`, money(price.taxes, currency)],
    ['Total to pay', total],
  ];
}

/** What the hotel says of its taxes (client setting): nothing when it has not said. */
export function taxesLine(client: GuestClient): string | undefined {
  if (client.tax_percent > 0) return client.taxes_included ? `Taxes (${client.tax_percent}%) included` : `Plus taxes (${client.tax_percent}%), shown before you pay`;
  if (client.taxes_included === undefined) return undefined;
  return client.taxes_included ? 'Taxes included' : 'Taxes not included';
}

/** `Sat 28 Nov 2026, from 15:00`: the check-in day, with the hotel's check-in time where it has one. */
export const checkInDay = (client: GuestClient, date: string) => (client.check_in_time ? `${day(date)}, from ${client.check_in_time}` : day(date));

/** The hotel's cancellation policy (client setting); where it has none, the guest is told to ask. */
export function CancellationPolicy({ client }: { client: GuestClient }) {
  return (
    <section class="card" aria-labelledby="cancellation">
      <h2 id="cancellation">Cancellation policy</h2>
      {client.cancellation_policy ? (
        <p class="policy">{client.cancellation_policy}</p>
      ) : (
        <p>The hotel has not published a cancellation policy here. Please ask the hotel about cancelling before you pay.</p>
      )}
    </section>
  );
}

/** What the PMS says of a category: its description and amenities, where it says anything. */
export function AboutCategory({ category, id }: { category: OfferedCategory; id: string }) {
  return (
    <>
      {category.description ? <p class="about">{category.description}</p> : null}
      {category.amenities ? (
        <ul class="amenities" aria-label={`Amenities: ${category.name}`} id={id}>
          {category.amenities.map((amenity) => (
            <li>{amenity}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
