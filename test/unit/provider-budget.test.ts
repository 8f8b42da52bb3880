/**
 * A provider call that hangs never outlives the function (docs/behaviour.md "Guest booking and the
 * reception QR code", Abuse):
 * the Stripe client's whole budget (two tries of STRIPE_TIMEOUT_MS and the SDK's wait between
 * them) fits in every Stripe-calling function's timeout with room for its table work, so the
 * guest gets our 503 page (and the hold is released) instead of a killed invocation. And the
 * Checkout Session's `expires_at` is the hold's end, or Stripe's shortest when that is nearer.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, routesOfStage } from '../../definitions/routes';
import { sourceBlock } from '../../shared/net/source-block';
import { sessionExpiresAt, STRIPE_CALL_BUDGET_MS, STRIPE_CHECKOUT_LEAD_MS, STRIPE_MAX_NETWORK_RETRIES, STRIPE_TIMEOUT_MS, stripeCheckoutEnd } from '../../shared/payments/stripe';

/** What a function needs besides the Stripe call: its reads, the hold's release, the answer. */
const TABLE_WORK_MS = 2_000;

describe('the Stripe budget', () => {
  const stripeRoutes = routesOfStage({ sandboxPayments: true }).filter((r) => r.access.providerSecrets?.includes('stripeSecretKey'));

  it('covers the functions that call Stripe', () => {
    expect(stripeRoutes.map((r) => r.function ?? r.id)).toEqual(expect.arrayContaining(['CreatePaymentOrder', 'VerifyPaymentOrder', 'GuestBooking']));
  });

  it('is two tries of 3 s and one 0.5 s wait: 6.5 s', () => {
    expect([STRIPE_TIMEOUT_MS, STRIPE_MAX_NETWORK_RETRIES, STRIPE_CALL_BUDGET_MS]).toEqual([3_000, 1, 6_500]);
  });

  it.each(routesOfStage({ sandboxPayments: true }).filter((r) => r.access.providerSecrets?.includes('stripeSecretKey')).map((r) => [r.id, r] as const))(
    '%s ends a hung Stripe call with time to spare',
    (_id, route) => {
      expect(STRIPE_CALL_BUDGET_MS + TABLE_WORK_MS).toBeLessThanOrEqual((route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS) * 1000);
    },
  );
});

describe('sessionExpiresAt', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  const seconds = (d: Date) => d.getTime() / 1000;

  it('is the hold\'s end when Stripe takes it (at least 30 minutes and 10 s away)', () => {
    const end = new Date(now.getTime() + 45 * 60_000);
    expect(sessionExpiresAt(end, now)).toBe(seconds(end));
  });

  it('is Stripe\'s shortest when the hold ends sooner: never refused for being under 30 minutes', () => {
    expect(sessionExpiresAt(new Date(now.getTime() + 30 * 60_000), now)).toBe(seconds(now) + 30 * 60 + 10);
  });
});

describe("stripeCheckoutEnd: a guest's hold lasts as long as its session (a checkout cannot be paid after its hold ends)", () => {
  const now = new Date('2026-11-25T12:00:00.000Z');

  it('is the 30-minute hold made long enough for Stripe\'s shortest session opened up to STRIPE_CHECKOUT_LEAD_MS later', () => {
    const end = stripeCheckoutEnd(new Date(now.getTime() + 30 * 60_000), now);
    expect(end.getTime()).toBe(now.getTime() + 30 * 60_000 + 10_000 + STRIPE_CHECKOUT_LEAD_MS);
    // Whole seconds, as Stripe keeps expires_at: the session ends exactly when the hold does.
    expect(end.getTime() % 1000).toBe(0);
    // A session asked for that end, any time within the lead, is given exactly that end.
    for (const after of [0, 1_000, STRIPE_CHECKOUT_LEAD_MS]) expect(sessionExpiresAt(end, new Date(now.getTime() + after))).toBe(end.getTime() / 1000);
    // Later than the lead, Stripe would need a later end: the adapter opens no session then (503).
    expect(sessionExpiresAt(end, new Date(now.getTime() + STRIPE_CHECKOUT_LEAD_MS + 2_000))).toBeGreaterThan(end.getTime() / 1000);
  });

  it('leaves a longer wanted end as it is', () => {
    const wanted = new Date(now.getTime() + 60 * 60_000);
    expect(stripeCheckoutEnd(wanted, now)).toEqual(wanted);
  });
});

describe('sourceBlock: what one source address counts as', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2::9', '2001:0db8:0001:0002::/64'],
    ['2001:DB8:1:2:ffff::1', '2001:0db8:0001:0002::/64'],
    ['2001:db8::1', '2001:0db8:0000:0000::/64'],
    ['::1', '0000:0000:0000:0000::/64'],
  ])('%s -> %s', (address, block) => {
    expect(sourceBlock(address)).toBe(block);
  });
});
