/**
 * Integrations (admins only; staff get 403 from the route's role): the client's sync and payment
 * keys, its callback and webhook URLs with their signing secrets, its payment provider, its guest
 * booking page, and a link to the hotel's settings. A new key or secret is shown once, in the
 * notice after the redirect, and never again: only its hash (a key) or its sealed form (a secret)
 * is kept. Every form follows the GOV.UK pattern: a form that comes back with errors is shown
 * again (status 400) with what was typed, an error summary at the top of that form linking to
 * each field, and the message beside the field; its action carries the form's own anchor, so the
 * browser lands on it. The actions are in integrations-actions.tsx, the confirmation pages of
 * revoking a key and rotating a secret in integrations-confirm.tsx.
 */
import { PAYMENT_KEY_PLANS } from '../../../definitions/plans';
import { DELIVERY_SCOPES, KEY_SCOPES } from '../../../definitions/scopes';
import { config } from '../../config';
import { clientSettingsOf } from '../../domain/client-settings';
import { emailEnabled } from '../../domain/guest-email/outbox';
import { type ApiKeyRecord, type EndpointConfig, type EndpointKind, integrationsOf, type ProviderSettings } from '../../domain/integrations';
import type { LinkedStripeAccount } from '../../domain/payments/provider-accounts';
import { PROVIDERS } from '../../domain/payments/providers';
import { bookingPageUrl, qrCodePath } from '../../guest/urls';
import { formatTime, inWords } from '../format';
import { Dl, Empty, ErrorSummary, Field, type Links, Page, Select } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';

export const PAGE = '/dashboard/integrations';
export const HOTEL_SETTINGS = '/dashboard/settings';
export const QR_SHEET = '/dashboard/qr-sheet';

/** The page's forms, each named by the id of its section (its anchor). */
export type IntegrationsForm = 'create-sync-key' | 'create-payment-key' | 'endpoint-callback' | 'endpoint-webhook' | 'provider' | 'guest-booking';

/**
 * A form that came back with errors: which one, the message of each field by its name (`form`
 * for what belongs to no field), and what was typed.
 */
export interface FormProblem {
  form: IntegrationsForm;
  errors: Record<string, string>;
  values: URLSearchParams;
}

export const ENDPOINT_KINDS: readonly EndpointKind[] = ['callback', 'webhook'];
export const ENDPOINT_WORDS: Record<EndpointKind, { title: string; events: string; receiver: string }> = {
  callback: { title: 'Callback URL', events: 'the bookings made here as they are confirmed, changed, cancelled or marked no-show (booking.confirmed, booking.modified, booking.cancelled, booking.no_show), to your PMS', receiver: 'your PMS' },
  webhook: { title: 'Webhook URL', events: 'payment orders as they are paid and refunded (payment_order.paid, payment_order.refunded), to your website', receiver: 'your website' },
};

/** An instant in the hotel's zone, saying so: "24 Nov 2026, 10:10 (hotel time)". */
export const hotelTime = (zone: string, iso: string) => `${formatTime(zone, iso)} (hotel time)`;

/** Where a form posts: its action, with its section's anchor so the answer opens at the form. */
export const formAction = (links: Links, path: string, form: IntegrationsForm) => `${links.to(path)}#${form}`;

const providerWords = (settings: ProviderSettings) => `${inWords(settings.provider)}${settings.account ? ` (${settings.account})` : ''}`;

/** The errors and typed values of `form`, when it is the one that came back. */
function problemOf(problem: FormProblem | undefined, form: IntegrationsForm) {
  const mine = problem?.form === form ? problem : undefined;
  return {
    errors: mine?.errors ?? {},
    value: (name: string, otherwise?: string) => (mine ? (mine.values.get(name) ?? '') : otherwise),
    values: (name: string) => mine?.values.getAll(name),
    summary: mine ? <ErrorSummary errors={mine.errors} /> : null,
  };
}

/** A GET form whose one button opens a confirmation page (Revoke, Rotate secret): nothing happens before it. */
function ConfirmLink({ href, label, name, destructive }: { href: string; label: string; name?: string; destructive?: boolean }) {
  return (
    <form method="get" action={href} class="inline">
      <button type="submit" class={destructive ? 'destructive' : 'secondary'} aria-label={name}>
        {label}
      </button>
    </form>
  );
}

function KeyTable({ keys, links, kind, zone }: { keys: ApiKeyRecord[]; links: Links; kind: 'sync' | 'payment'; zone: string }) {
  if (keys.length === 0) return <Empty>No {kind} keys yet.</Empty>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={`${kind === 'sync' ? 'Sync' : 'Payment'} keys`}>
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
              <td>{formatTime(zone, key.created_at)}</td>
              <td>{formatTime(zone, key.last_used_at, 'never')}</td>
              <td>
                {key.revoked_at ? (
                  `revoked ${formatTime(zone, key.revoked_at)}`
                ) : (
                  <>
                    active{' '}
                    <ConfirmLink
                      href={links.to(`${PAGE}/keys/${encodeURIComponent(key.key_id)}/revoke`)}
                      label="Revoke"
                      name={`Revoke ${key.name ? `the key “${key.name}”` : `key ${key.key_id}`}`}
                      destructive
                    />
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

function SyncKeyForm({ links, problem }: { links: Links; problem?: FormProblem }) {
  const { errors, value, values, summary } = problemOf(problem, 'create-sync-key');
  const checked = new Set(values('scopes') ?? []);
  return (
    <section aria-labelledby="create-sync-key">
      <h2 id="create-sync-key">Create sync key</h2>
      {summary}
      <form method="post" action={formAction(links, `${PAGE}/keys`, 'create-sync-key')} aria-labelledby="create-sync-key" novalidate>
        <input type="hidden" name="kind" value="sync" />
        <fieldset class="checks" aria-describedby={errors.scopes ? 'f-scopes-error' : undefined}>
          <legend>Scopes</legend>
          {errors.scopes ? (
            <small id="f-scopes-error" class="field-error">
              {errors.scopes}
            </small>
          ) : null}
          {KEY_SCOPES.map((scope, i) => (
            <label>
              <input type="checkbox" name="scopes" value={scope} id={i === 0 ? 'f-scopes' : undefined} checked={checked.has(scope)} /> {scope}
            </label>
          ))}
        </fieldset>
        <Field label="Name" name="sync_name" value={value('sync_name')} error={errors.sync_name} hint="Optional: what uses it, e.g. the front-desk PMS" />
        <button type="submit">Create key</button>
      </form>
    </section>
  );
}

function PaymentKeyForm({ links, problem, allowed }: { links: Links; problem?: FormProblem; allowed: boolean }) {
  const { errors, value, values, summary } = problemOf(problem, 'create-payment-key');
  return (
    <section aria-labelledby="create-payment-key">
      <h2 id="create-payment-key">Create payment key</h2>
      {summary}
      {allowed ? null : <p class="muted">Payment keys need the {PAYMENT_KEY_PLANS.join(' or ')} plan; ask us to move your hotel.</p>}
      <form method="post" action={formAction(links, `${PAGE}/keys`, 'create-payment-key')} aria-labelledby="create-payment-key" novalidate>
        <input type="hidden" name="kind" value="payment" />
        <Field
          label="Allowed origins"
          name="origins"
          value={value('origins')}
          error={errors.origins}
          hint="Websites that may call with it from a browser, separated by spaces or commas, e.g. https://hotel.example. Leave empty for server-to-server use only."
        />
        <fieldset class="checks" aria-describedby={errors.payment_scopes ? 'f-payment_scopes-error' : undefined}>
          <legend>Deliveries (optional)</legend>
          {errors.payment_scopes ? (
            <small id="f-payment_scopes-error" class="field-error">
              {errors.payment_scopes}
            </small>
          ) : null}
          {DELIVERY_SCOPES.map((scope) => (
            <label>
              <input type="checkbox" name="payment_scopes" value={scope} checked={(values('payment_scopes') ?? []).includes(scope)} /> {scope}
            </label>
          ))}
        </fieldset>
        <Field label="Name" name="payment_name" value={value('payment_name')} error={errors.payment_name} hint="Optional" />
        <button type="submit">Create key</button>
      </form>
    </section>
  );
}

function EndpointForm(props: { links: Links; kind: EndpointKind; endpoint?: EndpointConfig; problem?: FormProblem; zone: string; now: Date }) {
  const { links, kind, endpoint, problem } = props;
  // A rotation's overlap, while it lasts: the previous secret still signs beside the new one.
  const overlapUntil = endpoint?.previous_valid_until && Date.parse(endpoint.previous_valid_until) > props.now.getTime() ? endpoint.previous_valid_until : undefined;
  const id = `endpoint-${kind}` as const;
  const words = ENDPOINT_WORDS[kind];
  const { errors, value, summary } = problemOf(problem, id);
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{words.title}</h2>
      <p class="muted">
        We send {words.events}, each signed with its signing secret.{' '}
        {endpoint ? (
          <>
            Now: <span class="url">{endpoint.url}</span> (since {formatTime(props.zone, endpoint.updated_at)}).
          </>
        ) : (
          'Not set: nothing is sent.'
        )}
      </p>
      {overlapUntil ? <p>The secret was rotated: the previous signing secret works until {hotelTime(props.zone, overlapUntil)}.</p> : null}
      {summary}
      <form method="post" action={formAction(links, `${PAGE}/endpoints/${kind}`, id)} aria-labelledby={id} novalidate>
        <Field
          label={words.title}
          name={`${kind}_url`}
          type="url"
          value={value(`${kind}_url`, endpoint?.url)}
          error={errors[`${kind}_url`]}
          hint={
            endpoint
              ? 'Saving a new URL keeps the signing secret: your receiver goes on checking signatures with the one it has.'
              : 'The full address, starting with https://. The first save makes the signing secret and shows it once.'
          }
        />
        <button type="submit">Save {kind} URL</button>
      </form>
      {endpoint ? (
        <div class="actions">
          <ConfirmLink href={links.to(`${PAGE}/endpoints/${kind}/rotate`)} label="Rotate secret" name={`Rotate secret of the ${kind} URL`} />
        </div>
      ) : null}
    </section>
  );
}

/**
 * The provider and, for Stripe, one of the connected accounts the platform linked to the hotel: a
 * select, never a text field, so that a hijacked session cannot send payments to an account of
 * its own choosing.
 */
function ProviderForm(props: { links: Links; provider?: ProviderSettings; linked: LinkedStripeAccount[]; sandbox: boolean; problem?: FormProblem }) {
  const { links, provider, linked, sandbox } = props;
  const { errors, value, summary } = problemOf(props.problem, 'provider');
  const providers = PROVIDERS.filter((p) => p !== 'sandbox' || sandbox).map((p) => ({ value: p, label: inWords(p) }));
  return (
    <section aria-labelledby="provider">
      <h2 id="provider">Payment provider</h2>
      <p>
        {provider
          ? `Now: ${providerWords(provider)}.`
          : sandbox
            ? 'Not set: orders use the sandbox of this stage.'
            : 'Not set: payment orders are refused until a provider is set.'}
      </p>
      {summary}
      <form method="post" action={formAction(links, `${PAGE}/provider`, 'provider')} aria-labelledby="provider" novalidate>
        <Select label="Provider" name="provider" options={providers} value={value('provider', provider?.provider)} error={errors.provider} />
        {linked.length ? (
          <>
            <Select
              label="Stripe account"
              name="account"
              options={linked.map((a) => ({ value: a.account, label: a.account }))}
              value={value('account', provider?.account)}
              error={errors.account}
            />
            <p class="muted">For Stripe: the connected account payments go to. Only the accounts we linked to your hotel are listed.</p>
          </>
        ) : (
          <p class="muted">No Stripe account is linked to your hotel yet: ask us to link your Stripe connected account.</p>
        )}
        <button type="submit">Save provider</button>
      </form>
    </section>
  );
}

/** The guest booking page: its URL, its QR code for the reception desk, the pay-at-property setting. */
function GuestBookingSection(props: { links: Links; url: string; clientId: string; payAtProperty: boolean; problem?: FormProblem }) {
  const { links, url, clientId, payAtProperty } = props;
  const { summary } = problemOf(props.problem, 'guest-booking');
  return (
    <section aria-labelledby="guest-booking">
      <h2 id="guest-booking">Guest booking</h2>
      <p class="muted">Your public booking page: guests choose dates and a room, and pay on your payment provider's checkout. Every booking is sent to your callback URL.</p>
      <p>
        Booking page: <a href={url} class="url">{url}</a>
      </p>
      <img class="qr" src={links.to(qrCodePath(clientId))} alt={`QR code of the booking page ${url}`} width={192} height={192} />
      <div class="actions">
        <a href={links.to(QR_SHEET)}>Printable QR code for the reception desk</a>
      </div>
      {summary}
      {emailEnabled() ? (
        <form method="post" action={formAction(links, `${PAGE}/guest-booking/pay-at-property`, 'guest-booking')} aria-labelledby="pay-at-property">
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

const ON_THIS_PAGE: readonly [string, string][] = [
  ['hotel-settings', 'Hotel settings'],
  ['sync-keys', 'Sync keys'],
  ['payment-keys', 'Payment keys'],
  ['endpoint-callback', 'Callback URL'],
  ['endpoint-webhook', 'Webhook URL'],
  ['provider', 'Payment provider'],
  ['guest-booking', 'Guest booking and QR code'],
];

/** The Integrations page; with `problem`, the form that came back shows its errors and what was typed (status 400). */
export async function integrationsView(request: PageRequest, problem?: FormProblem, status = 400): Promise<PageOutcome> {
  const clientId = request.operator.client_id;
  const { client, keys, endpoints, provider, linkedAccounts, guestBooking } = await integrationsOf(clientId);
  const byNewest = (a: ApiKeyRecord, b: ApiKeyRecord) => b.created_at.localeCompare(a.created_at);
  const syncKeys = keys.filter((k) => k.kind === 'sync').sort(byNewest);
  const paymentKeys = keys.filter((k) => k.kind === 'payment').sort(byNewest);
  const settings = clientSettingsOf(client);
  const { links } = request;
  const html = (
    <Page title="Integrations" links={links} operator={request.operator} nav="integrations" notice={request.notice}>
      <p class="muted">
        {client.name} · plan {client.plan}
      </p>
      <nav aria-label="On this page">
        <ul>
          {ON_THIS_PAGE.map(([id, label]) => (
            <li>
              <a href={`#${id}`}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>

      <section aria-labelledby="hotel-settings">
        <h2 id="hotel-settings">Hotel settings</h2>
        <p class="muted">Your hotel's time zone, and what guests are told on the booking page and their confirmation.</p>
        <Dl
          rows={[
            ['Time zone', settings.time_zone],
            ['Prices include taxes', settings.taxes_included === null ? 'not said' : settings.taxes_included ? 'yes' : 'no'],
            ['Cancellation policy', settings.cancellation_policy ? 'set' : 'not said'],
            ['Check-in from', settings.check_in_time ?? 'not said'],
            ['Address', settings.address ? 'set' : 'not said'],
          ]}
        />
        <p>
          <a href={links.to(HOTEL_SETTINGS)}>Change hotel settings</a>
        </p>
      </section>

      <h2 id="sync-keys">Sync keys</h2>
      <p class="muted">For your PMS: room categories, rooms, bookings, check-ins and availability.</p>
      <KeyTable keys={syncKeys} links={links} kind="sync" zone={settings.time_zone} />
      <SyncKeyForm links={links} problem={problem} />

      <h2 id="payment-keys">Payment keys</h2>
      <p class="muted">For your website's server: creating payment orders and looking them up.</p>
      <KeyTable keys={paymentKeys} links={links} kind="payment" zone={settings.time_zone} />
      <PaymentKeyForm links={links} problem={problem} allowed={PAYMENT_KEY_PLANS.includes(client.plan)} />

      {ENDPOINT_KINDS.map((kind) => (
        <EndpointForm links={links} kind={kind} endpoint={endpoints[kind]} problem={problem} zone={settings.time_zone} now={request.now} />
      ))}

      <ProviderForm links={links} provider={provider} linked={linkedAccounts} sandbox={config().sandboxPayments} problem={problem} />

      <GuestBookingSection
        links={links}
        url={bookingPageUrl(request.baseUrl, client.slug ?? clientId)}
        clientId={client.slug ?? clientId}
        payAtProperty={guestBooking.pay_at_property}
        problem={problem}
      />
    </Page>
  );
  return problem ? { html, status } : { html };
}

export const integrationsPage: PageAction = (request) => integrationsView(request);
