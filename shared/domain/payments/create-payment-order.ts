/**
 * Creating a payment order (docs/behaviour.md "Payment orders"): one order per partner reference,
 * reused on a repeat, given a new payment attempt when its last checkout failed, was cancelled
 * or expired. Each attempt records the provider and the provider account its checkout was
 * created on; the order is later settled against those, whatever the client's settings become.
 */
import type { Principal } from '../../auth/authorize';
import type { Language } from '../../i18n/languages';
import { config } from '../../config';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { MAX_STAY_NIGHTS, nightsBetween } from '../../schemas/common';
import type { PaymentOrderRequest } from '../../schemas/payments';
import { isConditionFailure } from '../../store/items';
import {
  type AttemptRecord,
  attemptPutItem,
  findOrderByExternalReference,
  newOrderItems,
  type OrderStatus,
  orderUpdateItem,
  type PaymentOrderRecord,
} from '../../store/payment-store';
import { transactWrite } from '../../store/transactions';
import { orderReferenceFor, providerReturnUrl, returnSecretOf } from './order-references';
import { orderCreatedView } from './order-views';
import { checkoutSettingsOf, providerFor } from './providers';
import type { CheckoutLine } from '../../payments/provider';

const RETRYABLE_STATUSES: OrderStatus[] = ['failed', 'cancelled', 'expired'];

/**
 * Who creates the order: a payment key's principal (its client, and the origins return URLs must
 * use), or the service itself creating an order of a client, with no key and no origin
 * restriction (the guest booking page: shared/domain/guest-booking/).
 */
export type OrderCreator = Pick<Principal, 'clientId' | 'origins'>;

function checkRequest(principal: OrderCreator, body: PaymentOrderRequest, allowHttp: boolean) {
  if (!config().supportedCurrencies.includes(body.currency)) {
    throw errors.currencyNotSupported(body.currency);
  }
  for (const field of ['success_url', 'cancel_url'] as const) {
    const url = new URL(body[field]);
    if (url.protocol !== 'https:' && !allowHttp) {
      throw errors.validation([{ path: field, message: 'must be an https URL' }]);
    }
    if (principal.origins.length && !principal.origins.includes(url.origin.toLowerCase())) {
      throw errors.returnUrlNotAllowed(field, url.origin);
    }
  }
  const context = body.context;
  if (context?.check_in_date && context.check_out_date) {
    const nights = nightsBetween(context.check_in_date, context.check_out_date);
    if (nights < 1 || nights > MAX_STAY_NIGHTS) {
      throw errors.validation([{ path: 'context.check_out_date', message: `must be 1 to ${MAX_STAY_NIGHTS} nights after check_in_date` }]);
    }
  }
}

type OrderBasics = Pick<PaymentOrderRecord, 'order_reference' | 'external_reference' | 'client_id' | 'amount_minor' | 'currency' | 'customer'>;
type CheckoutFields = Pick<PaymentOrderRecord, 'provider' | 'provider_account' | 'provider_reference' | 'checkout_url' | 'return_secret_hash'>;

/**
 * What the service itself says of the checkout it opens for its own pages (a guest booking):
 * what the guest sees on the provider's page, and when it stops taking payment. A partner's
 * order has neither: `Payment <reference>`, and the provider's own expiry.
 */
export interface CheckoutOptions {
  /** The line the guest sees on the checkout (Stripe's product name): the hotel and the stay. */
  description?: string;
  /** The lines it lists (the room, its taxes), summing to the order's amount. */
  lines?: CheckoutLine[];
  /** When the checkout stops taking payment (a guest checkout: its room hold's end). */
  expiresAt?: Date;
  /** The guest's language, kept on the order (its booking and e-mails speak it) and told to the provider. */
  language?: Language;
}

/** Opens the checkout of one attempt on the client's current provider account. */
async function openCheckout(order: OrderBasics, attempt: number, baseUrl: string, options: CheckoutOptions = {}): Promise<CheckoutFields> {
  const settings = await checkoutSettingsOf(order.client_id);
  // Only this checkout's redirect carries the secret; verify leads a guest's browser on with it alone.
  const returnSecret = await returnSecretOf(order.order_reference, attempt);
  const checkout = await providerFor(settings.provider).createCheckout({
    orderReference: order.order_reference,
    attempt,
    amountMinor: order.amount_minor,
    currency: order.currency,
    customer: order.customer,
    description: options.description ?? `Payment ${order.external_reference}`,
    ...(options.lines ? { lines: options.lines } : {}),
    returnUrl: providerReturnUrl(baseUrl, order.order_reference, returnSecret.secret),
    settings,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
    ...(options.language ? { language: options.language } : {}),
  });
  return {
    provider: settings.provider,
    ...(settings.account ? { provider_account: settings.account } : {}),
    provider_reference: checkout.providerReference,
    checkout_url: checkout.checkoutUrl,
    return_secret_hash: returnSecret.hash,
  };
}

/** The attempt record of an order's current checkout, still open. */
function openAttempt(order: PaymentOrderRecord): AttemptRecord {
  return {
    attempt: order.attempt,
    provider: order.provider,
    ...(order.provider_account ? { provider_account: order.provider_account } : {}),
    provider_reference: order.provider_reference,
    checkout_url: order.checkout_url,
    outcome: 'open',
    created_at: order.updated_at,
    updated_at: order.updated_at,
  };
}

/** A failed, cancelled or expired order gets a new attempt with a new checkout. */
async function newAttempt(order: PaymentOrderRecord, baseUrl: string, now: Date, checkout?: CheckoutOptions): Promise<PaymentOrderRecord> {
  const { provider_account: _previousAccount, ...rest } = order;
  const next: PaymentOrderRecord = {
    ...rest,
    ...(await openCheckout(order, order.attempt + 1, baseUrl, checkout)),
    status: 'processing',
    attempt: order.attempt + 1,
    updated_at: now.toISOString(),
  };
  await transactWrite([orderUpdateItem(next, order), attemptPutItem(order.order_reference, openAttempt(next))]);
  return next;
}

export async function createPaymentOrder(
  principal: OrderCreator,
  body: PaymentOrderRequest,
  options: {
    baseUrl: string;
    allowHttp: boolean;
    /** The service's own checkout (a guest booking): its description and end. */
    checkout?: CheckoutOptions;
  },
  now = new Date(),
): Promise<{ status: 200 | 201; body: ReturnType<typeof orderCreatedView> }> {
  checkRequest(principal, body, options.allowHttp);
  for (let round = 0; round < 4; round++) {
    const existing = await findOrderByExternalReference(principal.clientId, body.reference);
    if (existing) {
      if (existing.amount_minor !== body.amount_minor || existing.currency !== body.currency) {
        throw errors.externalReferenceConflict(body.reference);
      }
      if (!RETRYABLE_STATUSES.includes(existing.status)) return { status: 200, body: orderCreatedView(existing, true) };
      try {
        return { status: 200, body: orderCreatedView(await newAttempt(existing, options.baseUrl, now, options.checkout), true) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        continue;
      }
    }
    const timestamp = now.toISOString();
    const basics: OrderBasics = {
      order_reference: await orderReferenceFor(principal.clientId, body.reference),
      external_reference: body.reference,
      client_id: principal.clientId,
      amount_minor: body.amount_minor,
      currency: body.currency,
      customer: body.customer,
    };
    const order: PaymentOrderRecord = {
      ...basics,
      payment_order_id: newId(),
      status: 'processing',
      ...(body.context ? { context: body.context } : {}),
      ...(options.checkout?.language ? { language: options.checkout.language } : {}),
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      ...(await openCheckout(basics, 1, options.baseUrl, options.checkout)),
      attempt: 1,
      created_at: timestamp,
      updated_at: timestamp,
    };
    try {
      await transactWrite(newOrderItems(order, openAttempt(order)));
      return { status: 201, body: orderCreatedView(order, false) };
    } catch (error) {
      // Another request created this reference first: answer with that order.
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw errors.serviceUnavailable();
}
