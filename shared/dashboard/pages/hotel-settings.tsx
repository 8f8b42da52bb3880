/**
 * Hotel settings (admins; linked from Integrations): the hotel's time zone, which its "today",
 * arrivals, departures, occupancy nights and deadlines follow everywhere, and what guests are
 * told: whether prices include taxes, the cancellation policy, the check-in time, the address;
 * and until how many hours before check-in guests may cancel their own booking (refunded in full).
 * Saved with saveHotelSettings (setClientSettings, as `ops clients settings` saves them, audited
 * with the old and the new values), POST-redirect-GET. A form with problems comes back (status
 * 400) in the GOV.UK pattern: an error summary linking to each field, the message beside it, what
 * was typed.
 * An empty text, or "Not said", takes the setting away: guests are told nothing about it.
 */
import type { ComponentChildren } from 'preact';
import { type AppliedSettings, clientSettingsOf, DEFAULT_FREE_CANCELLATION_HOURS, MAX_FREE_CANCELLATION_HOURS, MAX_SETTING_TEXT } from '../../domain/client-settings';
import { requireClient } from '../../domain/clients';
import { isTimeZone } from '../../domain/hotel-time';
import { type ClientSettingsChange, HOTEL_SETTINGS, type HotelSetting, saveClientSlug, saveHotelSettings as saveSettings } from '../../domain/operator-actions/hotel-settings';
import { AppError } from '../../errors';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../i18n/languages';
import { formatTime } from '../format';
import { ErrorSummary, Page } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';

const PATH = '/dashboard/settings';
const INTEGRATIONS = '/dashboard/integrations';

/** The form's fields (the hotel settings), as typed (or as saved, before any change). */
type SettingsForm = Record<HotelSetting | 'slug', string>;
type FieldName = HotelSetting | 'slug';
type Errors = Partial<Record<FieldName | 'form', string>>;

const TAXES: readonly { value: string; label: string; saved: boolean | null }[] = [
  { value: 'yes', label: 'Yes: the prices guests see include taxes', saved: true },
  { value: 'no', label: 'No: taxes are added to the prices guests see', saved: false },
  { value: 'unset', label: 'Not said: the booking page says nothing about taxes', saved: null },
];

const LABELS: Record<FieldName, string> = {
  time_zone: 'Time zone',
  taxes_included: 'Prices include taxes',
  cancellation_policy: 'Cancellation policy',
  check_in_time: 'Check-in from',
  address: 'Address',
  free_cancellation_hours: 'Free cancellation (hours before check-in)',
  tax_percent: 'Taxes (percent)',
  phone: 'Phone',
  email: 'Email',
  slug: 'Booking page link (slug)',
  language: "Guests' language",
};

/** Every zone Intl knows by its own name, UTC first; a zone saved under another of its names (Asia/Calcutta) stays on the list. */
function timeZones(current: string): string[] {
  const zones = new Set(Intl.supportedValuesOf('timeZone'));
  if (current !== 'UTC' && isTimeZone(current)) zones.add(current);
  zones.delete('UTC');
  return ['UTC', ...[...zones].sort()];
}

const formOf = (settings: AppliedSettings, slug: string | undefined): SettingsForm => ({
  slug: slug ?? '',
  time_zone: settings.time_zone,
  taxes_included: TAXES.find((t) => t.saved === settings.taxes_included)!.value,
  cancellation_policy: settings.cancellation_policy ?? '',
  check_in_time: settings.check_in_time ?? '',
  address: settings.address ?? '',
  free_cancellation_hours: String(settings.free_cancellation_hours),
  tax_percent: String(settings.tax_percent),
  phone: settings.phone ?? '',
  email: settings.email ?? '',
  language: settings.language,
});

/** Browsers send a textarea's line breaks as CRLF. */
const typed = (form: URLSearchParams, name: FieldName) => (form.get(name) ?? '').replace(/\r\n?/g, '\n');

const count = (n: number) => n.toLocaleString('en-US');

/** The change the form asks for, or what is wrong with it, field by field (in the page's order), in plain words. */
function parse(values: SettingsForm): { change: ClientSettingsChange; errors: Errors } {
  const errors: Errors = {};
  const change: ClientSettingsChange = {};

  const zone = values.time_zone.trim();
  if (isTimeZone(zone)) change.time_zone = zone;
  else errors.time_zone = zone ? `“${zone}” is not a time zone: choose your hotel's time zone from the list` : "Choose your hotel's time zone from the list";

  const taxes = TAXES.find((t) => t.value === values.taxes_included);
  if (taxes) change.taxes_included = taxes.saved;
  else errors.taxes_included = 'Choose whether the prices guests see include taxes';

  const text = (name: 'cancellation_policy' | 'address') => {
    const given = values[name].trim();
    if (given.length > MAX_SETTING_TEXT) errors[name] = `Shorten the ${LABELS[name].toLowerCase()} to ${count(MAX_SETTING_TEXT)} characters or fewer (it has ${count(given.length)})`;
    else change[name] = given || null;
  };
  text('cancellation_policy');

  // Empty: back to the default window.
  const hours = values.free_cancellation_hours.trim();
  if (!hours) change.free_cancellation_hours = null;
  else if (/^\d+$/.test(hours) && Number(hours) <= MAX_FREE_CANCELLATION_HOURS) change.free_cancellation_hours = Number(hours);
  else errors.free_cancellation_hours = `Enter a whole number of hours from 0 to ${count(MAX_FREE_CANCELLATION_HOURS)}, such as 48`;

  const time = values.check_in_time.trim();
  const hhmm = /^(\d{1,2})[:.h](\d{2})$/.exec(time);
  if (!time) change.check_in_time = null;
  else if (hhmm && Number(hhmm[1]) < 24 && Number(hhmm[2]) < 60) change.check_in_time = `${hhmm[1]!.padStart(2, '0')}:${hhmm[2]}`;
  else errors.check_in_time = 'Enter the time of day guests may check in from, such as 15:00';

  text('address');

  // Empty: no taxes.
  const tax = values.tax_percent.trim().replace(/%$/, '').trim();
  if (!tax) change.tax_percent = null;
  else if (/^\d{1,3}([.,]\d{1,3})?$/.test(tax) && Number(tax.replace(',', '.')) <= 100) change.tax_percent = Number(tax.replace(',', '.'));
  else errors.tax_percent = 'Enter the taxes as a percentage from 0 to 100, such as 10 or 8.875';

  const phone = values.phone.trim().replace(/[\s().-]/g, '');
  if (!phone) change.phone = null;
  else if (/^\+[1-9]\d{1,14}$/.test(phone)) change.phone = phone;
  else errors.phone = 'Enter the phone number in international format, such as +1 808 555 0123';

  const email = values.email.trim();
  change.email = email || null;
  // None given: back to the default (English).
  if (!values.language.trim()) change.language = null;
  else if (isLanguage(values.language)) change.language = values.language;
  else errors.language = 'Choose the language your booking page speaks to guests whose browser asks for none of ours';
  return { change, errors };
}

function Hint({ id, children }: { id: string; children: ComponentChildren }) {
  return (
    <small id={id} class="hint">
      {children}
    </small>
  );
}

function FieldError({ name, errors }: { name: FieldName; errors: Errors }) {
  return errors[name] ? (
    <small id={`f-${name}-error`} class="field-error">
      {errors[name]}
    </small>
  ) : null;
}

/** aria-describedby of a field: its hint, and its error when it has one. */
const describedBy = (name: FieldName, errors: Errors) => [`f-${name}-hint`, errors[name] ? `f-${name}-error` : ''].filter(Boolean).join(' ');

function TextArea({ name, values, errors, hint }: { name: 'cancellation_policy' | 'address'; values: SettingsForm; errors: Errors; hint: string }) {
  return (
    <div class="field">
      <label for={`f-${name}`}>{LABELS[name]}</label>
      <Hint id={`f-${name}-hint`}>{hint}</Hint>
      <FieldError name={name} errors={errors} />
      <textarea id={`f-${name}`} name={name} rows={name === 'address' ? 3 : 5} aria-invalid={errors[name] ? 'true' : undefined} aria-describedby={describedBy(name, errors)}>
        {values[name]}
      </textarea>
    </div>
  );
}

function Input(props: { name: 'tax_percent' | 'phone' | 'email' | 'slug'; values: SettingsForm; errors: Errors; hint: string; type?: 'text' | 'tel' | 'email'; inputMode?: 'decimal'; autocomplete?: string }) {
  const { name, values, errors } = props;
  return (
    <div class="field">
      <label for={`f-${name}`}>{LABELS[name]}</label>
      <Hint id={`f-${name}-hint`}>{props.hint}</Hint>
      <FieldError name={name} errors={errors} />
      <input
        id={`f-${name}`}
        name={name}
        type={(props.type ?? 'text') as 'text'}
        {...(props.inputMode ? { inputMode: props.inputMode } : {})}
        {...(props.autocomplete ? { autocomplete: props.autocomplete } : {})}
        value={values[name]}
        aria-invalid={errors[name] ? 'true' : undefined}
        aria-describedby={describedBy(name, errors)}
      />
    </div>
  );
}

function settingsView(request: PageRequest, values: SettingsForm, errors: Errors = {}, zoneNow?: string): PageOutcome {
  const { links } = request;
  const zones = timeZones(values.time_zone);
  const knownZone = zones.includes(values.time_zone);
  const html = (
    <Page title="Hotel settings" links={links} operator={request.operator} nav="integrations" notice={request.notice}>
      <p class="muted">
        What your dashboard and your guest booking page go by. <a href={links.to(INTEGRATIONS)}>Back to Integrations</a>
      </p>
      <ErrorSummary errors={errors} />
      <form method="post" action={links.to(PATH)} aria-label="Hotel settings" novalidate>
        <div class="field">
          <label for="f-time_zone">{LABELS.time_zone}</label>
          <Hint id="f-time_zone-hint">
            "Today", arrivals, departures, occupancy and booking deadlines follow your hotel's local time.
            {zoneNow ? ` It is now ${zoneNow} in ${values.time_zone}.` : ''}
          </Hint>
          <FieldError name="time_zone" errors={errors} />
          <select id="f-time_zone" name="time_zone" aria-invalid={errors.time_zone ? 'true' : undefined} aria-describedby={describedBy('time_zone', errors)}>
            {knownZone ? null : (
              <option value="" selected>
                Choose a time zone
              </option>
            )}
            {zones.map((zone) => (
              <option value={zone} selected={zone === values.time_zone}>
                {zone === 'UTC' ? 'Universal time (no offset)' : zone.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </div>

        <fieldset class="checks" aria-describedby={describedBy('taxes_included', errors)}>
          <legend>{LABELS.taxes_included}</legend>
          <Hint id="f-taxes_included-hint">The booking page tells guests next to each price.</Hint>
          <FieldError name="taxes_included" errors={errors} />
          {TAXES.map((option, i) => (
            <label>
              <input type="radio" name="taxes_included" value={option.value} id={i === 0 ? 'f-taxes_included' : undefined} checked={values.taxes_included === option.value} />{' '}
              {option.label}
            </label>
          ))}
        </fieldset>

        <Input name="tax_percent" values={values} errors={errors} inputMode="decimal" hint="Added to the room price on the booking page and charged (or, when prices include taxes, shown as included). Leave it empty for none." />

        <TextArea
          name="cancellation_policy"
          values={values}
          errors={errors}
          hint={`Shown to guests before they pay, in your words (at most ${count(MAX_SETTING_TEXT)} characters). Leave it empty to say nothing.`}
        />

        <div class="field">
          <label for="f-free_cancellation_hours">{LABELS.free_cancellation_hours}</label>
          <Hint id="f-free_cancellation_hours-hint">
            Guests may cancel their own booking from its confirmation page until this many hours before check-in, and what they paid online is refunded in
            full. Later, the page asks them to contact you. Leave it empty for the default, {DEFAULT_FREE_CANCELLATION_HOURS} hours.
          </Hint>
          <FieldError name="free_cancellation_hours" errors={errors} />
          <input
            id="f-free_cancellation_hours"
            name="free_cancellation_hours"
            type="number"
            min="0"
            max={String(MAX_FREE_CANCELLATION_HOURS)}
            step="1"
            inputMode="numeric"
            value={values.free_cancellation_hours}
            aria-invalid={errors.free_cancellation_hours ? 'true' : undefined}
            aria-describedby={describedBy('free_cancellation_hours', errors)}
          />
        </div>

        <div class="field">
          <label for="f-check_in_time">{LABELS.check_in_time}</label>
          <Hint id="f-check_in_time-hint">The local time guests may check in from, told on their confirmation, such as 15:00. Leave it empty to say nothing.</Hint>
          <FieldError name="check_in_time" errors={errors} />
          <input
            id="f-check_in_time"
            name="check_in_time"
            type="time"
            value={values.check_in_time}
            aria-invalid={errors.check_in_time ? 'true' : undefined}
            aria-describedby={describedBy('check_in_time', errors)}
          />
        </div>

        <TextArea name="address" values={values} errors={errors} hint="Your hotel's street address, told to guests on their confirmation. Leave it empty to say nothing." />

        <Input name="phone" type="tel" values={values} errors={errors} autocomplete="tel" hint="Shown to guests on their confirmation and in every e-mail, such as +1 808 555 0123. Leave it empty to say nothing." />
        <Input name="email" type="email" values={values} errors={errors} autocomplete="email" hint="Shown to guests, and where their replies to our e-mails go (Reply-To). Leave it empty to say nothing." />

        <Input
          name="slug"
          values={values}
          errors={errors}
          hint={`Your booking page's own address, ${links.to('/book/')}<address>, and its QR code's: 3 to 60 lowercase letters, digits and hyphens, such as hale-kai. The address with your hotel's id keeps working. Leave it empty for none.`}
        />
        <div class="field">
          <label for="f-language">{LABELS.language}</label>
          <Hint id="f-language-hint">
            The booking page, the checkout and the e-mails speak the guest's choice from the page's language menu, else their browser's language; this one when neither
            is one of these.
          </Hint>
          <FieldError name="language" errors={errors} />
          <select id="f-language" name="language" aria-invalid={errors.language ? 'true' : undefined} aria-describedby={describedBy('language', errors)}>
            {LANGUAGES.map((language) => (
              <option value={language} selected={language === values.language} lang={language}>
                {LANGUAGE_NAMES[language]}
              </option>
            ))}
          </select>
        </div>

        <button type="submit">Save settings</button>
      </form>
    </Page>
  );
  return Object.keys(errors).length ? { html, status: 400 } : { html };
}

export const hotelSettingsPage: PageAction = async (request) => {
  const client = await requireClient(request.operator.client_id);
  const settings = clientSettingsOf(client);
  return settingsView(request, formOf(settings, client.slug), {}, formatTime(settings.time_zone, request.now));
};

export const saveHotelSettings: PageAction = async (request) => {
  const values = Object.fromEntries([...HOTEL_SETTINGS, 'slug' as const].map((name) => [name, typed(request.form, name)])) as SettingsForm;
  const { change, errors } = parse(values);
  if (Object.keys(errors).length) return settingsView(request, values, errors);

  let changed: FieldName[];
  try {
    // The address first: a slug refused (taken, or not of its shape) changes nothing else.
    const slug = values.slug.trim().toLowerCase() || null;
    const address = await saveClientSlug(request.operator, slug, request.now);
    ({ changed } = await saveSettings(request.operator, change, request.now));
    if (address.previous !== address.slug) changed = [...changed, 'slug'];
  } catch (error) {
    // An unknown client is the error page (404); a refused setting comes back beside its field.
    if (!(error instanceof AppError) || error.status >= 500 || error.code === 'NOT_FOUND') throw error;
    const refused: Errors = {};
    for (const detail of error.details ?? [{ path: 'form', message: error.message }]) refused[detail.path in LABELS ? (detail.path as FieldName) : 'form'] ??= `${LABELS[detail.path as FieldName] ?? 'The settings'} ${detail.message}`;
    return settingsView(request, values, refused);
  }

  if (changed.length === 0) return { redirect: PATH, notice: { kind: 'success', message: 'Nothing changed: the settings were already these.' } };
  return {
    redirect: PATH,
    notice: { kind: 'success', message: `Hotel settings saved: ${changed.map((name) => LABELS[name].toLowerCase()).join(', ')}.` },
  };
};
