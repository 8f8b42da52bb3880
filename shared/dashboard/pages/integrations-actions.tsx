/**
 * The forms of the Integrations page (integrations.tsx): create a key, save a callback or webhook
 * URL, choose the payment provider, pay at the hotel. Each checks what it can first and, on a
 * problem, answers the page again with that form's errors and what was typed (the GOV.UK
 * pattern); a use case's refusal comes back the same way. Done, it redirects with a one-time
 * notice (POST-redirect-GET). Every action is one use case of shared/domain/operator-actions/,
 * which does the work and records its audit entry.
 */
import { PAYMENT_KEY_PLANS } from '../../../definitions/plans';
import { DELIVERY_SCOPES } from '../../../definitions/scopes';
import { normalizeOrigin } from '../../auth/authorize';
import { validateEndpointUrl } from '../../domain/callbacks/deliveries';
import { requireClient } from '../../domain/clients';
import type { EndpointKind, ProviderSettings } from '../../domain/integrations';
import { saveEndpointUrl } from '../../domain/operator-actions/endpoints';
import { createApiKey } from '../../domain/operator-actions/keys';
import { choosePayAtProperty, choosePaymentProvider } from '../../domain/operator-actions/payments';
import { linkedStripeAccounts } from '../../domain/payments/provider-accounts';
import { providerSettingsOf } from '../../domain/payments/providers';
import { AppError, errors } from '../../errors';
import { inWords } from '../format';
import type { Notice } from '../notice';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { type ConfirmedAction, withRecentPassword } from '../reauthentication';
import { ENDPOINT_WORDS, type IntegrationsForm, integrationsView, PAGE } from './integrations';

/** Answers the page again with `form`'s errors and what was typed. */
const again = (request: PageRequest, form: IntegrationsForm, errors: Record<string, string>, status = 400): Promise<PageOutcome> =>
  integrationsView(request, { form, errors, values: request.form }, status);

/**
 * A use case's refusal as field errors: each detail at its field (`fieldOf` its path), one alone
 * in the refusal's own words. A fault (5xx, or not an AppError) is thrown on: the error page.
 */
function refusal(error: unknown, fieldOf: (path: string | undefined) => string): { errors: Record<string, string>; status: number } {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const errors: Record<string, string> = {};
  const details = error.details ?? [];
  if (details.length <= 1) errors[fieldOf(details[0]?.path)] = error.message;
  else for (const detail of details) errors[fieldOf(detail.path)] ??= detail.message;
  return { errors, status: error.status };
}

/** An action of this page that asks for the operator's password again first (shared/dashboard/reauthentication.tsx). */
const confirmed = (path: string, form: IntegrationsForm, what: string, details: ConfirmedAction['details'], button: string): ConfirmedAction => ({
  path: `${path}#${form}`,
  what,
  details,
  button,
  nav: 'integrations',
  back: `${PAGE}#${form}`,
});

const done = (notice: Notice): PageOutcome => ({ redirect: PAGE, notice });

const MAX_NAME = 128;
const nameTooLong = (name: string) => `Shorten the name to ${MAX_NAME} characters or fewer (it has ${name.length})`;

const splitList = (value: string | null) =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);

// ---- keys

export const createKey: PageAction = (request) => {
  const kind = request.form.get('kind');
  if (kind === 'sync') return createSyncKey(request);
  if (kind === 'payment') return createPaymentKey(request);
  throw errors.chooseKeyKind();
};

const createSyncKey: PageAction = async (request) => {
  const scopes = request.form.getAll('scopes');
  const name = (request.form.get('sync_name') ?? '').trim();
  const errors: Record<string, string> = {};
  if (scopes.length === 0) errors.scopes = 'Choose at least one scope: what the key may do';
  if (name.length > MAX_NAME) errors.sync_name = nameTooLong(name);
  if (Object.keys(errors).length) return again(request, 'create-sync-key', errors);
  const confirmation = confirmed(`${PAGE}/keys`, 'create-sync-key', 'create a sync key', [['Scopes', scopes.join(', ')]], 'Confirm and create key');
  return withRecentPassword(request, confirmation, () => issueKey(request, 'create-sync-key', { kind: 'sync', scopes, name }, 'scopes'));
};

/** Every key asks for the password again first (a key reads and writes the hotel's data, a payment key takes payments). */
const createPaymentKey: PageAction = async (request) => {
  const origins = splitList(request.form.get('origins'));
  const name = (request.form.get('payment_name') ?? '').trim();
  // A payment key may also read and replay its webhook deliveries (the deliveries API).
  const scopes = request.form.getAll('payment_scopes');
  const errors: Record<string, string> = {};
  if (scopes.some((scope) => !(DELIVERY_SCOPES as readonly string[]).includes(scope))) errors.payment_scopes = `A payment key may have only ${DELIVERY_SCOPES.join(' and ')}`;
  const notOrigins = origins.filter((origin) => !normalizeOrigin(origin));
  if (notOrigins.length) {
    errors.origins = `${notOrigins.map((o) => `“${o}”`).join(', ')} ${notOrigins.length === 1 ? 'is not a website address' : 'are not website addresses'}: write each one in full, like https://hotel.example`;
  }
  if (name.length > MAX_NAME) errors.payment_name = nameTooLong(name);
  if (Object.keys(errors).length) return again(request, 'create-payment-key', errors);
  const client = await requireClient(request.operator.client_id);
  if (!PAYMENT_KEY_PLANS.includes(client.plan)) {
    return again(request, 'create-payment-key', { form: `Payment keys need the ${PAYMENT_KEY_PLANS.join(' or ')} plan; your hotel is on ${client.plan}. Ask us to move your hotel.` }, 403);
  }
  const confirmation = confirmed(
    `${PAGE}/keys`,
    'create-payment-key',
    'create a payment key',
    [
      ['Allowed origins', origins.join(', ') || 'any (server to server)'],
      ['Deliveries', scopes.join(', ') || 'none'],
    ],
    'Confirm and create key',
  );
  return withRecentPassword(request, confirmation, () => issueKey(request, 'create-payment-key', { kind: 'payment', origins, scopes, name }, 'origins'));
};

async function issueKey(
  request: PageRequest,
  form: IntegrationsForm,
  input: { kind: 'sync' | 'payment'; scopes?: string[]; origins?: string[]; name: string },
  field: string,
): Promise<PageOutcome> {
  const { kind, name } = input;
  let issued;
  try {
    issued = await createApiKey(
      request.operator,
      { kind, ...(input.scopes?.length ? { scopes: input.scopes } : {}), ...(input.origins ? { origins: input.origins } : {}), ...(name ? { name } : {}) },
      request.now,
    );
  } catch (error) {
    const { errors, status } = refusal(error, () => (error instanceof AppError && error.code === 'PLAN_REQUIRED' ? 'form' : field));
    return again(request, form, errors, status);
  }
  return done({
    kind: 'success',
    message: `The ${kind} key ${issued.name ? `"${issued.name}" ` : ''}was created (key id ${issued.key_id}).`,
    secret: { label: kind === 'sync' ? 'Sync key' : 'Payment key', value: issued.key },
  });
}

// ---- callback and webhook URLs

export function endpointKind(request: PageRequest): EndpointKind {
  const kind = request.params.kind;
  if (kind !== 'callback' && kind !== 'webhook') throw errors.noSuchPage();
  return kind;
}

/** What is wrong with a URL typed for `kind`, in plain words; undefined when it may receive events. */
function urlProblem(kind: EndpointKind, url: string): string | undefined {
  const example = kind === 'callback' ? 'https://pms.example/hooks/booking' : 'https://hotel.example/hooks/payment';
  if (!url) return `Enter the ${kind} URL: the full address of your receiver, such as ${example}`;
  try {
    validateEndpointUrl(url);
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.message.startsWith('Not an absolute URL')
      ? `Enter the full address, starting with https://, such as ${example}`
      : error.message;
  }
}

/**
 * Saves a callback or webhook URL after the password, checked first; the signing secret stays
 * (setEndpointUrl): it is made, and shown once, only with the first URL.
 */
export const setEndpoint: PageAction = async (request) => {
  const kind = endpointKind(request);
  const form = `endpoint-${kind}` as const;
  const field = `${kind}_url`;
  const url = (request.form.get(field) ?? '').trim();
  const problem = urlProblem(kind, url);
  if (problem) return again(request, form, { [field]: problem });
  const confirmation = confirmed(`${PAGE}/endpoints/${kind}`, form, `change the ${kind} URL`, [[`New ${kind} URL`, url]], `Confirm and save ${kind} URL`);
  return withRecentPassword(request, confirmation, async () => {
    let saved;
    try {
      saved = await saveEndpointUrl(request.operator, kind, url, request.now);
    } catch (error) {
      const { errors, status } = refusal(error, () => field);
      return again(request, form, errors, status);
    }
    return done(
      saved.secret
        ? {
            kind: 'success',
            message: `The ${kind} URL is now ${saved.url}. Put its signing secret in ${ENDPOINT_WORDS[kind].receiver}'s receiver: every ${kind} is signed with it.`,
            secret: { label: 'Signing secret', value: saved.secret },
          }
        : { kind: 'success', message: `The ${kind} URL is now ${saved.url}. The signing secret has not changed: the receiver keeps the one it has.` },
    );
  });
};

// ---- payment provider

const providerWords = (settings: ProviderSettings) => `${inWords(settings.provider)}${settings.account ? ` (${settings.account})` : ''}`;

export const setProvider: PageAction = async (request) => {
  const provider = request.form.get('provider') ?? '';
  const account = provider === 'stripe' ? (request.form.get('account') ?? '').trim() : '';
  const linked = await linkedStripeAccounts(request.operator.client_id);
  // The account's select is on the page only when the platform linked one.
  const fieldOf = (path: string | undefined) => (path === 'account' && linked.length ? 'account' : 'provider');
  if (provider === 'stripe' && linked.length === 0) {
    return again(request, 'provider', { provider: 'No Stripe account is linked to your hotel yet: ask us to link your Stripe connected account, then choose it here' });
  }
  try {
    providerSettingsOf({ provider, ...(account ? { account } : {}) });
  } catch (error) {
    const { errors, status } = refusal(error, fieldOf);
    return again(request, 'provider', errors, status);
  }
  const chosen = provider === 'stripe' ? `Stripe (${account})` : inWords(provider);
  const confirmation = confirmed(`${PAGE}/provider`, 'provider', 'choose where payments go', [['Payments to', chosen]], 'Confirm and save provider');
  return withRecentPassword(request, confirmation, async () => {
    let choice;
    try {
      choice = await choosePaymentProvider(request.operator, { provider, ...(account ? { account } : {}) }, request.now);
    } catch (error) {
      const { errors, status } = refusal(error, fieldOf);
      return again(request, 'provider', errors, status);
    }
    const { settings } = choice;
    return done({
      kind: 'success',
      message: choice.changed ? `Payments now use ${providerWords(settings)}.` : `Payments already use ${providerWords(settings)}: nothing changed.`,
    });
  });
};

// ---- guest booking

export const setPayAtPropertyAction: PageAction = async (request) => {
  const enabled = request.form.get('pay_at_property') === 'on';
  try {
    await choosePayAtProperty(request.operator, enabled, request.now);
  } catch (error) {
    const { errors, status } = refusal(error, () => 'form');
    return again(request, 'guest-booking', errors, status);
  }
  return done({
    kind: 'success',
    message: enabled ? 'Guests may now confirm a booking and pay at the hotel.' : 'Guests now pay online when they book.',
  });
};
