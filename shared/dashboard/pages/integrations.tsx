/**
 * Integrations (admins only; staff get 403 from the route's role): the client's sync and payment
 * keys, its callback and webhook URLs with their signing secrets, its payment provider. A new key
 * or secret is shown once, in the notice after the redirect, and never again: only its hash (a
 * key) or its sealed form (a secret) is kept. Every action is the use case the ops CLI calls.
 * And the guest booking page: its URL, its QR code (with a printable sheet for the reception desk)
 * and whether guests may pay at the hotel.
 */
import { PAYMENT_KEY_PLANS } from '../../../infra/plans';
import { SYNC_SCOPES } from '../../../infra/routes';
import { config } from '../../config';
import { recordAudit } from '../../domain/audit';
import { configureEndpoint } from '../../domain/callbacks/deliveries';
import { issueApiKey, listClientKeys, requireClient, revokeClientKey } from '../../domain/clients';
import { guestBookingClient, setPayAtProperty } from '../../domain/guest-booking/guest-bookings';
import { emailEnabled } from '../../domain/guest-email/outbox';
import { chooseProvider, type LinkedStripeAccount, linkedStripeAccounts } from '../../domain/payments/provider-accounts';
import { PROVIDERS } from '../../domain/payments/providers';
import { AppError } from '../../errors';
import type { ApiKeyRecord } from '../../store/api-key-store';
import { type EndpointKind, getEndpoint } from '../../store/endpoint-store';
import { getProviderSettings, type ProviderSettings } from '../../store/payment-store';
import { bookingPageUrl, qrCodePath } from '../../guest/urls';
import { ActionButton, Empty, Field, type Links, Page, Select } from '../layout';
import type { Notice } from '../notice';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { type ConfirmedAction, withRecentPassword } from '../reauthentication';

const PAGE = '/dashboard/integrations';
const ENDPOINT_KINDS: readonly EndpointKind[] = ['callback', 'webhook'];
const ENDPOINT_TITLES: Record<EndpointKind, { title: string; events: string }> = {
  callback: { title: 'Callback URL', events: 'booking.confirmed, to your PMS' },
  webhook: { title: 'Webhook URL', events: 'payment_order.paid, to your website' },
};

const when = (iso: string | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : 'never');

function failure(error: unknown): Notice {
  if (error instanceof AppError && error.status < 500) {
    const details = error.details?.map((d) => d.message).join('; ');
    return { kind: 'error', message: details && !error.message.includes(details) ? `${error.message}: ${details}` : error.message };
  }
  throw error;
}

/** Runs an action; a refusal of the use case comes back to the page as an error notice. */
async function act(run: () => Promise<Notice>): Promise<PageOutcome> {
  try {
    return { redirect: PAGE, notice: await run() };
  } catch (error) {
    return { redirect: PAGE, notice: failure(error) };
  }
}

type AuditValues = Record<string, string | number | boolean | null>;

/** Records the action; `previous`: the old values of the fields it replaced. */
const audit = (request: PageRequest, action: string, target: string | undefined, changes: AuditValues, previous?: AuditValues) =>
  recordAudit(
    request.operator.client_id,
    { operator: request.operator.email, action, ...(target ? { target } : {}), changes, ...(previous ? { previous } : {}) },
    request.now,
  );

/** An action of this page that asks for the operator's password again first (shared/dashboard/reauthentication.tsx). */
const confirmed = (path: string, what: string, details: ConfirmedAction['details'], button: string): ConfirmedAction => ({
  path,
  what,
  details,
  button,
  nav: 'integrations',
  back: PAGE,
});

const providerLabel = (settings: ProviderSettings | undefined) => (settings ? `${settings.provider}${settings.account ? ` (${settings.account})` : ''}` : 'not set');

function KeyTable({ keys, request, kind }: { keys: ApiKeyRecord[]; request: PageRequest; kind: 'sync' | 'payment' }) {
  if (keys.length === 0) return <Empty>No {kind} keys yet.</Empty>;
  return (
    <div class="table-wrap" tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key id</th>
            <th scope="col">{kind === 'sync' ? 'Scopes' : 'Allowed origins'}</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr>
              <td>{key.name ?? '—'}</td>
              <td>
                <code>{key.key_id}</code>
              </td>
              <td>{kind === 'sync' ? key.scopes.join(', ') : key.origins.join(', ') || 'any (server to server)'}</td>
              <td>{when(key.created_at)}</td>
              <td>{when(key.last_used_at)}</td>
              <td>
                {key.revoked_at ? (
                  `revoked ${when(key.revoked_at)}`
                ) : (
                  <>
                    active{' '}
                    <ActionButton action={request.links.to(`${PAGE}/keys/${encodeURIComponent(key.key_id)}/revoke`)} label="Revoke" />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The guest booking page: its URL, its QR code for the reception desk, the pay-at-property setting. */
function GuestBookingSection({ links, url, clientId, payAtProperty }: { links: Links; url: string; clientId: string; payAtProperty: boolean }) {
  return (
    <section aria-labelledby="guest-booking">
      <h2 id="guest-booking">Guest booking</h2>
      <p class="muted">Your public booking page: guests choose dates and a room, and pay on your payment provider's checkout. Every booking is sent to your callback URL.</p>
      <p>
        Booking page: <a href={url} class="url">{url}</a>
      </p>
      <img class="qr" src={links.to(qrCodePath(clientId))} alt={`QR code of the booking page ${url}`} width={192} height={192} />
      <div class="actions">
        <a href={links.to(`${PAGE}/guest-booking/print`)}>Printable QR code for the reception desk</a>
      </div>
      {emailEnabled() ? (
        <form method="post" action={links.to(`${PAGE}/guest-booking/pay-at-property`)} aria-labelledby="pay-at-property">
          <fieldset class="checks">
            <legend id="pay-at-property">Pay at the hotel</legend>
            <label>
              <input type="checkbox" name="pay_at_property" value="on" checked={payAtProperty} /> Guests may book without paying online and pay at the hotel
            </label>
            <p class="muted">Such a booking is held for the guest until they confirm it with the link we e-mail them; only then is it sent to your callback URL.</p>
          </fieldset>
          <button type="submit">Save guest booking setting</button>
        </form>
      ) : (
        <>
          <h3 id="pay-at-property">Pay at the hotel</h3>
          <p>
            Not available: this service sends no e-mail (it was set up without a sender address), and guests confirm a booking paid at the hotel with a link sent by
            e-mail. Guests pay online when they book.
          </p>
        </>
      )}
    </section>
  );
}

/**
 * The provider and, for Stripe, one of the connected accounts the platform linked to the hotel: a
 * select, never a text field (CONTRACT.md "Payment safety in deployed stages").
 */
function ProviderForm({ links, provider, linked, sandbox }: { links: Links; provider?: ProviderSettings; linked: LinkedStripeAccount[]; sandbox: boolean }) {
  const providers = PROVIDERS.filter((p) => p !== 'sandbox' || sandbox).map((p) => ({ value: p, label: p }));
  return (
    <form method="post" action={links.to(`${PAGE}/provider`)} aria-labelledby="provider">
      <Select label="Provider" name="provider" options={providers} value={provider?.provider} />
      {linked.length ? (
        <>
          <Select label="Stripe account" name="account" options={linked.map((a) => ({ value: a.account, label: a.account }))} value={provider?.account} />
          <p class="muted">For Stripe: the connected account payments go to. Only the accounts we linked to your hotel are listed.</p>
        </>
      ) : (
        <p class="muted">No Stripe account is linked to your hotel yet: ask us to link your Stripe connected account.</p>
      )}
      <button type="submit">Save provider</button>
    </form>
  );
}

/** A sheet for the reception desk: the hotel's name, the QR code, big, and the URL; print-friendly. */
export const guestBookingPrintPage: PageAction = async (request) => {
  const clientId = request.operator.client_id;
  const client = await requireClient(clientId);
  const url = bookingPageUrl(request.baseUrl, clientId);
  const { links } = request;
  return {
    html: (
      <Page title="Reception QR code" links={links} operator={request.operator} nav="integrations">
        <p class="no-print">
          Print this page (or save it as PDF) and put it on the reception desk. <a href={links.to(PAGE)}>Back to Integrations</a>
        </p>
        <div class="qr-sheet">
          <p class="qr-hotel">{client.name}</p>
          <p class="qr-call">Scan to book your room</p>
          <img src={links.to(qrCodePath(clientId))} alt={`QR code of the booking page ${url}`} width={384} height={384} />
          <p class="url">{url}</p>
        </div>
      </Page>
    ),
  };
};

export const integrationsPage: PageAction = async (request) => {
  const clientId = request.operator.client_id;
  const [client, keys, callback, webhook, provider, linkedAccounts, guestBooking] = await Promise.all([
    requireClient(clientId),
    listClientKeys(clientId),
    getEndpoint(clientId, 'callback'),
    getEndpoint(clientId, 'webhook'),
    getProviderSettings(clientId),
    linkedStripeAccounts(clientId),
    guestBookingClient(clientId),
  ]);
  const endpoints = { callback, webhook };
  const byNewest = (a: ApiKeyRecord, b: ApiKeyRecord) => b.created_at.localeCompare(a.created_at);
  const syncKeys = keys.filter((k) => k.kind === 'sync').sort(byNewest);
  const paymentKeys = keys.filter((k) => k.kind === 'payment').sort(byNewest);
  const paymentKeysAllowed = PAYMENT_KEY_PLANS.includes(client.plan);
  const sandbox = config().sandboxPayments;
  const { links } = request;
  return {
    html: (
      <Page title="Integrations" links={links} operator={request.operator} nav="integrations" notice={request.notice}>
        <p class="muted">
          {client.name} · plan {client.plan}
        </p>

        <h2>Sync keys</h2>
        <p class="muted">For your PMS: room categories, rooms, bookings, check-ins and availability.</p>
        <KeyTable keys={syncKeys} request={request} kind="sync" />
        <section aria-labelledby="create-sync-key">
          <h2 id="create-sync-key">Create sync key</h2>
          <form method="post" action={links.to(`${PAGE}/keys`)} aria-labelledby="create-sync-key">
            <input type="hidden" name="kind" value="sync" />
            <fieldset class="checks">
              <legend>Scopes</legend>
              {SYNC_SCOPES.map((scope) => (
                <label>
                  <input type="checkbox" name="scopes" value={scope} /> {scope}
                </label>
              ))}
            </fieldset>
            <Field label="Name" name="name" hint="Optional: what uses it, e.g. the front-desk PMS" />
            <button type="submit">Create key</button>
          </form>
        </section>

        <h2>Payment keys</h2>
        <p class="muted">For your website's server: creating payment orders and looking them up.</p>
        <KeyTable keys={paymentKeys} request={request} kind="payment" />
        <section aria-labelledby="create-payment-key">
          <h2 id="create-payment-key">Create payment key</h2>
          {paymentKeysAllowed ? null : <p class="muted">Payment keys need the {PAYMENT_KEY_PLANS.join(' or ')} plan; ask us to move your hotel.</p>}
          <form method="post" action={links.to(`${PAGE}/keys`)} aria-labelledby="create-payment-key">
            <input type="hidden" name="kind" value="payment" />
            <Field
              label="Allowed origins"
              name="origins"
              hint="Websites that may call with it from a browser, separated by spaces or commas, e.g. https://hotel.example. Leave empty for server-to-server use only."
            />
            <Field label="Name" name="name" hint="Optional" />
            <button type="submit">Create key</button>
          </form>
        </section>

        {ENDPOINT_KINDS.map((kind) => {
          const endpoint = endpoints[kind];
          const id = `endpoint-${kind}`;
          return (
            <section aria-labelledby={id}>
              <h2 id={id}>{ENDPOINT_TITLES[kind].title}</h2>
              <p class="muted">
                Signed {ENDPOINT_TITLES[kind].events}.{' '}
                {endpoint ? `Now: ${endpoint.url} (since ${when(endpoint.updated_at)}).` : 'Not set: nothing is sent.'}
              </p>
              <form method="post" action={links.to(`${PAGE}/endpoints/${kind}`)} aria-labelledby={id}>
                <Field label={ENDPOINT_TITLES[kind].title} name="url" type="url" value={endpoint?.url} required />
                <button type="submit">Save {kind} URL</button>
              </form>
              {endpoint ? (
                <div class="actions">
                  <ActionButton action={links.to(`${PAGE}/endpoints/${kind}/rotate`)} label="Rotate secret" />
                </div>
              ) : null}
            </section>
          );
        })}

        <section aria-labelledby="provider">
          <h2 id="provider">Payment provider</h2>
          <p>
            {provider
              ? `Now: ${provider.provider}${provider.account ? ` (${provider.account})` : ''}.`
              : sandbox
                ? 'Not set: orders use the sandbox of this stage.'
                : 'Not set: payment orders are refused until a provider is set.'}
          </p>
          <ProviderForm links={links} provider={provider} linked={linkedAccounts} sandbox={sandbox} />
        </section>

        <GuestBookingSection links={links} url={bookingPageUrl(request.baseUrl, clientId)} clientId={clientId} payAtProperty={guestBooking.pay_at_property} />
      </Page>
    ),
  };
};

const splitList = (value: string | null) =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);

/** A payment key asks for the password again first (it takes payments); a sync key does not. */
export const createKey: PageAction = (request) =>
  request.form.get('kind') === 'payment'
    ? withRecentPassword(
        request,
        confirmed(`${PAGE}/keys`, 'create a payment key', [['Allowed origins', splitList(request.form.get('origins')).join(', ') || 'any (server to server)']], 'Confirm and create key'),
        () => issueKey(request),
      )
    : issueKey(request);

const issueKey: PageAction = (request) =>
  act(async () => {
    const { form, operator } = request;
    const kind = form.get('kind');
    if (kind !== 'sync' && kind !== 'payment') throw new AppError(400, 'VALIDATION_ERROR', 'Choose a sync or a payment key');
    const scopes = form.getAll('scopes');
    if (kind === 'sync' && scopes.length === 0) throw new AppError(400, 'VALIDATION_ERROR', 'Choose at least one scope for the sync key');
    const name = (form.get('name') ?? '').trim();
    if (name.length > 128) throw new AppError(400, 'VALIDATION_ERROR', 'The name is longer than 128 characters');
    const issued = await issueApiKey({
      clientId: operator.client_id,
      kind,
      ...(kind === 'sync' ? { scopes } : { origins: splitList(form.get('origins')) }),
      ...(name ? { name } : {}),
    });
    await audit(request, 'key.create', issued.key_id, {
      kind,
      scopes: issued.scopes.join(' ') || null,
      origins: issued.origins.join(' ') || null,
      name: issued.name ?? null,
    });
    return {
      kind: 'success',
      message: `The ${kind} key ${issued.name ? `"${issued.name}" ` : ''}was created (key id ${issued.key_id}).`,
      secret: { label: kind === 'sync' ? 'Sync key' : 'Payment key', value: issued.key },
    };
  });

export const revokeKeyAction: PageAction = (request) =>
  act(async () => {
    const keyId = request.params.key_id ?? '';
    const revoked = await revokeClientKey(request.operator.client_id, keyId);
    await audit(request, 'key.revoke', keyId, { kind: revoked.kind, revoked_at: revoked.revoked_at ?? null });
    return { kind: 'success', message: `Key ${keyId} was revoked: it stops working within a minute.` };
  });

function endpointKind(request: PageRequest): EndpointKind {
  const kind = request.params.kind;
  if (kind !== 'callback' && kind !== 'webhook') throw new AppError(404, 'NOT_FOUND', 'There is no such page.');
  return kind;
}

export const setEndpoint: PageAction = async (request) => {
  const kind = endpointKind(request);
  const url = (request.form.get('url') ?? '').trim();
  const confirmation = confirmed(`${PAGE}/endpoints/${kind}`, `change the ${kind} URL`, [[`New ${kind} URL`, url]], `Confirm and save ${kind} URL`);
  return withRecentPassword(request, confirmation, () =>
    act(async () => {
      const before = await getEndpoint(request.operator.client_id, kind);
      const saved = await configureEndpoint(request.operator.client_id, kind, { url });
      await audit(request, `${kind}.set_url`, undefined, { kind, url: saved.url }, { url: before?.url ?? null });
      return {
        kind: 'success',
        message: `The ${kind} URL is now ${saved.url}. Its signing secret is new: put it in your receiver.`,
        secret: { label: 'Signing secret', value: saved.secret },
      };
    }),
  );
};

export const rotateSecret: PageAction = async (request) => {
  const kind = endpointKind(request);
  return act(async () => {
    const endpoint = await getEndpoint(request.operator.client_id, kind);
    if (!endpoint) throw new AppError(400, 'VALIDATION_ERROR', `Set the ${kind} URL first`);
    const saved = await configureEndpoint(request.operator.client_id, kind, { url: endpoint.url });
    await audit(request, `${kind}.rotate_secret`, undefined, { kind, url: saved.url });
    return {
      kind: 'success',
      message: `The ${kind} signing secret was rotated: events are signed with the new one from now on.`,
      secret: { label: 'Signing secret', value: saved.secret },
    };
  });
};

export const setProvider: PageAction = (request) => {
  const provider = request.form.get('provider') ?? '';
  const account = provider === 'stripe' ? (request.form.get('account') ?? '').trim() : '';
  const chosen = provider === 'stripe' ? `stripe (${account || 'no account'})` : provider;
  const confirmation = confirmed(`${PAGE}/provider`, 'choose where payments go', [['Payments to', chosen]], 'Confirm and save provider');
  return withRecentPassword(request, confirmation, () =>
    act(async () => {
      const choice = await chooseProvider(request.operator.client_id, { provider, ...(account ? { account } : {}) });
      const { settings, previous } = choice;
      await audit(
        request,
        'provider.set',
        undefined,
        { provider: settings.provider, account: settings.account ?? null },
        { provider: previous?.provider ?? null, account: previous?.account ?? null },
      );
      return {
        kind: 'success',
        message: choice.changed ? `Payments now use ${providerLabel(settings)}.` : `Payments already use ${providerLabel(settings)}: nothing changed.`,
      };
    }),
  );
};

export const setPayAtPropertyAction: PageAction = (request) =>
  act(async () => {
    const enabled = request.form.get('pay_at_property') === 'on';
    await setPayAtProperty(request.operator.client_id, enabled);
    await audit(request, 'guest_booking.pay_at_property', undefined, { pay_at_property: enabled });
    return {
      kind: 'success',
      message: enabled ? 'Guests may now confirm a booking and pay at the hotel.' : 'Guests now pay online when they book.',
    };
  });
