/**
 * The e-mails of a booking's changes as rendered (shared/guest/change-emails.tsx): changed,
 * cancelled (and what becomes of the money), a refund issued. Every value escaped in the HTML,
 * the plain-text part saying the same, dates as the pages write them, amounts with their currency.
 */
import { describe, expect, it } from 'vitest';
import { translator } from '../../shared/i18n/translator';

/** English: the language of a booking made when nothing else was chosen. */
const t = await translator('en');
import { bookingCancelledEmail, bookingChangedEmail, refundIssuedEmail } from '../../shared/guest/change-emails';

const stay = {
  hotel: 'Grand <b>"Lake"</b> & Spa',
  guestName: 'Ada <script>alert(1)</script>',
  bookingReference: 'BK-ABCD2345',
  checkIn: '2027-03-12',
  checkOut: '2027-03-15',
  guests: 2,
  roomNumber: '201',
  roomType: 'suite',
};

function expectEscaped(html: string) {
  expect(html).toMatch(/^<!doctype html><html lang="en">/);
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('<b>"Lake"</b>');
  expect(html).toContain('Ada &lt;script>alert(1)&lt;/script>');
  expect(html).toContain('Grand &lt;b>&quot;Lake&quot;&lt;/b> &amp; Spa');
}

describe('the "booking changed" e-mail', () => {
  const email = bookingChangedEmail(t, { ...stay, link: 'https://api.example/book/c/confirmation/t?x=1&y=2', reason: 'Room <201> upgraded' });

  it('tells the booking as it now stands, the reason and the link, in both parts', () => {
    expect(email.subject).toBe('Booking changed: Grand <b>"Lake"</b> & Spa, Fri, 12 Mar 2027 (BK-ABCD2345)');
    expect(email.text).toBe(
      [
        'Grand <b>"Lake"</b> & Spa',
        '',
        'Dear Ada <script>alert(1)</script>, Grand <b>"Lake"</b> & Spa has changed your booking. This is your booking as it now stands:',
        '',
        'Booking reference: BK-ABCD2345',
        'Check-in: Fri, 12 Mar 2027',
        'Check-out: Mon, 15 Mar 2027',
        'Room: 201, suite',
        'Guests: 2',
        'Guest: Ada <script>alert(1)</script>',
        '',
        'Reason: Room <201> upgraded',
        '',
        'If you did not expect this change, please contact the hotel.',
        '',
        'See your booking: https://api.example/book/c/confirmation/t?x=1&y=2',
        '',
      ].join('\n'),
    );
    for (const fact of ['BK-ABCD2345', 'Fri, 12 Mar 2027', 'Mon, 15 Mar 2027', '201, suite', 'Reason: Room &lt;201> upgraded']) expect(email.html).toContain(fact);
    expect(email.html).toContain('href="https://api.example/book/c/confirmation/t?x=1&amp;y=2"');
  });

  it('escapes every value in the HTML', () => expectEscaped(email.html));

  it('has no link or reason where there is none, and names the room type alone while the hotel is to assign a room', () => {
    const plain = bookingChangedEmail(t, { ...stay, roomNumber: null });
    expect(plain.text).not.toMatch(/Reason|See your booking/);
    expect(plain.html).not.toContain('<a ');
    expect(plain.text).toContain('Room: suite (the hotel assigns the room on arrival)');
  });
});

describe('the "booking cancelled" e-mail', () => {
  it("a guest's own cancellation of a paid booking: the refund in full, with its amount", () => {
    const email = bookingCancelledEmail(t, { ...stay, byGuest: true, refund: { kind: 'refund', amountMinor: 75050, currency: 'EUR' } });
    expect(email.subject).toBe('Booking cancelled: Grand <b>"Lake"</b> & Spa, Fri, 12 Mar 2027 (BK-ABCD2345)');
    expect(email.text).toContain('Dear Ada <script>alert(1)</script>, as you asked, your booking at Grand <b>"Lake"</b> & Spa is cancelled.');
    expect(email.text).toContain('Check-in: Fri, 12 Mar 2027\nCheck-out: Mon, 15 Mar 2027\nRoom: 201, suite');
    expect(email.text).toContain('Your payment of 750.50 EUR will be refunded in full to the card you paid with. We will e-mail you when the refund is issued.');
    // No message from the hotel: nothing more is said.
    expect(email.text).not.toContain('Message from the hotel');
    expect(email.html).toContain('750.50 EUR');
    expectEscaped(email.html);
  });

  it("the hotel's cancellation: its message to the guest, and what becomes of the money as the hotel said", () => {
    const kept = bookingCancelledEmail(t, { ...stay, byGuest: false, message: 'Water <damage>', refund: { kind: 'no_refund' } });
    expect(kept.text).toContain('Grand <b>"Lake"</b> & Spa has cancelled your booking.');
    expect(kept.text).toContain('Message from the hotel: Water <damage>\n\nNo refund is made with this cancellation.');
    expect(kept.html).toContain('Message from the hotel: Water &lt;damage>');
    expect(bookingCancelledEmail(t, { ...stay, byGuest: false, refund: { kind: 'undecided' } }).text).toContain('If the hotel refunds your payment, you will get an e-mail when it does.');
    expect(bookingCancelledEmail(t, { ...stay, byGuest: true, refund: { kind: 'nothing_paid' } }).text).toContain('Nothing was paid for this booking, so there is nothing to refund.');
    expect(bookingCancelledEmail(t, { ...stay, byGuest: true, refund: { kind: 'refund', amountMinor: 5000, currency: 'JPY' } }).text).toContain('Your payment of 5,000 JPY');
  });
});

describe('the "refund issued" e-mail', () => {
  it('says the amount with its currency, what was paid, the reason and the booking', () => {
    const email = refundIssuedEmail(t, { hotel: stay.hotel, guestName: stay.guestName, bookingReference: 'BK-ABCD2345', amountMinor: 12000, currency: 'USD', paidMinor: 36000, status: 'succeeded', reason: 'Late <check-in>' });
    expect(email.subject).toBe('Refund of 120.00 USD: Grand <b>"Lake"</b> & Spa (BK-ABCD2345)');
    expect(email.text).toBe(
      [
        'Grand <b>"Lake"</b> & Spa',
        '',
        'Dear Ada <script>alert(1)</script>, Grand <b>"Lake"</b> & Spa has refunded 120.00 USD to the card you paid with.',
        '',
        'Booking reference: BK-ABCD2345',
        'Refund: 120.00 USD',
        'You paid: 360.00 USD',
        '',
        'Reason: Late <check-in>',
        '',
        'Refunds usually show on your statement within 5 to 10 business days, depending on your bank.',
        '',
      ].join('\n'),
    );
    expect(email.html).toContain('Your refund has been issued');
    expect(email.html).toContain('Reason: Late &lt;check-in>');
    expectEscaped(email.html);
  });

  it('a refund the provider settles later says it is on its way', () => {
    const email = refundIssuedEmail(t, { hotel: 'Hotel Miramar', amountMinor: 100, currency: 'EUR', status: 'pending' });
    expect(email.html).toContain('Your refund is on its way');
    expect(email.text).toContain('Hotel Miramar has started a refund of 1.00 EUR to the card you paid with.');
    expect(email.subject).toBe('Refund of 1.00 EUR: Hotel Miramar');
  });
});
