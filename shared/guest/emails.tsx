/**
 * The e-mails to guests (docs/behaviour.md "Guest booking and the reception QR code"): the booking's
 * confirmation, and for a booking paid at the hotel the "Confirm your booking" link. The HTML is
 * rendered by preact, as the pages are, so every value (a guest's or a hotel's name) is escaped;
 * the plain-text part beside it says the same. Inline styles only: mail clients drop stylesheets.
 */
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { formatAmount } from '../dashboard/format';
import { minorUnits } from '../schemas/payments';
import { nightsBetween } from '../schemas/common';
import { localDate, localTime } from '../domain/hotel-time';

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
  taxes?: { amount: number; included: boolean } | null;
  /** The hotel's cancellation policy, and until when the guest may cancel free of charge (an instant, told in the hotel's time). */
  cancellationPolicy?: string | null;
  freeCancellation?: { until: string; timeZone: string } | null;
}

/** `Fri 4 Dec 2026, 15:00 hotel time`: an instant on the hotel's clock. */
function hotelTime(at: string, timeZone: string): string {
  const instant = new Date(at);
  return `${day(localDate(timeZone, instant))}, ${localTime(timeZone, instant)} hotel time`;
}

/** The free-cancellation deadline and the hotel's policy, where known. */
function policyLines(facts: BookingConfirmationFacts): string[] {
  return [
    ...(facts.freeCancellation ? [`You can cancel free of charge until ${hotelTime(facts.freeCancellation.until, facts.freeCancellation.timeZone)}, from your booking's page.`] : []),
    ...(facts.cancellationPolicy?.trim() ? [`Cancellation policy: ${facts.cancellationPolicy.trim()}`] : []),
  ];
}

/** The taxes' row of a confirmation, where there are taxes. */
const taxesRows = (facts: BookingConfirmationFacts): [string, string][] =>
  facts.taxes && facts.taxes.amount > 0 ? [[facts.taxes.included ? 'Taxes included' : 'Taxes', money(facts.taxes.amount, facts.currency)]] : [];

/** What the guest needs on arrival, as far as the hotel has said: from when to check in, and where. */
function arrivalLines(facts: BookingConfirmationFacts): string[] {
  return [
    ...(facts.checkInTime ? [`Check-in is from ${facts.checkInTime} on ${day(facts.checkIn)}.`] : []),
    ...(facts.address?.trim() ? [`The hotel's address: ${facts.address.trim().replace(/\s*\n\s*/g, ', ')}`] : []),
  ];
}

export interface ConfirmYourBookingFacts extends StayFacts {
  /** The page with the "Confirm booking" button. */
  link: string;
  /** ISO time the room stops being held: the link works until then. */
  confirmBy: string;
}

/** `Fri 12 Mar 2027`: a stay's date, as a calendar date (no time zone shifts it); the pages write it so too. */
export function day(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** `Fri 12 Mar 2027, 14:30 UTC`: the time a link ends. */
function time(iso: string): string {
  return `${day(iso.slice(0, 10))}, ${iso.slice(11, 16)} UTC`;
}

const money = (amount: number, currency: string) => formatAmount(Math.round(amount * 10 ** minorUnits(currency)), currency);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function stayRows(s: StayFacts): [string, string][] {
  return [
    ['Check-in', day(s.checkIn)],
    ['Check-out', day(s.checkOut)],
    ['Room', s.roomNumber ? `${s.roomNumber}, ${s.roomType}` : `${s.roomType} (the hotel assigns the room on arrival)`],
    ['Guests', String(s.guests)],
    ['Guest', s.guestName],
    ['Total', money(s.total, s.currency)],
  ];
}

const INK = '#17202a';
const MUTED = '#4a5360';
const ACCENT = '#0b5cad';

export function Mail({ title, hotel, children }: { title: string; hotel: string; children: ComponentChildren }) {
  return (
    <html lang="en">
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
export function contactLines(contact: HotelContact | undefined): string[] {
  return [...(contact?.phone ? [`Phone: ${contact.phone}`] : []), ...(contact?.email ? [`Email: ${contact.email}`] : [])];
}

/**
 * A message with the hotel's contact at its end (every guest e-mail says how to reach the hotel):
 * a paragraph before the HTML's closing tags, lines at the end of the text. Unchanged when the
 * hotel has set neither.
 */
export function withHotelContact(message: EmailMessage, hotel: string, contact: HotelContact | undefined): EmailMessage {
  const lines = contactLines(contact);
  if (!lines.length) return message;
  const heading = hotel ? `To reach ${hotel}:` : 'To reach the hotel:';
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

/** The confirmation of a booking: paid online, or confirmed by its link to be paid at the hotel. */
export function bookingConfirmationEmail(facts: BookingConfirmationFacts): EmailMessage {
  const title = 'Your booking is confirmed';
  const rows: [string, string][] = [...stayRows(facts), ...taxesRows(facts), ['Payment', facts.paid ? 'paid' : 'to pay at the hotel']];
  const arrival = arrivalLines(facts);
  const policy = policyLines(facts);
  return {
    subject: `Booking confirmed: ${facts.hotel}, ${day(facts.checkIn)} (${facts.bookingReference})`,
    html: html(
      <Mail title={title} hotel={facts.hotel}>
        <p>Dear {facts.guestName}, thank you: your room is booked and the hotel has your booking.</p>
        <table role="presentation" style="border-collapse:collapse;margin:0 0 1rem">
          <tr>
            <th scope="row" style="text-align:left;padding:.2rem 1rem .2rem 0">
              Booking reference
            </th>
            <td style="padding:.2rem 0;font-size:1.3rem;font-weight:700;letter-spacing:.05em">{facts.bookingReference}</td>
          </tr>
          <tr>
            <th scope="row" style="text-align:left;padding:.2rem 1rem .2rem 0">
              Confirmation code
            </th>
            <td style="padding:.2rem 0;font-size:1.3rem;font-weight:700;letter-spacing:.05em">{facts.confirmationCode}</td>
          </tr>
        </table>
        <p style={`color:${MUTED}`}>Show them at the reception desk.</p>
        {arrival.map((line) => (
          <p>{line}</p>
        ))}
        <Facts rows={rows} />
        {policy.map((line) => (
          <p>{line}</p>
        ))}
        <Button href={facts.link}>See your booking</Button>
        <p style={`color:${MUTED};font-size:.9rem`}>The link shows your booking again: keep it to yourself.</p>
      </Mail>,
    ),
    text: text([
      `${facts.hotel}`,
      '',
      `Dear ${facts.guestName},`,
      '',
      'Thank you: your room is booked and the hotel has your booking.',
      '',
      `Booking reference: ${facts.bookingReference}`,
      `Confirmation code: ${facts.confirmationCode}`,
      'Show them at the reception desk.',
      '',
      ...(arrival.length ? [...arrival, ''] : []),
      ...rowsAsText(rows),
      '',
      ...(policy.length ? [...policy, ''] : []),
      `See your booking: ${facts.link}`,
      'The link shows your booking again: keep it to yourself.',
    ]),
  };
}

/** A booking to pay at the hotel, held until `confirmBy`: the guest confirms it with the link. */
export function confirmYourBookingEmail(facts: ConfirmYourBookingFacts): EmailMessage {
  const title = 'Confirm your booking';
  const rows = stayRows(facts);
  const until = time(facts.confirmBy);
  const nights = nightsBetween(facts.checkIn, facts.checkOut);
  return {
    subject: `Confirm your booking at ${facts.hotel}`,
    html: html(
      <Mail title={title} hotel={facts.hotel}>
        <p>
          Dear {facts.guestName}, please confirm your booking ({plural(nights, 'night')}, to pay at the hotel). The room is held for you until {until}; without
          your confirmation the booking is cancelled then.
        </p>
        <Facts rows={rows} />
        <Button href={facts.link}>Confirm your booking</Button>
        <p style={`color:${MUTED};font-size:.9rem`}>If you did not book this room, ignore this e-mail: nothing is booked without your confirmation.</p>
      </Mail>,
    ),
    text: text([
      `${facts.hotel}`,
      '',
      `Dear ${facts.guestName},`,
      '',
      `Please confirm your booking (${plural(nights, 'night')}, to pay at the hotel). The room is held for you until ${until}; without your confirmation the booking is cancelled then.`,
      '',
      ...rowsAsText(rows),
      '',
      `Confirm your booking: ${facts.link}`,
      '',
      'If you did not book this room, ignore this e-mail: nothing is booked without your confirmation.',
    ]),
  };
}
