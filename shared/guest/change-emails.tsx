/**
 * The e-mails telling a guest what became of their booking (docs/behaviour.md "Booking changes,
 * cancellations and refunds"): changed (its dates, room or guests as they now stand), cancelled
 * (and whether a refund follows), a refund issued. Rendered like the confirmation (./emails.tsx):
 * preact escapes every value, the plain-text part says the same, dates as the pages write them,
 * amounts with their currency.
 */
import type { Translate } from '../i18n/translator';
import { Button, type EmailMessage, Facts, html, Mail, rowsAsText, text } from './emails';

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

function roomOf(t: Translate, s: ChangedStayFacts): string {
  if (s.roomNumber) return s.roomType ? t('details.roomValue', { number: s.roomNumber, category: s.roomType }) : s.roomNumber;
  return s.roomType ? t('mail.roomToAssign', { type: s.roomType }) : t('mail.roomToAssignNoType');
}

function stayRows(t: Translate, s: ChangedStayFacts): [string, string][] {
  return [
    ...(s.bookingReference ? [[t('booking.reference'), s.bookingReference] as [string, string]] : []),
    [t('field.check_in'), t.day(s.checkIn)],
    [t('field.check_out'), t.day(s.checkOut)],
    [t('booking.room'), roomOf(t, s)],
    [t('booking.guests'), t.count(s.guests)],
    [t('booking.guest'), s.guestName],
  ];
}

/** `(BK-ABCD2345)` after a subject, where the booking has a reference. */
const refSuffix = (reference?: string) => (reference ? ` (${reference})` : '');

/** One paragraph, in both parts: the HTML's `<p>` and the text's line with a blank line after. */
const paragraphs = (lines: string[]) => ({
  html: lines.map((line) => <p>{line}</p>),
  text: lines.flatMap((line) => [line, '']),
});

const reasonLine = (t: Translate, reason?: string) => (reason?.trim() ? [t('mail.reason', { reason: reason.trim() })] : []);

function seeYourBooking(t: Translate, link?: string) {
  return {
    html: link ? <Button href={link}>{t('mail.seeBooking')}</Button> : null,
    text: link ? [`${t('mail.seeBooking')}: ${link}`, ''] : [],
  };
}

/**
 * A message about the stay as it now stands (changed or cancelled): the opening words, the stay's
 * facts, what follows, the link to the booking's page; the plain text says the same.
 */
function stayMessage(t: Translate, facts: ChangedStayFacts, title: string, subject: string, said: ReturnType<typeof paragraphs>, after: ReturnType<typeof paragraphs>): EmailMessage {
  const rows = stayRows(t, facts);
  const link = seeYourBooking(t, facts.link);
  return {
    subject: `${subject}${refSuffix(facts.bookingReference)}`,
    html: html(
      <Mail t={t} title={title} hotel={facts.hotel}>
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
export function bookingChangedEmail(t: Translate, facts: ChangedStayFacts & { reason?: string }): EmailMessage {
  const said = paragraphs([`${t('mail.dear', { name: facts.guestName })} ${t('mail.changed.body', { hotel: facts.hotel })}`]);
  const after = paragraphs([...reasonLine(t, facts.reason), t('mail.changed.unexpected')]);
  return stayMessage(t, facts, t('mail.changed.title'), t('mail.changed.subject', { hotel: facts.hotel, date: t.day(facts.checkIn) }), said, after);
}

/** What the cancellation e-mail says of the money. */
function refundLines(t: Translate, refund: RefundOutlook): string[] {
  switch (refund.kind) {
    case 'nothing_paid':
      return [t('cancel.nothingPaid')];
    case 'refund':
      return [t('mail.refund.willRefund', { amount: t.moneyMinor(refund.amountMinor, refund.currency) })];
    case 'already_refunded':
      return [t('mail.refund.already')];
    case 'no_refund':
      return [t('mail.refund.none')];
    case 'undecided':
      return [t('cancel.hotelMayRefund')];
  }
}

/** The booking is cancelled: by whom in words, the stay it was, the hotel's message to the guest, and the money. */
export function bookingCancelledEmail(t: Translate, facts: ChangedStayFacts & { message?: string; byGuest: boolean; refund: RefundOutlook }): EmailMessage {
  const said = paragraphs([`${t('mail.dear', { name: facts.guestName })} ${t(facts.byGuest ? 'mail.cancelled.byGuest' : 'mail.cancelled.byHotel', { hotel: facts.hotel })}`]);
  const after = paragraphs([...(facts.message?.trim() ? [t('cancel.hotelMessage', { message: facts.message.trim() })] : []), ...refundLines(t, facts.refund)]);
  return stayMessage(t, facts, t('mail.cancelled.title'), t('mail.cancelled.subject', { hotel: facts.hotel, date: t.day(facts.checkIn) }), said, after);
}

/** A refund of the guest's payment, issued (or taken on by the provider). */
export function refundIssuedEmail(t: Translate, facts: RefundFacts): EmailMessage {
  const amount = t.moneyMinor(facts.amountMinor, facts.currency);
  const title = facts.status === 'pending' ? t('mail.refund.titlePending') : t('mail.refund.titleIssued');
  const rows: [string, string][] = [
    ...(facts.bookingReference ? [[t('booking.reference'), facts.bookingReference] as [string, string]] : []),
    [t('mail.refund.row'), amount],
    ...(facts.paidMinor !== undefined ? [[t('mail.refund.paid'), t.moneyMinor(facts.paidMinor, facts.currency)] as [string, string]] : []),
  ];
  const greeting = facts.guestName ? `${t('mail.dear', { name: facts.guestName })} ` : '';
  const said = paragraphs([`${greeting}${t(facts.status === 'pending' ? 'mail.refund.pending' : 'mail.refund.issued', { hotel: facts.hotel, amount })}`]);
  const after = paragraphs([...reasonLine(t, facts.reason), t('cancel.refundDelay')]);
  return {
    subject: `${t('mail.refund.subject', { amount, hotel: facts.hotel })}${refSuffix(facts.bookingReference)}`,
    html: html(
      <Mail t={t} title={title} hotel={facts.hotel}>
        {said.html}
        <Facts rows={rows} />
        {after.html}
      </Mail>,
    ),
    text: text([facts.hotel, '', ...said.text, ...rowsAsText(rows), '', ...after.text].slice(0, -1)),
  };
}
