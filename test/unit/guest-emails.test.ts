/**
 * The e-mails to guests as rendered (shared/guest/emails.tsx): every value escaped in the HTML,
 * the plain-text part saying the same, and the sender's display name safe in its header
 * (shared/email/ses.ts).
 */
import { describe, expect, it } from 'vitest';
import { translator } from '../../shared/i18n/translator';
import { fromAddress } from '../../shared/email/ses';

/** English: the language of a booking made when nothing else was chosen. */
const t = await translator('en');
import { bookingConfirmationEmail, confirmYourBookingEmail } from '../../shared/guest/emails';

const stay = {
  hotel: 'Grand <b>"Lake"</b> & Spa',
  guestName: 'Ada <script>alert(1)</script>',
  checkIn: '2027-03-12',
  checkOut: '2027-03-15',
  guests: 2,
  roomType: 'double',
  roomNumber: '101',
  total: 360,
  currency: 'EUR',
};

describe('the confirmation e-mail', () => {
  const email = bookingConfirmationEmail(t, { ...stay, bookingReference: 'BK-ABCD2345', confirmationCode: 'XY7Z9Q', paid: true, link: 'https://api.example/book/c/confirmation/t?x=1&y=2' });

  it('says hotel, dates, room type, total, reference, code and the link, in both parts', () => {
    expect(email.subject).toBe('Booking confirmed: Grand <b>"Lake"</b> & Spa, Fri, 12 Mar 2027 (BK-ABCD2345)');
    expect(email.text).toBe(
      [
        'Grand <b>"Lake"</b> & Spa',
        '',
        'Dear Ada <script>alert(1)</script>,',
        '',
        'Thank you: your room is booked and the hotel has your booking.',
        '',
        'Booking reference: BK-ABCD2345',
        'Confirmation code: XY7Z9Q',
        'Show them at the reception desk.',
        '',
        'Check-in: Fri, 12 Mar 2027',
        'Check-out: Mon, 15 Mar 2027',
        'Room: 101, double',
        'Guests: 2',
        'Guest: Ada <script>alert(1)</script>',
        'Total: 360.00 EUR',
        'Payment: Paid',
        '',
        'See your booking: https://api.example/book/c/confirmation/t?x=1&y=2',
        'The link shows your booking again: keep it to yourself.',
        '',
      ].join('\n'),
    );
    for (const fact of ['BK-ABCD2345', 'XY7Z9Q', 'Fri, 12 Mar 2027', 'Mon, 15 Mar 2027', '101, double', '360.00 EUR']) expect(email.html).toContain(fact);
  });

  it('escapes every value in the HTML', () => {
    expect(email.html).toMatch(/^<!doctype html><html lang="en">/);
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<b>"Lake"</b>');
    expect(email.html).toContain('Ada &lt;script>alert(1)&lt;/script>');
    expect(email.html).toContain('href="https://api.example/book/c/confirmation/t?x=1&amp;y=2"');
  });

  it('says from when to check in and where, as far as the hotel has said', () => {
    const told = bookingConfirmationEmail(t, { ...stay, bookingReference: 'BK-1', confirmationCode: 'C', paid: true, link: 'https://x', checkInTime: '15:00', address: 'Lake Road 1\n6300 Zug' });
    expect(told.text).toContain('Show them at the reception desk.\n\nCheck-in is from 3:00 PM on Fri, 12 Mar 2027.\nThe hotel\'s address: Lake Road 1, 6300 Zug\n\nCheck-in: Fri, 12 Mar 2027');
    expect(told.html).toContain('<p>Check-in is from 3:00 PM on Fri, 12 Mar 2027.</p>');
    expect(told.html).toContain("<p>The hotel's address: Lake Road 1, 6300 Zug</p>");
  });

  it('names the room type alone while the hotel is to assign a room', () => {
    const awaiting = bookingConfirmationEmail(t, { ...stay, roomNumber: null, bookingReference: 'BK-1', confirmationCode: 'C', paid: true, link: 'https://x' });
    expect(awaiting.text).toContain('Room: double (the hotel assigns the room on arrival)');
  });
});

describe('the "Confirm your booking" e-mail', () => {
  it('asks to confirm before the hold ends, with the link', () => {
    const email = confirmYourBookingEmail(t, { ...stay, link: 'https://api.example/book/c/confirm/s', confirmBy: '2027-03-01T10:30:00.000Z' });
    expect(email.subject).toBe('Confirm your booking at Grand <b>"Lake"</b> & Spa');
    expect(email.text).toContain('The room is held for you until Mon, 1 Mar 2027, 10:30 AM hotel time; without your confirmation the booking is cancelled then.');
    expect(email.text).toContain('Confirm your booking: https://api.example/book/c/confirm/s');
    expect(email.text).toContain('3 nights, to pay at the hotel');
    expect(email.html).toContain('href="https://api.example/book/c/confirm/s"');
    expect(email.html).not.toContain('<script>');
  });
});

describe('the sender', () => {
  it('quotes a plain display name, MIME-encodes any other, and keeps it on one line', () => {
    expect(fromAddress('Hotel Miramar', 'bookings@hotel.example')).toBe('"Hotel Miramar" <bookings@hotel.example>');
    expect(fromAddress('The "Lake" \\ Spa', 'b@h.example')).toBe('"The \\"Lake\\" \\\\ Spa" <b@h.example>');
    expect(fromAddress('Hôtel Étoile', 'b@h.example')).toBe(`=?UTF-8?B?${Buffer.from('Hôtel Étoile').toString('base64')}?= <b@h.example>`);
    expect(fromAddress('Evil\r\nBcc: x@y.example', 'b@h.example')).toBe('"Evil Bcc: x@y.example" <b@h.example>');
    expect(fromAddress('  ', 'b@h.example')).toBe('b@h.example');
  });
});
