/**
 * The guest booking pages' forms (docs/behaviour.md "Guest booking and the reception QR code"):
 * their fields and labels, the values as typed (never coerced: the use case judges them), and a
 * refusal turned into messages next to the fields and on top of the form. Plain GET forms carry
 * the stay from page to page, so the back button and a reload work; the only POST books.
 */
import type { StayQuery } from '../domain/guest-booking/guest-bookings';
import { AppError } from '../errors';
import type { PageOutcome, PublicPageAction } from '../dashboard/page-function';

export type Request = Parameters<PublicPageAction>[0];

export const STAY_FIELDS = ['check_in', 'check_out', 'guests'] as const;
export const GUEST_FIELDS = ['name', 'email', 'phone'] as const;
export type StayField = (typeof STAY_FIELDS)[number];
export type GuestField = (typeof GUEST_FIELDS)[number];
export type Errors<F extends string> = Partial<Record<F | 'form', string>>;

const LABELS: Record<StayField | GuestField, string> = {
  check_in: 'Check-in',
  check_out: 'Check-out',
  guests: 'Guests',
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
};

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
export function errorsOf<F extends StayField | GuestField>(error: AppError, fields: readonly F[]): Errors<F> {
  const errors: Errors<F> = {};
  for (const detail of error.details ?? []) {
    const field = fields.find((f) => detail.path === f);
    if (field) errors[field] ??= /^[a-z]/.test(detail.message) ? `${LABELS[field]} ${detail.message}` : detail.message;
    else errors.form ??= detail.message;
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
