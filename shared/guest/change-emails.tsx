/**
 * The e-mails telling a guest what became of their booking (docs/behaviour.md "Booking changes,
 * cancellations and refunds"): changed (its dates, room or guests as they now stand), cancelled
 * (and whether a refund follows), a refund issued. Rendered like the confirmation (./emails.tsx):
 * preact escapes every value, the plain-text part says the same, dates as the pages write them,
 * amounts with their currency.
 */
import { formatAmount } from '../dashboard/format';
import { Button, day, type EmailMessage, Facts, html, Mail, rowsAsText, text } from './emails';

/** The booking as it stands, as every one of these e-mails tells it. */
export interface ChangedStayFacts {
  hotel: string;
  guestName: string;
  /** Absent on a booking made before references existed: the e-mail names the dates alone. */
  bookingReference?: string;
  checkIn: string;
  checkOut: string;
  guests: number;
  /** The room's number and type; null while the hotel is to assign one. */
  roomNumber: string | null;
  roomType: string | null;
  /** The booking's page (the guest's confirmation page), where the service knows it. */
  link?: string;
}

/**
 * What a cancellation does with the guest's money: nothing was paid online; a refund of an amount
 * follows; the hotel keeps the payment (staff cancelled without a refund); or the hotel has not
 * said (it may refund later, with an e-mail of its own); or it was refunded before.
 */
export type RefundOutlook =
  | { kind: 'nothing_paid' }
  | { kind: 'refund'; amountMinor: number; currency: string }
  | { kind: 'already_refunded' }
  | { kind: 'no_refund' }
  | { kind: 'undecided' };

export interface RefundFacts {
  hotel: string;
  guestName?: string;
  bookingReference?: string;
  amountMinor: number;
  currency: string;
  /** `pending`: the provider has taken it on and settles it later. */
  status: 'succeeded' | 'pending';
  /** What the order was paid, for comparison. */
  paidMinor?: number;
  reason?: string;
}

const roomOf = (s: ChangedStayFacts) =>
  s.roomNumber ? `${s.roomNumber}${s.roomType ? `, ${s.roomType}` : ''}` : `${s.roomType ? `${s.roomType} ` : ''}(the hotel assigns the room on arrival)`.trim();

function stayRows(s: ChangedStayFacts): [string, string][] {
  return [
    ...(s.bookingReference ? [['Booking reference', s.bookingReference] as [string, string]] : []),
    ['Check-in', day(s.checkIn)],
    ['Check-out', day(s.checkOut)],
    ['Room', roomOf(s)],
    ['Guests', String(s.guests)],
    ['Guest', s.guestName],
  ];
}

/** `(BK-ABCD2345)` after a subject, where the booking has a reference. */
const refSuffix = (reference?: string) => (reference ? ` (${reference})` : '');

/** One paragraph, in both parts: the HTML's `<p>` and the text's line with a blank line after. */
const paragraphs = (lines: string[]) => ({
  html: lines.map((line) => <p>{line}</p>),
  text: lines.flatMap((line) => [line, '']),
});

const reasonLine = (reason?: string) => (reason?.trim() ? [`Reason: ${reason.trim()}`] : []);

function seeYourBooking(link?: string) {
  return {
    html: link ? <Button href={link}>See your booking</Button> : null,
    text: link ? [`See your booking: ${link}`, ''] : [],
  };
}

/**
 * A message about the stay as it now stands (changed or cancelled): the opening words, the stay's
 * facts, what follows, the link to the booking's page; the plain text says the same.
 */
function stayMessage(facts: ChangedStayFacts, title: string, subject: string, said: ReturnType<typeof paragraphs>, after: ReturnType<typeof paragraphs>): EmailMessage {
  const rows = stayRows(facts);
  const link = seeYourBooking(facts.link);
  return {
    subject: `${subject}: ${facts.hotel}, ${day(facts.checkIn)}${refSuffix(facts.bookingReference)}`,
    html: html(
      <Mail title={title} hotel={facts.hotel}>
        {said.html}
        <Facts rows={rows} />
        {after.html}
        {link.html}
      </Mail>,
    ),
    text: text([facts.hotel, '', ...said.text, ...rowsAsText(rows), '', ...after.text, ...link.text].slice(0, -1)),
  };
}

/** Staff changed the booking: it as it now stands. */
export function bookingChangedEmail(facts: ChangedStayFacts & { reason?: string }): EmailMessage {
  const said = paragraphs([`Dear ${facts.guestName}, ${facts.hotel} has changed your booking. This is your booking as it now stands:`]);
  const after = paragraphs([...reasonLine(facts.reason), 'If you did not expect this change, please contact the hotel.']);
  return stayMessage(facts, 'Your booking has been changed', 'Booking changed', said, after);
}

/** What the cancellation e-mail says of the money. */
function refundLines(refund: RefundOutlook): string[] {
  switch (refund.kind) {
    case 'nothing_paid':
      return ['Nothing was paid for this booking, so there is nothing to refund.'];
    case 'refund':
      return [`Your payment of ${formatAmount(refund.amountMinor, refund.currency)} will be refunded in full to the card you paid with. We will e-mail you when the refund is issued.`];
    case 'already_refunded':
      return ['Your payment has already been refunded.'];
    case 'no_refund':
      return ['No refund is made with this cancellation. If you have a question about your payment, please contact the hotel.'];
    case 'undecided':
      return ['If the hotel refunds your payment, you will get an e-mail when it does.'];
  }
}

/** The booking is cancelled: by whom in words, the stay it was, the hotel's message to the guest, and the money. */
export function bookingCancelledEmail(facts: ChangedStayFacts & { message?: string; byGuest: boolean; refund: RefundOutlook }): EmailMessage {
  const said = paragraphs([
    facts.byGuest
      ? `Dear ${facts.guestName}, as you asked, your booking at ${facts.hotel} is cancelled. The room is no longer held for you.`
      : `Dear ${facts.guestName}, ${facts.hotel} has cancelled your booking. The room is no longer held for you.`,
  ]);
  const after = paragraphs([...(facts.message?.trim() ? [`Message from the hotel: ${facts.message.trim()}`] : []), ...refundLines(facts.refund)]);
  return stayMessage(facts, 'Your booking has been cancelled', 'Booking cancelled', said, after);
}

/** A refund of the guest's payment, issued (or taken on by the provider). */
export function refundIssuedEmail(facts: RefundFacts): EmailMessage {
  const amount = formatAmount(facts.amountMinor, facts.currency);
  const title = facts.status === 'pending' ? 'Your refund is on its way' : 'Your refund has been issued';
  const rows: [string, string][] = [
    ...(facts.bookingReference ? [['Booking reference', facts.bookingReference] as [string, string]] : []),
    ['Refund', amount],
    ...(facts.paidMinor !== undefined ? [['You paid', formatAmount(facts.paidMinor, facts.currency)] as [string, string]] : []),
  ];
  const greeting = facts.guestName ? `Dear ${facts.guestName}, ` : '';
  const said = paragraphs([
    facts.status === 'pending'
      ? `${greeting}${facts.hotel} has started a refund of ${amount} to the card you paid with. The payment provider is processing it.`
      : `${greeting}${facts.hotel} has refunded ${amount} to the card you paid with.`,
  ]);
  const after = paragraphs([...reasonLine(facts.reason), 'Refunds usually show on your statement within 5 to 10 business days, depending on your bank.']);
  return {
    subject: `Refund of ${amount}: ${facts.hotel}${refSuffix(facts.bookingReference)}`,
    html: html(
      <Mail title={title} hotel={facts.hotel}>
        {said.html}
        <Facts rows={rows} />
        {after.html}
      </Mail>,
    ),
    text: text([facts.hotel, '', ...said.text, ...rowsAsText(rows), '', ...after.text].slice(0, -1)),
  };
}
