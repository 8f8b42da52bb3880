/**
 * What a booking owes with the hotel's taxes (shared/domain/bookings/booking-money.ts): a booking
 * keeps its room revenue as `total_amount` and the taxes beside it, and the front desk's balance
 * is what the guest was told to pay, taxes included.
 */
import { beforeAll, describe, expect, it } from 'vitest';

// The module also reads orders from the table (bookingsMoney); these tests only compute.
process.env.STAGE = 'unit';
process.env.TABLE_NAME = 'unit-test-table';
process.env.AWS_REGION = 'us-east-1';
let bookingMoney: typeof import('../../shared/domain/bookings/booking-money').bookingMoney;
beforeAll(async () => {
  ({ bookingMoney } = await import('../../shared/domain/bookings/booking-money'));
});

describe('bookingMoney with taxes', () => {
  it('a pay-at-the-hotel booking owes the room price and its taxes', () => {
    const money = bookingMoney({ status: 'confirmed', payment_status: 'unpaid', payment_method: 'pay_at_property', total_amount: 240, taxes_amount: 24 });
    expect(money).toMatchObject({ words: 'Pay at the hotel', owed: 264, held: 0, balance_due: 264 });
  });

  it('a booking paid online with its taxes owes nothing, and a refund of the taxes leaves the room price owed', () => {
    const booking = { status: 'confirmed', payment_status: 'paid', total_amount: 240, taxes_amount: 24 };
    expect(bookingMoney(booking, { status: 'paid', amount_minor: 26400, currency: 'USD', amount_refunded_minor: 0 })).toMatchObject({ words: 'Paid', balance_due: 0 });
    expect(bookingMoney(booking, { status: 'partially_refunded', amount_minor: 26400, currency: 'USD', amount_refunded_minor: 12400 })).toMatchObject({ words: 'Partly refunded', held: 140, balance_due: 124 });
  });

  it('without taxes the total is the room price, as before', () => {
    expect(bookingMoney({ status: 'confirmed', payment_status: 'unpaid', total_amount: 240 })).toMatchObject({ words: 'Unpaid', owed: 240, balance_due: 240 });
  });
});
