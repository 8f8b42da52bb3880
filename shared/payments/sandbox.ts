/**
 * The sandbox provider (docs/behaviour.md "Sandbox payment provider"): its checkout sessions live on
 * the table (shared/store/sandbox-store.ts); its hosted page lets a tester choose paid, cancelled or failed.
 * It refunds paid sessions at once, never more than was paid; a refund whose reason is
 * SANDBOX_FAIL_REFUND_REASON fails instead (the test hook for a provider that refuses a refund).
 */
import { randomBytes } from 'node:crypto';
import { config } from '../config';
import type { SandboxOutcome } from '../schemas/payments';
import { errors } from '../errors';
import {
  completeOpenSandboxSession,
  putSandboxRefund,
  putSandboxSession,
  readSandboxRefund,
  readSandboxSession,
  type SandboxRefund,
  type SandboxSession,
} from '../store/sandbox-store';
import type { Checkout, CheckoutRequest, CheckoutState, PaymentProvider, ProviderPayment, ProviderRefund, RefundRequest } from './provider';

/** An open session past its `expires_at` is expired, whether or not anyone wrote that down yet. */
export function sandboxSessionState(session: SandboxSession, now = new Date()): CheckoutState {
  if (session.state === 'open' && session.expires_at && session.expires_at <= now.toISOString()) return 'expired';
  return session.state;
}

/**
 * The sandbox checkout's origin (SANDBOX_BASE_URL), where its page is: like Stripe's, never the
 * API's. Only the functions that open checkouts are given it; failing loudly elsewhere.
 */
export function sandboxCheckoutBaseUrl(): string {
  const url = config().sandboxBaseUrl;
  if (!url) throw new Error('Missing required environment variable SANDBOX_BASE_URL (the sandbox checkout\'s origin)');
  return url;
}

export function sandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    // Its sessions expire exactly when asked.
    checkoutEnd: (wanted) => wanted,
    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      // Random, so a session id says nothing about the order; a concurrent create that loses the
      // order's transaction leaves an unused session behind, which nobody can reach.
      const providerReference = `sbx_${randomBytes(12).toString('hex')}`;
      const checkoutUrl = `${sandboxCheckoutBaseUrl()}/checkout/${providerReference}`;
      const session: SandboxSession = {
        provider_reference: providerReference,
        order_reference: request.orderReference,
        amount_minor: request.amountMinor,
        currency: request.currency,
        customer: request.customer,
        description: request.description,
        ...(request.lines ? { lines: request.lines.map((line) => ({ name: line.name, amount_minor: line.amountMinor })) } : {}),
        ...(request.language ? { language: request.language } : {}),
        return_url: request.returnUrl,
        state: 'open',
        created_at: new Date().toISOString(),
        ...(request.expiresAt ? { expires_at: request.expiresAt.toISOString() } : {}),
      };
      await putSandboxSession(session);
      return { providerReference, checkoutUrl };
    },
    refund: sandboxRefund,
    getRefund: getSandboxRefund,
    // The sandbox keeps a session's refunds by our refund id.
    async findRefund(lookup) {
      if (!config().sandboxPayments) return undefined;
      const refund = await readSandboxRefund(lookup.checkoutReference, lookup.refundId);
      return refund && refundView(refund);
    },
    async getPayment(providerReference: string): Promise<ProviderPayment> {
      const session = await getSandboxSession(providerReference);
      if (!session) return { state: 'not_found', amountMinor: 0, currency: '', raw: { id: providerReference, error: 'unknown checkout session' } };
      const state = sandboxSessionState(session);
      return {
        state,
        amountMinor: session.amount_minor,
        currency: session.currency,
        ...(state === 'paid' ? { paymentId: `sbx_pay_${providerReference.slice(4)}` } : {}),
        raw: { id: providerReference, state, amount_minor: session.amount_minor, currency: session.currency, completed_at: session.completed_at ?? null },
      };
    },
  };
}

export async function getSandboxSession(providerReference: string): Promise<SandboxSession | undefined> {
  // Where the stage has no sandbox, no session exists for anyone (its routes are not deployed either).
  if (!config().sandboxPayments) return undefined;
  return readSandboxSession(providerReference);
}

/**
 * The tester's choice on the hosted page; a session is completed once. After its `expires_at`
 * nothing can be chosen any more: the session is recorded `expired` instead (and the order ends
 * so when verified), as Stripe refuses to take payment on an expired session. Returns the session
 * and where to send the browser: its return URL, with the attempt's return secret only for the
 * submit that completed it, or found it ended and recorded so (a later submit, by anyone who learnt the session's id, is sent back
 * without it, so it never leads to a guest's confirmation page).
 */
export async function completeSandboxSession(
  providerReference: string,
  outcome: SandboxOutcome,
  now = new Date(),
): Promise<{ session: SandboxSession; returnTo: string } | undefined> {
  if (!config().sandboxPayments) return undefined;
  const completed = await completeOpenSandboxSession(providerReference, outcome, now, 'before_end');
  if (completed) return { session: completed, returnTo: completed.return_url };
  // Completed already (it keeps its first outcome), unknown, or past its end.
  let session = await getSandboxSession(providerReference);
  if (session && sandboxSessionState(session, now) === 'expired') {
    const expired = await completeOpenSandboxSession(providerReference, 'expired', now, 'past_end');
    if (expired) return { session: expired, returnTo: expired.return_url };
    // Another submit recorded its end first.
    session = await getSandboxSession(providerReference);
  }
  return session && { session, returnTo: withoutReturnSecret(session.return_url) };
}

/** A return URL without the attempt's return secret: what anyone but the completing submit is shown. */
export function withoutReturnSecret(url: string): string {
  const target = new URL(url);
  target.searchParams.delete('return');
  return target.toString();
}

// ---- refunds

/** A refund asked with this reason fails at the sandbox (and the service releases its amount). */
export const SANDBOX_FAIL_REFUND_REASON = 'sandbox:fail';

const SANDBOX_REFUND_PREFIX = 'sbx_re_';

/** The sandbox's refund id names its session and the service's refund: `sbx_re_<session>_<refund id>`. */
const sandboxRefundId = (providerReference: string, refundId: string) => `${SANDBOX_REFUND_PREFIX}${providerReference.slice(4)}_${refundId}`;

function refundView(refund: SandboxRefund): ProviderRefund {
  return {
    providerRefundId: refund.provider_refund_id,
    state: refund.state,
    amountMinor: refund.amount_minor,
    currency: refund.currency,
    ...(refund.failure_reason ? { failureReason: refund.failure_reason } : {}),
    raw: { ...refund },
  };
}

async function sandboxRefund(request: RefundRequest): Promise<ProviderRefund> {
  const providerReference = request.checkoutReference;
  const refund: SandboxRefund = {
    refund_id: request.refundId,
    provider_refund_id: sandboxRefundId(providerReference, request.refundId),
    provider_reference: providerReference,
    amount_minor: request.amountMinor,
    currency: request.currency,
    state: request.reason === SANDBOX_FAIL_REFUND_REASON ? 'failed' : 'succeeded',
    ...(request.reason === SANDBOX_FAIL_REFUND_REASON ? { failure_reason: 'the sandbox was told to fail this refund' } : {}),
    created_at: new Date().toISOString(),
  };
  const recorded = await putSandboxRefund(refund);
  if (recorded === 'busy') throw errors.serviceUnavailable();
  if (recorded) return refundView(recorded);
  // Refused by the session (not paid, or more than it was paid): a failed refund, recorded as such.
  const refused = await putSandboxRefund({ ...refund, state: 'failed', failure_reason: 'the session is not paid, or the refund exceeds what is left of it' });
  if (!refused || refused === 'busy') throw errors.serviceUnavailable();
  return refundView(refused);
}

async function getSandboxRefund(providerRefundId: string): Promise<ProviderRefund | undefined> {
  if (!config().sandboxPayments || !providerRefundId.startsWith(SANDBOX_REFUND_PREFIX)) return undefined;
  const rest = providerRefundId.slice(SANDBOX_REFUND_PREFIX.length);
  const split = rest.indexOf('_');
  if (split < 0) return undefined;
  const refund = await readSandboxRefund(`sbx_${rest.slice(0, split)}`, rest.slice(split + 1));
  return refund && refundView(refund);
}
