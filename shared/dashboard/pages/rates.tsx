/**
 * Rates (docs/behaviour.md "Rates and restrictions per date"): for the next 14 nights, each
 * category's rate plans night by night, the price (pushed, or the base price in grey) and the
 * rules of stay at a glance (closed nights marked, minimum and maximum stays), what was set here
 * rather than by the PMS; and, for admins, a form to set a range of one plan (the API's rules and
 * `sequence`, audited).
 */
import { timeZoneOf } from '../../domain/client-settings';
import { requireClient } from '../../domain/clients';
import { hotelClock } from '../../domain/hotel-time';
import { setRates } from '../../domain/operator-actions/rates';
import { type CalendarPlan, ratesCalendar } from '../../domain/rates/rates-calendar';
import { AppError, errors as appErrors } from '../../errors';
import { addDays, isCalendarDate } from '../../schemas/common';
import { WEEKDAYS } from '../../schemas/rate-fields';
import { formatDayShort, formatPrice } from '../format';
import { Empty, ErrorSummary, Field, Page, Select } from '../layout';
import type { PageAction, PageRequest } from '../page-function';

const NIGHTS = 14;
const PAGE = '/dashboard/rates';
const NUMBER_FIELDS = ['price', 'min_stay_arrival', 'min_stay_through', 'max_stay', 'sequence'] as const;
const FLAG_FIELDS = ['closed_to_arrival', 'closed_to_departure', 'stop_sell'] as const;
const TEXT_FIELDS = ['plan', 'date_from', 'date_to', ...NUMBER_FIELDS, ...FLAG_FIELDS] as const;
type FormField = (typeof TEXT_FIELDS)[number] | 'days' | 'form';
type FormErrors = Partial<Record<FormField, string>>;
const WEEKDAY_LABELS: Record<string, string> = { mo: 'Monday', tu: 'Tuesday', we: 'Wednesday', th: 'Thursday', fr: 'Friday', sa: 'Saturday', su: 'Sunday' };
const FLAG_OPTIONS = [
  { value: '', label: 'Leave as it is' },
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

/** A plan as the form names it: its source and id, each URI-encoded (either may hold any character). */
const planValue = (plan: { external_source: string; external_rate_plan_id: string }) => `${encodeURIComponent(plan.external_source)}/${encodeURIComponent(plan.external_rate_plan_id)}`;

/** One night of a plan: its price and, under it, each rule that is set. */
function NightCell({ night, currency }: { night: CalendarPlan['nights'][number]; currency: string }) {
  const rules = [
    night.stop_sell ? 'Closed' : '',
    night.closed_to_arrival ? 'No arrival' : '',
    night.closed_to_departure ? 'No departure' : '',
    night.min_stay_arrival > 1 ? `Min ${night.min_stay_arrival}` : '',
    night.min_stay_through > 1 ? `Through ${night.min_stay_through}` : '',
    night.max_stay > 0 ? `Max ${night.max_stay}` : '',
  ].filter(Boolean);
  const classes = [night.price_source === 'base' ? 'base' : '', night.stop_sell ? 'closed' : ''].filter(Boolean).join(' ') || undefined;
  return (
    <td class={classes}>
      {night.price === null ? '—' : formatPrice(night.price, currency).replace(` ${currency}`, '')}
      {rules.map((rule) => (
        <small>{rule}</small>
      ))}
      {night.set_by === 'operator' ? <small class="muted">set here</small> : null}
    </td>
  );
}

async function ratesView(request: PageRequest, form?: { values: Record<string, string>; days: string[]; errors: FormErrors }, status = 200) {
  const clientId = request.operator.client_id;
  const client = await requireClient(clientId);
  const { today } = hotelClock(timeZoneOf(client), request.now);
  const from = request.query.from && isCalendarDate(request.query.from) && request.query.from >= today ? request.query.from : today;
  const calendar = await ratesCalendar(clientId, from, NIGHTS);
  const { links } = request;
  const plans = calendar.categories.flatMap((c) => c.plans.map((p) => ({ value: planValue(p), label: `${c.name}: ${p.name} (${p.external_rate_plan_id})` })));
  const values = form?.values ?? { date_from: from, date_to: addDays(from, 6) };
  const errors = form?.errors ?? {};
  const isAdmin = request.operator.role === 'admin';
  return {
    status,
    html: (
      <Page title="Rates" links={links} operator={request.operator} nav="rates" notice={request.notice}>
        <ErrorSummary errors={errors} />
        <p>
          Prices a night in {client.currency} from your PMS, by room category and rate plan. A price in grey is the category's base price (none was sent for
          that night). "Closed": not for sale that night; "Min" and "Max": the nights of a stay arriving that day; "Through": the nights of a stay that
          includes it.
        </p>
        <p class="actions">
          {from > today ? <a href={links.to(PAGE, { from: addDays(from, -NIGHTS) < today ? today : addDays(from, -NIGHTS) })}>Earlier nights</a> : null}
          <a href={links.to(PAGE, { from: addDays(from, NIGHTS) })}>Later nights</a>
        </p>
        {calendar.categories.length === 0 ? (
          <Empty>No rate plans yet: your PMS sends them, then their prices and rules of stay.</Empty>
        ) : (
          calendar.categories.map((category, c) => (
            <section aria-labelledby={`cat${c + 1}`}>
              <h2 id={`cat${c + 1}`}>{category.name}</h2>
              <div class="table-wrap" tabIndex={0}>
                <table class="grid rates">
                  <thead>
                    <tr>
                      <th scope="col">Rate plan</th>
                      {calendar.dates.map((date) => (
                        <th scope="col">{formatDayShort(date)}</th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {category.plans.map((plan) => (
                      <tr>
                        <th scope="row">
                          {plan.name}
                          {plan.active ? null : <span class="muted"> (not sold)</span>}
                        </th>
                        {plan.nights.map((night) => (
                          <NightCell night={night} currency={client.currency} />
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ))
        )}
        {isAdmin && plans.length ? (
          <section aria-labelledby="set-rates">
            <h2 id="set-rates">Set rates for a range</h2>
            <p class="muted">Only what you fill in changes; your PMS may send other values later. Recorded in the Audit page.</p>
            <form method="post" action={links.to(PAGE)} novalidate aria-labelledby="set-rates">
              <Select label="Rate plan" name="plan" options={plans} value={values.plan} error={errors.plan} />
              <div class="row">
                <Field label="From" name="date_from" type="date" min={today} value={values.date_from} error={errors.date_from} />
                <Field label="To" name="date_to" type="date" min={today} value={values.date_to} error={errors.date_to} hint="Included" />
              </div>
              <fieldset class="checks" aria-describedby={errors.days ? 'f-days-error' : 'f-days-hint'}>
                <legend>Only on</legend>
                <small id="f-days-hint" class="hint">
                  None ticked: every day of the range
                </small>
                {errors.days ? (
                  <small id="f-days-error" class="field-error">
                    {errors.days}
                  </small>
                ) : null}
                {WEEKDAYS.map((day, i) => (
                  <label>
                    <input type="checkbox" name="days" value={day} id={i === 0 ? 'f-days' : undefined} checked={form?.days.includes(day)} /> {WEEKDAY_LABELS[day]}
                  </label>
                ))}
              </fieldset>
              <Field label="Price a night" name="price" type="number" min="0" step="0.01" value={values.price} error={errors.price} hint={`In ${client.currency}`} />
              <Field label="Minimum stay arriving" name="min_stay_arrival" type="number" min="1" step="1" value={values.min_stay_arrival} error={errors.min_stay_arrival} hint="Nights, 1 to 365" />
              <Field label="Minimum stay through" name="min_stay_through" type="number" min="1" step="1" value={values.min_stay_through} error={errors.min_stay_through} hint="Nights, 1 to 365" />
              <Field label="Maximum stay" name="max_stay" type="number" min="0" step="1" value={values.max_stay} error={errors.max_stay} hint="Nights; 0 for no maximum" />
              <Select label="Closed to arrival" name="closed_to_arrival" options={FLAG_OPTIONS} value={values.closed_to_arrival} error={errors.closed_to_arrival} />
              <Select label="Closed to departure" name="closed_to_departure" options={FLAG_OPTIONS} value={values.closed_to_departure} error={errors.closed_to_departure} />
              <Select label="Closed (not for sale)" name="stop_sell" options={FLAG_OPTIONS} value={values.stop_sell} error={errors.stop_sell} />
              <Field label="Sequence" name="sequence" type="number" min="0" step="1" value={values.sequence} error={errors.sequence} hint="Optional: as your PMS numbers its changes; a value set with a higher one is kept" />
              <button type="submit">Set rates</button>
            </form>
          </section>
        ) : isAdmin ? null : (
          <p class="muted">Only an admin of your hotel can set rates here.</p>
        )}
      </Page>
    ),
  };
}

export const ratesPage: PageAction = async (request) => ratesView(request);

/** What was typed, as numbers and flags where it is one; a number that is not is the use case's to refuse with its path. */
function rangeOf(values: Record<string, string>, days: string[]) {
  const [source, plan] = (values.plan ?? '').split('/').map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return '';
    }
  });
  const range: Record<string, unknown> = { external_source: source ?? '', external_rate_plan_id: plan ?? '', date_from: values.date_from, date_to: values.date_to };
  if (days.length) range.days = days;
  for (const field of NUMBER_FIELDS) if (values[field]) range[field] = /^-?\d+(\.\d+)?$/.test(values[field]!) ? Number(values[field]) : values[field];
  for (const field of FLAG_FIELDS) if (values[field]) range[field] = values[field] === 'yes';
  return range;
}

export const setRatesAction: PageAction = async (request) => {
  if (request.operator.role !== 'admin') throw appErrors.ratesAdminOnly();
  const values = Object.fromEntries(TEXT_FIELDS.map((f) => [f, (request.form.get(f) ?? '').trim()]));
  const days = request.form.getAll('days');
  try {
    const result = await setRates(request.operator, rangeOf(values, days) as unknown as Parameters<typeof setRates>[1], request.now);
    const message = `Rates set: ${result.days_changed} ${result.days_changed === 1 ? 'night' : 'nights'} changed${result.days_stale ? `, ${result.days_stale} kept (set with a higher sequence)` : ''}.`;
    return { redirect: `${PAGE}?from=${values.date_from}`, notice: { kind: 'success', message } };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const errors: FormErrors = {};
    for (const detail of error.details ?? [{ path: 'form', message: error.message }]) {
      const field: string = detail.path.split(/[.[]/)[0] || 'form';
      const known = field === 'date' ? 'date_from' : field === 'external_rate_plan_id' || field === 'external_source' ? 'plan' : field === 'updates' ? 'form' : field;
      errors[(TEXT_FIELDS as readonly string[]).includes(known) || known === 'days' ? (known as FormField) : 'form'] ??= detail.message;
    }
    return ratesView(request, { values, days, errors }, 400);
  }
};
