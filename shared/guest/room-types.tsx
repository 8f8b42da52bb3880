/**
 * The room types as the guest pages show them (docs/behaviour.md "The guest's booking page as a
 * storefront"): each type once, with its picture, what the PMS says of it, and what it costs:
 * on the results, the price a night, the stay's total and how many are left (3 or fewer); on the
 * landing page, the "from" price. Pictures carry their size (no layout shift), their text and
 * load lazily.
 */
import type { OfferedCategory, RoomSearch, ShowcaseType, StayQuery } from '../domain/guest-booking/guest-bookings';
import type { GuestClient } from '../domain/guest-booking/guest-bookings';
import { formatDayShort } from '../dashboard/format';
import { AboutCategory, money, plural, taxesLine } from './hotel-info';
import { offerValue, type Request } from './page-forms';
import { bookPath } from './urls';

/** "2 left" shows from this many free rooms of a type down. */
export const FEW_LEFT = 3;

/** A type's picture: 16:9, the width of the card, lazily loaded. */
export function TypeImage({ url, name, eager }: { url?: string; name: string; eager?: boolean }) {
  if (!url) return null;
  return <img class="type-image" src={url} alt={name} width={640} height={360} loading={eager ? 'eager' : 'lazy'} decoding="async" />;
}

function Left({ count }: { count: number }) {
  return count <= FEW_LEFT ? <p class="left">{count === 1 ? 'Only 1 left' : `${count} left`}</p> : null;
}

function TypeOffer({ category, currency, nights, id }: { category: OfferedCategory; currency: string; nights: number; id: string }) {
  const room = category.rooms[0]!;
  const guests = Math.max(...category.rooms.map((r) => r.max_occupancy));
  if (room.plans) {
    return (
      <ul class="plans" aria-label={`Rates: ${category.name}`}>
        {room.plans.map((plan, p) => (
          <li>
            <p id={`${id}p${p + 1}`}>
              <b>{plan.name}</b>
              <br />
              {plan.nights.map((night) => `${formatDayShort(night.date)}: ${money(night.price, currency)}`).join(', ')}
              <br />
              <b>{money(plan.total, currency)}</b> in total
            </p>
            <button name="offer" value={offerValue(category.name, plan.external_rate_plan_id)} aria-describedby={`${id} ${id}p${p + 1}`}>
              Book {plan.name}
            </button>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div class="offer">
      <p id={id}>
        Up to {plural(guests, 'guest')}
        <br />
        {money(room.price, currency)} a night
        <br />
        <b>{money(room.total, currency)}</b> for {plural(nights, 'night')}
      </p>
      <button name="offer" value={offerValue(category.name)} aria-describedby={`${id}n ${id}`}>
        Book
      </button>
    </div>
  );
}

/** The search's results: each room type free for the stay once, cheapest first; its "Book" sends the type (and plan). */
export function TypeResults({ request, client, stay, result }: { request: Request; client: GuestClient; stay: StayQuery; result: RoomSearch }) {
  const taxes = taxesLine(client);
  return (
    <>
      <p>
        Each room type shows its price and the total for your {plural(result.nights, 'night')}, in {result.currency}.{taxes ? ` ${taxes}.` : ''}
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
            <Left count={category.rooms.length} />
            <AboutCategory category={category} id={`a${c + 1}`} />
            <TypeOffer category={category} currency={result.currency} nights={result.nights} id={`t${c + 1}`} />
          </section>
        ))}
      </form>
    </>
  );
}

/** The landing page's room types: picture, description, amenities, up to how many guests, "from" a price a night. */
export function Showcase({ client, types, nights }: { client: GuestClient; types: ShowcaseType[]; nights: number }) {
  if (!types.length) return null;
  return (
    <section aria-labelledby="types">
      <h2 id="types">Our rooms</h2>
      {types.map((type, t) => (
        <section class="card type" aria-labelledby={`s${t + 1}`}>
          <TypeImage url={type.image_url} name={type.name} />
          <h3 id={`s${t + 1}`}>{type.name}</h3>
          <AboutCategory category={{ ...type, rooms: [] }} id={`sa${t + 1}`} />
          <p class="price">
            Up to {plural(type.max_occupancy, 'guest')}
            {type.from !== null ? (
              <>
                {' · '}
                from <b>{money(type.from, client.currency)}</b> a night
              </>
            ) : null}
          </p>
        </section>
      ))}
      <p class="muted">"From" prices are the lowest price of a night over the next {nights} nights. Choose your dates above to see your stay's total.</p>
    </section>
  );
}
