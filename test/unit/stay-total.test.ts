/**
 * What a staff change does to a booking's money (shared/domain/bookings/stay-total.ts): the room
 * revenue and, for a booking that was taxed, the taxes at the hotel's rate now, so the booking
 * page's "Total" and "Balance due" stay what the guest pays.
 */
import { describe, expect, it } from 'vitest';
import { changedMoney, totalChoiceOf } from '../../shared/domain/bookings/stay-total';

const TEN = { tax_percent: 10 };

describe('changedMoney', () => {
  it('leaves a booking without taxes untaxed, whatever the hotel charges now', () => {
    expect(changedMoney('recalculate', { total_amount: 240 }, 360, TEN, 'USD')).toEqual({ total_amount: 360 });
    expect(changedMoney(300, { total_amount: 240 }, 360, TEN, 'USD')).toEqual({ total_amount: 300 });
  });

  it('adds the taxes to a recalculated price, or finds them in it when the hotel includes them', () => {
    expect(changedMoney('recalculate', { total_amount: 240, taxes_amount: 24 }, 360, TEN, 'USD')).toEqual({ total_amount: 360, taxes_amount: 36 });
    expect(changedMoney('recalculate', { total_amount: 218.18, taxes_amount: 21.82 }, 360, { ...TEN, taxes_included: true }, 'USD')).toEqual({ total_amount: 327.27, taxes_amount: 32.73 });
    expect(changedMoney('recalculate', { total_amount: 10000, taxes_amount: 1000 }, 15000, { tax_percent: 8 }, 'JPY')).toEqual({ total_amount: 15000, taxes_amount: 1200 });
  });

  it('reads an amount staff give as what the guest pays in all', () => {
    expect(changedMoney(330, { total_amount: 240, taxes_amount: 24 }, 360, TEN, 'USD')).toEqual({ total_amount: 300, taxes_amount: 30 });
  });

  it('drops the taxes of a hotel that no longer charges any', () => {
    expect(changedMoney('recalculate', { total_amount: 240, taxes_amount: 24 }, 360, { tax_percent: 0 }, 'USD')).toEqual({ total_amount: 360 });
  });

  it('keeps both on "keep", and when there is no room to price', () => {
    const booked = { total_amount: 240, taxes_amount: 24 };
    expect(changedMoney('keep', booked, 360, TEN, 'USD')).toEqual(booked);
    expect(changedMoney('recalculate', booked, undefined, TEN, 'USD')).toEqual(booked);
    expect(changedMoney('keep', {}, 360, TEN, 'USD')).toEqual({});
  });
});

describe('totalChoiceOf', () => {
  it('reads recalculate (the default), keep and amounts, and nothing else', () => {
    expect([totalChoiceOf(undefined), totalChoiceOf('keep'), totalChoiceOf('807.00'), totalChoiceOf('8.075'), totalChoiceOf('-1')]).toEqual(['recalculate', 'keep', 807, undefined, undefined]);
  });
});
