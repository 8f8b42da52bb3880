/**
 * The e-mails to guests (docs/behaviour.md "Guest booking and the reception QR code"): the booking's
 * confirmation, and for a booking paid at the hotel the "Confirm your booking" link. The HTML is
 * rendered by preact, as the pages are, so every value (a guest's or a hotel's name) is escaped;
 * the plain-text part beside it says the same. Inline styles only: mail clients drop stylesheets.
 */
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { nightsBetween } from '../schemas/common';
import type { Translate } from '../i18n/translator';

export interface EmailMessage {
  subject: string;
  html: string;
  text: string;
}

/** What both e-mails say about the stay. */
export interface StayFacts {
  hotel: string;
  guestName: string;
  checkIn: string;
  checkOut: string;
  guests: number;
  roomType: string;
  /** The room's number; null while the hotel is to assign one. */
  roomNumber: string | null;
  /** Major units of `currency`. */
  total: number;
  currency: string;
}

export interface BookingConfirmationFacts extends StayFacts {
  bookingReference: string;
  confirmationCode: string;
  paid: boolean;
  /** The booking's confirmation page (its token is the guest's alone). */
  link: string;
  /** The hotel's check-in time ("HH:MM") and address (client settings), where it has set them. */
  checkInTime?: string | null;
  address?: string | null;
  /** Of `total`, the taxes (stay-price.ts); absent or 0: none said. Included: part of the room price. */
  taxes?: { amount: number; included: boolean; percent: number } | null;
  /** The hotel's cancellation policy, and until when the guest may cancel free of charge (an instant, told in the hotel's time). */
  cancellationPolicy?: string | null;
  freeCancellation?: { until: string; timeZone: string } | null;
}

/** The free-cancellation deadline (on the hotel's clock, `t`'s) and the hotel's policy, where known. */
function policyLines(t: Translate, facts: BookingConfirmationFacts): string[] {
  const until = facts.freeCancellation ? new Date(facts.freeCancellation.until) : undefined;
  return [
    ...(until ? [t('mail.freeCancellation', { until: t('format.onHotelClock', { date: t.day(t.localDate(until)), time: t.time(until) }) })] : []),
    ...(facts.cancellationPolicy?.trim() ? [t('mail.policy', { policy: facts.cancellationPolicy.trim() })] : []),
  ];
}

/** The taxes' row of a confirmation, where there are taxes. */
const taxesRows = (t: Translate, facts: BookingConfirmationFacts): [string, string][] =>
  facts.taxes && facts.taxes.amount > 0
    ? [[t(facts.taxes.included ? 'price.taxesIncluded' : 'price.taxes', { percent: t.count(facts.taxes.percent) }), t.money(facts.taxes.amount, facts.currency)]]
    : [];

/** What the guest needs on arrival, as far as the hotel has said: from when to check in, and where. */
function arrivalLines(t: Translate, facts: BookingConfirmationFacts): string[] {
  return [
    ...(facts.checkInTime ? [t('mail.checkInFrom', { time: t.clock(facts.checkInTime), date: t.day(facts.checkIn) })] : []),
    ...(facts.address?.trim() ? [t('mail.address', { address: facts.address.trim().replace(/\s*\n\s*/g, ', ') })] : []),
  ];
}

export interface ConfirmYourBookingFacts extends StayFacts {
  /** The page with the "Confirm booking" button. */
  link: string;
  /** ISO time the room stops being held: the link works until then. */
  confirmBy: string;
}

function stayRows(t: Translate, s: StayFacts): [string, string][] {
  return [
    [t('field.check_in'), t.day(s.checkIn)],
    [t('field.check_out'), t.day(s.checkOut)],
    [t('booking.room'), s.roomNumber ? t('details.roomValue', { number: s.roomNumber, category: s.roomType }) : t('mail.roomToAssign', { type: s.roomType })],
    [t('booking.guests'), t.count(s.guests)],
    [t('booking.guest'), s.guestName],
    [t('booking.total'), t.money(s.total, s.currency)],
  ];
}

const INK = '#17202a';
const MUTED = '#4a5360';
const ACCENT = '#0b5cad';

export function Mail({ t, title, hotel, children }: { t: Translate; title: string; hotel: string; children: ComponentChildren }) {
  return (
    <html lang={t.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </head>
      <body style={`margin:0;padding:0;background:#f4f6f8;color:${INK};font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif`}>
        <div style="max-width:34rem;margin:0 auto;padding:1rem">
          <p style="margin:0 0 .5rem;font-weight:700">{hotel}</p>
          <h1 style="font-size:1.4rem;margin:.2rem 0 1rem">{title}</h1>
          {children}
        </div>
      </body>
    </html>
  );
}

export function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <table role="presentation" style="border-collapse:collapse;margin:0 0 1rem">
      {rows.map(([term, value]) => (
        <tr>
          <th scope="row" style="text-align:left;padding:.2rem 1rem .2rem 0;vertical-align:top">
            {term}
          </th>
          <td style="padding:.2rem 0">{value}</td>
        </tr>
      ))}
    </table>
  );
}

export function Button({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <p style="margin:1.2rem 0">
      <a href={href} style={`display:inline-block;padding:.7rem 1.2rem;border-radius:6px;background:${ACCENT};color:#fff;font-weight:600;text-decoration:none`}>
        {children}
      </a>
    </p>
  );
}

/** The hotel's contact for guests (client settings), those it has set. */
export interface HotelContact {
  phone?: string | null;
  email?: string | null;
}

/** The hotel's contact in words: `Phone: +1…`, `Email: desk@…`. */
export function contactLines(t: Translate, contact: HotelContact | undefined): string[] {
  return [...(contact?.phone ? [t('mail.contactPhone', { phone: contact.phone })] : []), ...(contact?.email ? [t('mail.contactEmail', { email: contact.email })] : [])];
}

/**
 * A message with the hotel's contact at its end (every guest e-mail says how to reach the hotel):
 * a paragraph before the HTML's closing tags, lines at the end of the text. Unchanged when the
 * hotel has set neither.
 */
export function withHotelContact(t: Translate, message: EmailMessage, hotel: string, contact: HotelContact | undefined): EmailMessage {
  const lines = contactLines(t, contact);
  if (!lines.length) return message;
  const heading = t('mail.reach', { hotel });
  const footer = renderToString(
    <p style={`margin:1.5rem 0 0;padding-top:.75rem;border-top:1px solid #d5dbe1;color:${MUTED}`} data-contact="">
      {heading}
      {lines.map((line) => (
        <>
          <br />
          {line}
        </>
      ))}
    </p>,
  );
  const end = message.html.lastIndexOf('</div></body>');
  return {
    subject: message.subject,
    html: end < 0 ? `${message.html}${footer}` : `${message.html.slice(0, end)}${footer}${message.html.slice(end)}`,
    text: `${message.text}\n${heading}\n${lines.join('\n')}\n`,
  };
}

export const html = (mail: VNode) => `<!doctype html>${renderToString(mail)}`;
export const text = (lines: (string | false)[]) => `${lines.filter((line) => line !== false).join('\n')}\n`;
export const rowsAsText = (rows: [string, string][]) => rows.map(([term, value]) => `${term}: ${value}`);

/**
 * The confirmation of a booking: paid online, or confirmed by its link to be paid at the hotel. In
 * `t`'s language (the booking's) and on its hotel's clock, like every guest e-mail.
 */
export function bookingConfirmationEmail(t: Translate, facts: BookingConfirmationFacts): EmailMessage {
  const title = t('mail.confirmed.title');
  const rows: [string, string][] = [...stayRows(t, facts), ...taxesRows(t, facts), [t('booking.payment'), facts.paid ? t('booking.paid') : t('booking.payAtHotel')]];
  const arrival = arrivalLines(t, facts);
  const reference = t('booking.reference');
  const code = t('booking.code');
  const policy = policyLines(t, facts);
  return {
    subject: `${t('mail.confirmed.subject', { hotel: facts.hotel, date: t.day(facts.checkIn) })} (${facts.bookingReference})`,
    html: html(
      <Mail t={t} title={title} hotel={facts.hotel}>
        <p>{t('mail.dear', { name: facts.guestName })}</p>
        <p>{t('mail.confirmed.thanks')}</p>
        <table role="presentation" style="border-collapse:collapse;margin:0 0 1rem">
          <tr>
            <th scope="row" style="text-align:left;padding:.2rem 1rem .2rem 0">
              {reference}
            </th>
            <td style="padding:.2rem 0;font-size:1.3rem;font-weight:700;letter-spacing:.05em">{facts.bookingReference}</td>
          </tr>
          <tr>
            <th scope="row" style="text-align:left;padding:.2rem 1rem .2rem 0">
              {code}
            </th>
            <td style="padding:.2rem 0;font-size:1.3rem;font-weight:700;letter-spacing:.05em">{facts.confirmationCode}</td>
          </tr>
        </table>
        <p style={`color:${MUTED}`}>{t('mail.showThem')}</p>
        {arrival.map((line) => (
          <p>{line}</p>
        ))}
        <Facts rows={rows} />
        {policy.map((line) => (
          <p>{line}</p>
        ))}
        <Button href={facts.link}>{t('mail.seeBooking')}</Button>
        <p style={`color:${MUTED};font-size:.9rem`}>{t('mail.keepLink')}</p>
      </Mail>,
    ),
    text: text([
      `${facts.hotel}`,
      '',
      t('mail.dear', { name: facts.guestName }),
      '',
      t('mail.confirmed.thanks'),
      '',
      `${reference}: ${facts.bookingReference}`,
      `${code}: ${facts.confirmationCode}`,
      t('mail.showThem'),
      '',
      ...(arrival.length ? [...arrival, ''] : []),
      ...rowsAsText(rows),
      '',
      ...(policy.length ? [...policy, ''] : []),
      `${t('mail.seeBooking')}: ${facts.link}`,
      t('mail.keepLink'),
    ]),
  };
}

/** A booking to pay at the hotel, held until `confirmBy`: the guest confirms it with the link. */
export function confirmYourBookingEmail(t: Translate, facts: ConfirmYourBookingFacts): EmailMessage {
  const title = t('confirmLink.title');
  const rows = stayRows(t, facts);
  const until = t('format.onHotelClock', { date: t.day(t.localDate(facts.confirmBy)), time: t.time(facts.confirmBy) });
  const body = t('mail.confirm.body', { nights: nightsBetween(facts.checkIn, facts.checkOut), until });
  return {
    subject: t('mail.confirm.subject', { hotel: facts.hotel }),
    html: html(
      <Mail t={t} title={title} hotel={facts.hotel}>
        <p>{t('mail.dear', { name: facts.guestName })}</p>
        <p>{body}</p>
        <Facts rows={rows} />
        <Button href={facts.link}>{title}</Button>
        <p style={`color:${MUTED};font-size:.9rem`}>{t('mail.confirm.notYou')}</p>
      </Mail>,
    ),
    text: text([
      `${facts.hotel}`,
      '',
      t('mail.dear', { name: facts.guestName }),
      '',
      body,
      '',
      ...rowsAsText(rows),
      '',
      `${title}: ${facts.link}`,
      '',
      t('mail.confirm.notYou'),
    ]),
  };
}
