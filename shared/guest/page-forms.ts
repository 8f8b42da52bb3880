/**
 * The guest booking pages' forms (docs/behaviour.md "Guest booking and the reception QR code"):
 * their fields and labels, the values as typed (never coerced: the use case judges them), and a
 * refusal turned into messages next to the fields and on top of the form. Plain GET forms carry
 * the stay from page to page, so the back button and a reload work; the only POST books.
 */
import type { StayQuery } from '../domain/guest-booking/guest-bookings';
import { AppError } from '../errors';
import type { PageOutcome, PublicPageAction } from '../dashboard/page-function';
import type { MessageKey, MessageValues, Translate } from '../i18n/translator';

export type Request = Parameters<PublicPageAction>[0];

export const STAY_FIELDS = ['check_in', 'check_out', 'guests'] as const;
export const GUEST_FIELDS = ['name', 'email', 'phone'] as const;
export type StayField = (typeof STAY_FIELDS)[number];
export type GuestField = (typeof GUEST_FIELDS)[number];
export type Errors<F extends string> = Partial<Record<F | 'form', string>>;

/** A field's label, in the guest's words. */
export const label = (t: Translate, field: StayField | GuestField) => t(`field.${field}`);

/**
 * The guest's words for a problem the use case found (its details are the API's English
 * sentences, shared/domain/guest-booking/booking-input.ts): each known one by its message key,
 * with its figures; one this table does not know stays as written.
 */
const PROBLEMS: readonly [RegExp, MessageKey, (match: RegExpExecArray, field: StayField | GuestField) => MessageValues][] = [
  [/^Enter the check-in date$/, 'problem.checkInMissing', () => ({})],
  [/^Enter the check-out date$/, 'problem.checkOutMissing', () => ({})],
  [/^must be a real date/, 'problem.realDate', () => ({})],
  [/^cannot be in the past$/, 'problem.checkInPast', () => ({})],
  [/^can be at most (\d+) days from today \((\d{4}-\d{2}-\d{2}) at the latest\)$/, 'problem.checkInHorizon', (m) => ({ days: Number(m[1]), last: m[2]! })],
  [/^must be after the check-in date$/, 'problem.checkOutBeforeIn', () => ({})],
  [/^must be at most (\d+) nights after check-in$/, 'problem.tooManyNights', (m) => ({ nights: Number(m[1]) })],
  [/^Enter the number of guests$/, 'problem.guestsMissing', () => ({})],
  [/^must be a whole number of at least 1$/, 'problem.guestsWhole', () => ({})],
  [/^must be at most (\d+)$/, 'problem.guestsMax', (m) => ({ max: Number(m[1]) })],
  [/^Enter your name$/, 'problem.nameMissing', () => ({})],
  [/^must be at most (\d+) characters$/, 'problem.nameLong', (m) => ({ max: Number(m[1]) })],
  [/^Enter your e-mail address$/, 'problem.emailMissing', () => ({})],
  [/^Enter an e-mail address in the right format/, 'problem.emailFormat', () => ({})],
  [/^Enter a phone number in international format/, 'problem.phoneFormat', () => ({})],
  [/^This form could not be read/, 'problem.formUnreadable', () => ({})],
  [/^This address was sent (\d+) "Confirm your booking" e-mails in the last hour already\. Please try again in (\d+) minutes/, 'problem.tooManyEmails', (m) => ({ most: Number(m[1]), minutes: Number(m[2]) })],
];

function problemInWords(t: Translate, message: string, field: StayField | GuestField | undefined): string | undefined {
  for (const [pattern, key, values] of PROBLEMS) {
    const match = pattern.exec(message);
    // `must be at most N` is the guests' limit only; the name's says "characters".
    if (match && !(key === 'problem.guestsMax' && field !== 'guests')) {
      const figures = values(match, field ?? 'guests');
      if (key === 'problem.realDate') figures.field = label(t, field ?? 'check_in');
      if (key === 'problem.checkInHorizon') figures.last = t.day(String(figures.last));
      return t(key, figures);
    }
  }
  return undefined;
}

/** The stay as typed, to show the form again (never coerced: the use case judges it). */
export function stayValues(source: { get(name: string): string | null | undefined }): Record<StayField, string> {
  return Object.fromEntries(STAY_FIELDS.map((f) => [f, (source.get(f) ?? '').trim()])) as Record<StayField, string>;
}

export const fromQuery = (query: Record<string, string>) => ({ get: (name: string) => query[name] });

/** The stay as a query: the search results for it, or the details page with a room. */
export const stayQuery = (stay: StayQuery) => ({ check_in: stay.check_in, check_out: stay.check_out, guests: String(stay.guests) });

/**
 * A refusal's details by field, as sentences: a message that goes on from the field's label
 * ("cannot be in the past") gets the label in front; what belongs to no field of the form goes
 * on top of it.
 */
export function errorsOf<F extends StayField | GuestField>(t: Translate, error: AppError, fields: readonly F[]): Errors<F> {
  const errors: Errors<F> = {};
  for (const detail of error.details ?? []) {
    const field = fields.find((f) => detail.path === f);
    const words = problemInWords(t, detail.message, field);
    if (field) errors[field] ??= words ?? (/^[a-z]/.test(detail.message) ? `${label(t, field)} ${detail.message}` : detail.message);
    else errors.form ??= words ?? detail.message;
  }
  if (Object.keys(errors).length === 0) errors.form = error.message;
  return errors;
}

export const hasErrors = (errors: Errors<string>) => Object.values(errors).some(Boolean);

/**
 * A refusal a guest can correct (4xx but 404, and but a 429 that names no field: too many bookings
 * in progress, whose page says when to try again; too many e-mails to the address goes beside its
 * field); anything else is thrown on to the error page.
 */
export function correctable(error: unknown): AppError {
  const limited = error instanceof AppError && error.status === 429 && !error.details?.length;
  if (error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 404 && !limited) return error;
  throw error;
}

/**
 * A room type and the rate plan chosen in one button value, `<type>~<plan>` (a button sends one
 * value); a `~` or `%` in the type's name is escaped, so the first `~` always ends it.
 */
export const offerValue = (type: string, plan?: string) => {
  const escaped = type.replace(/%/g, '%25').replace(/~/g, '%7E');
  return plan === undefined ? escaped : `${escaped}~${plan}`;
};

/** The type and the plan of an offerValue. */
export function splitOffer(offer: string): [string, string | undefined] {
  const at = offer.indexOf('~');
  const type = (at < 0 ? offer : offer.slice(0, at)).replace(/%7E/gi, '~').replace(/%25/g, '%');
  return [type, at < 0 ? undefined : offer.slice(at + 1)];
}

export const isOutcome = (value: StayQuery | PageOutcome): value is PageOutcome => 'html' in value || 'redirect' in value || 'raw' in value;
