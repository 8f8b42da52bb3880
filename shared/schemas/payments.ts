/** Payment order request (docs/behaviour.md "Payment orders"). */
import * as z from 'zod/mini';
import { type AppError, errors } from '../errors';
import { calendarDate, count, email, guestName, identifier, phone, text } from './common';

export const MAX_AMOUNT_MINOR = 1_000_000_000_000;

/**
 * The partner reference prefix of the orders the guest booking page makes for itself
 * (shared/domain/guest-booking/online-checkout.ts): their return URLs are the guest's
 * confirmation page, and no partner may create one (docs/reliability.md "Only the guest holds a guest's
 * booking").
 */
export const GUEST_ORDER_PREFIX = 'guest:';

/** An order the guest booking page made for itself (its return URLs are the guest's confirmation page), not a partner's. */
export const isGuestPageOrder = (order: { external_reference: string }) => order.external_reference.startsWith(GUEST_ORDER_PREFIX);

/** What a tester can choose on the sandbox provider's hosted page. */
export const SANDBOX_OUTCOMES = ['paid', 'cancelled', 'failed'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** ISO 4217 minor units that are not 2. */
const MINOR_UNITS: Record<string, number> = { JPY: 0, KRW: 0, VND: 0, CLP: 0, ISK: 0, UGX: 0, XAF: 0, XOF: 0, KWD: 3, BHD: 3, JOD: 3, OMR: 3, TND: 3 };

export function minorUnits(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

export function majorAmount(amountMinor: number, currency: string): number {
  return amountMinor / 10 ** minorUnits(currency);
}

export const paymentOrderRequest = z.object({
  reference: z.string().check(
    z.minLength(1),
    z.maxLength(100),
    z.regex(/^[A-Za-z0-9._:-]+$/, 'use 1 to 100 of A-Z a-z 0-9 . _ : -'),
    // The guest booking page's own orders (its return URLs are the guest's page): no partner's.
    z.refine((reference) => !reference.startsWith(GUEST_ORDER_PREFIX), `must not start with ${GUEST_ORDER_PREFIX} (reserved for the service's own guest booking page)`),
  ),
  amount_minor: z.number().check(z.int(), z.minimum(1), z.maximum(MAX_AMOUNT_MINOR)),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an uppercase ISO 4217 code')),
  customer: z.object({
    name: z.optional(guestName),
    email,
    phone: z.optional(phone),
  }),
  context: z.optional(
    z.object({
      type: z.optional(identifier),
      booking_id: z.optional(identifier),
      department: z.optional(text),
      check_in_date: z.optional(calendarDate),
      check_out_date: z.optional(calendarDate),
      guests: z.optional(count),
      service_room_id: z.optional(z.uuid()),
      external_rate_plan_id: z.optional(identifier),
      // Of the amount, the taxes (minor units): the booking's room revenue is the rest.
      taxes_minor: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(MAX_AMOUNT_MINOR))),
    }),
  ),
  success_url: z.url({ protocol: /^https?$/ }).check(z.maxLength(2000)),
  cancel_url: z.url({ protocol: /^https?$/ }).check(z.maxLength(2000)),
});
export type PaymentOrderRequest = z.infer<typeof paymentOrderRequest>;

/** The spec's own codes for the fields it names; other problems are VALIDATION_ERROR. */
export function paymentOrderIssue(issues: readonly z.core.$ZodIssue[]): AppError | undefined {
  const at = (...path: PropertyKey[]) => issues.find((i) => path.every((p, n) => i.path[n] === p));
  if (at('amount_minor')) return errors.invalidAmount(MAX_AMOUNT_MINOR);
  if (at('currency')) return errors.invalidCurrency();
  if (at('customer', 'email') || (at('customer') && !issues.some((i) => i.path.length > 1 && i.path[0] === 'customer'))) {
    return errors.customerEmailRequired();
  }
  return undefined;
}

export const orderReferenceParam = z.object({ order_reference: z.string().check(z.regex(/^PO-[A-Z0-9]{12}$/, 'not an order reference')) });

/** A refund of a paid order: no amount refunds what is left. */
export const refundRequest = z.object({
  amount_minor: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_AMOUNT_MINOR))),
  reason: z.optional(text.check(z.minLength(1))),
});
export type RefundRequest = z.infer<typeof refundRequest>;

/** `amount_minor` problems have the spec's code; others are VALIDATION_ERROR. */
export function refundIssue(issues: readonly z.core.$ZodIssue[]): AppError | undefined {
  return issues.some((i) => i.path[0] === 'amount_minor') ? errors.invalidAmount(MAX_AMOUNT_MINOR) : undefined;
}

/** `return`: the attempt's return secret, in the provider's redirect only (order-references.ts). */
export const verifyQuery = z.object({ reference: z.string().check(z.minLength(1), z.maxLength(128)), return: z.optional(z.string().check(z.maxLength(128))) });

/**
 * What a room booking paid below its room's rate (or in another currency) does, a client
 * setting: `lock` takes the room as any paid booking, `manual` leaves it for staff to assign.
 */
export const BELOW_RATE_ORDERS = ['lock', 'manual'] as const;
export type BelowRateOrders = (typeof BELOW_RATE_ORDERS)[number];
