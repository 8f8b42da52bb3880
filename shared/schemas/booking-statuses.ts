/**
 * A booking's statuses, without a schema: the stores, the dashboard and the domain read them
 * without loading the sync request schemas (shared/schemas/property-sync.ts builds every one of
 * them when it is loaded, a cold-start cost of each function that imports it; BENCHMARKS.md).
 */
export const BOOKING_STATUSES = ['pending', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'no_show'] as const;
export const ACTIVE_BOOKING_STATUSES: readonly BookingStatus[] = ['pending', 'confirmed', 'checked_in'];
export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'refunded'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
