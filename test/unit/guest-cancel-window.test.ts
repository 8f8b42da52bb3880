/**
 * Until when a guest may cancel their own booking (shared/domain/guest-booking/guest-cancel.ts):
 * `free_cancellation_hours` before the check-in date at the hotel's check-in time (midnight where
 * it has none), on the hotel's clock, clock changes included.
 */
import { describe, expect, it } from 'vitest';
import { cancelOffer, checkInMoment, freeCancellationUntil } from '../../shared/domain/guest-booking/cancel-window';
import type { GuestClient } from '../../shared/domain/guest-booking/guest-client';

const hotel = (settings: Partial<GuestClient> = {}): GuestClient => ({
  client_id: '00000000-0000-4000-8000-000000000000',
  page: '00000000-0000-4000-8000-000000000000',
  tax_percent: 0,
  name: 'Hotel Miramar',
  currency: 'EUR',
  pay_at_property: false,
  booking_horizon_days: 365,
  time_zone: 'UTC',
  free_cancellation_hours: 48,
  ...settings,
});

describe('the check-in moment', () => {
  it('is the check-in date at the check-in time in the hotel zone, midnight without one', () => {
    expect(checkInMoment('UTC', '2027-03-12').toISOString()).toBe('2027-03-12T00:00:00.000Z');
    expect(checkInMoment('Europe/Madrid', '2027-07-12', '15:00').toISOString()).toBe('2027-07-12T13:00:00.000Z');
    expect(checkInMoment('America/New_York', '2027-01-12', '16:30').toISOString()).toBe('2027-01-12T21:30:00.000Z');
    expect(checkInMoment('Asia/Tokyo', '2027-01-12').toISOString()).toBe('2027-01-11T15:00:00.000Z');
  });

  it('keeps the wall-clock time on a day the clocks change before it', () => {
    // Europe/Madrid springs forward at 02:00 on 28 March 2027: 15:00 is then UTC+2.
    expect(checkInMoment('Europe/Madrid', '2027-03-28', '15:00').toISOString()).toBe('2027-03-28T13:00:00.000Z');
    // And falls back at 03:00 on 31 October 2027: 15:00 is then UTC+1.
    expect(checkInMoment('Europe/Madrid', '2027-10-31', '15:00').toISOString()).toBe('2027-10-31T14:00:00.000Z');
  });
});

describe('the free cancellation', () => {
  it('ends free_cancellation_hours before check-in', () => {
    expect(freeCancellationUntil(hotel(), '2027-03-12').toISOString()).toBe('2027-03-10T00:00:00.000Z');
    expect(freeCancellationUntil(hotel({ time_zone: 'Europe/Madrid', check_in_time: '15:00', free_cancellation_hours: 24 }), '2027-07-12').toISOString()).toBe(
      '2027-07-11T13:00:00.000Z',
    );
    expect(freeCancellationUntil(hotel({ free_cancellation_hours: 0, check_in_time: '14:00' }), '2027-03-12').toISOString()).toBe('2027-03-12T14:00:00.000Z');
  });

  it('is offered to a confirmed booking until then, not a moment after; never to one not confirmed', () => {
    const client = hotel({ time_zone: 'Europe/Madrid', check_in_time: '15:00' });
    const stay = { status: 'confirmed', check_in: '2027-07-12' };
    expect(cancelOffer(client, stay, new Date('2027-07-10T12:59:59.999Z'))).toEqual({ kind: 'open', until: new Date('2027-07-10T13:00:00.000Z') });
    expect(cancelOffer(client, stay, new Date('2027-07-10T13:00:00.000Z'))).toEqual({ kind: 'closed', ended: new Date('2027-07-10T13:00:00.000Z') });
    for (const status of ['cancelled', 'checked_in', 'checked_out', 'no_show', undefined]) {
      expect(cancelOffer(client, { status, check_in: '2027-07-12' }, new Date('2027-01-01T00:00:00Z'))).toBeUndefined();
    }
  });
});
