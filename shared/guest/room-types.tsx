/**
 * The room types as the guest pages show them (docs/behaviour.md "The guest's booking page as a
 * storefront"): each type once, with its picture, what the PMS says of it, and what it costs:
 * on the results, the price a night, the stay's total and how many are left (3 or fewer); on the
 * landing page, the "from" price. Pictures carry their size (no layout shift) and their text, and
 * load lazily below the first.
 */
import type { GuestClient, OfferedCategory, RoomSearch, ShowcaseType, StayQuery } from '../domain/guest-booking/guest-bookings';
import type { Translate } from '../i18n/translator';
import { AboutCategory, taxesLine } from './hotel-info';
import { offerValue, type Request } from './page-forms';
import { bookPath } from './urls';

/** "2 left" shows from this many free rooms of a type down. */
export const FEW_LEFT = 3;

/** A type's picture: 16:9, the width of the card. */
export function TypeImage({ url, name, eager }: { url?: string; name: string; eager?: boolean }) {
  if (!url) return null;
  return <img class="type-image" src={url} alt={name} width={640} height={360} loading={eager ? 'eager' : 'lazy'} decoding="async" />;
}

function TypeOffer({ t, category, currency, nights, id }: { t: Translate; category: OfferedCategory; currency: string; nights: number; id: string }) {
  const room = category.rooms[0]!;
  const max = Math.max(...category.rooms.map((r) => r.max_occupancy));
  if (room.plans) {
    return (
      <>
        <p class="muted">{t('types.upTo', { max })}</p>
        <ul class="plans" aria-label={t('types.ratesOf', { type: category.name })}>
          {room.plans.map((plan, p) => (
            <li>
              <p id={`${id}p${p + 1}`}>
                <b>{plan.name}</b>
                <br />
                {plan.nights.map((night) => t('search.nightPrice', { date: t.dayShort(night.date), price: t.money(night.price, currency) })).join(', ')}
                <br />
                <b>{t('search.inTotal', { total: t.money(plan.total, currency) })}</b>
              </p>
              <button name="offer" value={offerValue(category.name, plan.external_rate_plan_id)} aria-describedby={`${id}n ${id}p${p + 1}`}>
                {t('search.bookPlan', { plan: plan.name })}
              </button>
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <div class="offer">
      <p id={id}>
        {t('types.upTo', { max })}
        <br />
        {t('search.perNight', { price: t.money(room.price, currency) })}
        <br />
        <b>{t('details.totalFor', { total: t.money(room.total, currency), nights })}</b>
      </p>
      <button name="offer" value={offerValue(category.name)} aria-describedby={`${id}n ${id}`}>
        {t('search.book')}
      </button>
    </div>
  );
}

/** The search's results: each room type free for the stay once, cheapest first; its "Book" sends the type (and plan). */
export function TypeResults({ t, request, client, stay, result }: { t: Translate; request: Request; client: GuestClient; stay: StayQuery; result: RoomSearch }) {
  const taxes = taxesLine(t, client);
  return (
    <>
      <p>
        {t('types.pricesIn', { nights: result.nights, currency: result.currency })}
        {taxes ? t('search.taxes', { taxes }) : ''}
      </p>
      {/* One form for every type: the stay once, each "Book" button sends its type. */}
      <form method="get" action={request.links.to(bookPath(client.page, '/details'))}>
        <input type="hidden" name="check_in" value={stay.check_in} />
        <input type="hidden" name="check_out" value={stay.check_out} />
        <input type="hidden" name="guests" value={String(stay.guests)} />
        {result.categories.map((category, c) => (
          <section class="card type" aria-labelledby={`t${c + 1}n`}>
            <TypeImage url={category.image_url} name={category.name} eager={c === 0} />
            <h3 id={`t${c + 1}n`}>{category.name}</h3>
            {category.rooms.length <= FEW_LEFT ? <p class="left">{t('types.left', { count: category.rooms.length })}</p> : null}
            <AboutCategory t={t} category={category} id={`a${c + 1}`} />
            <TypeOffer t={t} category={category} currency={result.currency} nights={result.nights} id={`t${c + 1}`} />
          </section>
        ))}
      </form>
    </>
  );
}

/** The landing page's room types: picture, description, amenities, up to how many guests, "from" a price a night. */
export function Showcase({ t, client, types, nights }: { t: Translate; client: GuestClient; types: ShowcaseType[]; nights: number }) {
  if (!types.length) return null;
  return (
    <section aria-labelledby="types">
      <h2 id="types">{t('landing.ourRooms')}</h2>
      {types.map((type, s) => (
        <section class="card type" aria-labelledby={`s${s + 1}`}>
          <TypeImage url={type.image_url} name={type.name} />
          <h3 id={`s${s + 1}`}>{type.name}</h3>
          <AboutCategory t={t} category={type} id={`sa${s + 1}`} />
          <p class="price">
            {t('types.upTo', { max: type.max_occupancy })}
            {type.from !== null ? (
              <>
                {' · '}
                <b>{t('landing.from', { price: t.money(type.from, client.currency) })}</b>
              </>
            ) : null}
          </p>
        </section>
      ))}
      <p class="muted">{t('landing.fromNote', { nights })}</p>
    </section>
  );
}
