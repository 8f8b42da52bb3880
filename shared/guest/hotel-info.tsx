/**
 * What the guest booking pages say of the hotel and its prices, where the hotel has said it
 * (client settings, and what the PMS syncs of a category): its taxes, its check-in time, its
 * cancellation policy, a category's description and amenities, in the guest's words (the
 * hotel's own texts as the hotel wrote them).
 */
import type { GuestClient, OfferedCategory } from '../domain/guest-booking/guest-bookings';
import type { Translate } from '../i18n/translator';
import type { StayPrice } from '../domain/bookings/stay-price';

/** The price rows of a stay: the room price, its taxes as an amount, and what the guest pays (stay-price.ts). */
export function priceRows(t: Translate, price: StayPrice, currency: string, nights: number): [string, string][] {
  const total = t('details.totalFor', { total: t.money(price.total, currency), nights });
  const percent = t.count(price.percent);
  if (price.taxes <= 0) return [[t('details.total'), total]];
  if (price.included) return [[t('details.total'), total], [t('price.taxesIncluded', { percent }), t.money(price.taxes, currency)]];
  return [
    [t('price.room'), t.money(price.room, currency)],
    [t('price.taxes', { percent }), t.money(price.taxes, currency)],
    [t('price.totalToPay'), total],
  ];
}

/** What the hotel says of its taxes (client setting): nothing when it has not said. */
export function taxesLine(t: Translate, client: GuestClient): string | undefined {
  if (client.tax_percent > 0) return t(client.taxes_included ? 'price.percentIncluded' : 'price.percentAdded', { percent: t.count(client.tax_percent) });
  if (client.taxes_included === undefined) return undefined;
  return client.taxes_included ? t('hotel.taxesIncluded') : t('hotel.taxesNotIncluded');
}

/** `Sat 28 Nov 2026, from 3:00 PM`: the check-in day, with the hotel's check-in time where it has one. */
export const checkInDay = (t: Translate, client: GuestClient, date: string) =>
  client.check_in_time ? t('hotel.checkInFrom', { date: t.day(date), time: t.clock(client.check_in_time) }) : t.day(date);

/** The hotel's cancellation policy (client setting); where it has none, the guest is told to ask. */
export function CancellationPolicy({ t, client }: { t: Translate; client: GuestClient }) {
  return (
    <section class="card" aria-labelledby="cancellation">
      <h2 id="cancellation">{t('hotel.policy')}</h2>
      {client.cancellation_policy ? <p class="policy">{client.cancellation_policy}</p> : <p>{t('hotel.noPolicy')}</p>}
    </section>
  );
}

/** What the PMS says of a category: its description and amenities, where it says anything. */
export function AboutCategory({ t, category, id }: { t: Translate; category: Pick<OfferedCategory, 'name' | 'description' | 'amenities'>; id: string }) {
  return (
    <>
      {category.description ? <p class="about">{category.description}</p> : null}
      {category.amenities ? (
        <ul class="amenities" aria-label={t('hotel.amenitiesOf', { category: category.name })} id={id}>
          {category.amenities.map((amenity) => (
            <li>{amenity}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** The hotel's address, as the hotel wrote it. */
export function HotelAddress({ t, client }: { t: Translate; client: GuestClient }) {
  return client.address ? (
    <>
      {t('hotel.address')}
      <br />
      <span class="address">{client.address}</span>
    </>
  ) : null;
}
