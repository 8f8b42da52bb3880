/**
 * What a booking's confirmation e-mail says of its money and its terms (docs/behaviour.md "The
 * guest's booking page as a storefront"): the taxes in its total, the hotel's cancellation
 * policy and until when the guest may cancel free of charge, in the hotel's time.
 */
import type { BookingConfirmationFacts } from '../../guest/emails';
import { freeCancellationUntil } from './cancel-window';
import type { GuestClient } from './guest-client';

export function confirmationTerms(
  client: Pick<GuestClient, 'time_zone' | 'check_in_time' | 'free_cancellation_hours' | 'cancellation_policy'>,
  booking: { check_in_date: string; taxes?: number; taxes_included?: boolean; tax_percent?: number },
): Pick<BookingConfirmationFacts, 'taxes' | 'cancellationPolicy' | 'freeCancellation'> {
  return {
    ...(booking.taxes ? { taxes: { amount: booking.taxes, included: booking.taxes_included === true, percent: booking.tax_percent ?? 0 } } : {}),
    ...(client.cancellation_policy ? { cancellationPolicy: client.cancellation_policy } : {}),
    freeCancellation: { until: freeCancellationUntil(client, booking.check_in_date).toISOString(), timeZone: client.time_zone },
  };
}
