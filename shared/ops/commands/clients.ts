/**
 * `clients ...`: create a client (a hotel account), list them, set its plan, time zone and
 * settings (audited as the operator CLI, as the Hotel settings page audits them), link a Stripe
 * connected account, and move its configuration to its partition.
 */
import { DEFAULT_PLAN, PLANS } from '../../../definitions/plans';
import { LANGUAGES } from '../../i18n/languages';
import { BELOW_RATE_ORDERS, type BelowRateOrders } from '../../schemas/payments';
import { type Command, defineCommand, UsageError } from '../cli';
import { fields, listed } from '../format';

const clients = () => import('../../domain/clients');

/** Saves the change as the operator CLI acting for the client, audited; the settings as they now apply. */
async function saveSettings(clientId: string, change: import('../../store/api-key-store').ClientSettingsChange) {
  const [{ cliActor }, { saveClientSettings }] = await Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/hotel-settings')]);
  return (await saveClientSettings(cliActor(clientId), change)).after;
}

export const clientCommands: readonly Command[] = [
  defineCommand({
    name: 'clients create',
    summary: 'Create a client (a hotel account)',
    flags: {
      name: { value: 'NAME', help: 'The client name', required: true },
      plan: { value: 'PLAN', help: 'Its plan: rate limits, and payment keys on premium only', default: DEFAULT_PLAN, choices: PLANS },
      currency: { value: 'CODE', help: 'ISO 4217 currency of its prices and payments', default: 'USD' },
      'time-zone': { value: 'TZ', help: "The hotel's IANA time zone, such as America/New_York: its today and deadlines", default: 'UTC' },
    },
    async run({ flags }) {
      const client = await (await clients()).createClientAccount({ name: flags.name, plan: flags.plan, currency: flags.currency, time_zone: flags['time-zone'] });
      return { client_id: client.client_id, plan: client.plan, time_zone: client.time_zone ?? 'UTC' };
    },
    render: (result) =>
      fields([
        ['client_id', result.client_id],
        ['plan', result.plan],
        ['time_zone', result.time_zone],
      ]),
  }),

  defineCommand({
    name: 'clients set-time-zone',
    summary: "Set a hotel's time zone (an IANA name): its today, arrivals, horizon and deadlines follow it",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      'time-zone': { value: 'TZ', help: 'An IANA time zone, such as Europe/London or Asia/Tokyo', required: true },
    },
    async run({ flags }) {
      const settings = await saveSettings(flags.client, { time_zone: flags['time-zone'] });
      return { client_id: flags.client, time_zone: settings.time_zone };
    },
    render: (result) =>
      fields([
        ['client_id', result.client_id],
        ['time_zone', result.time_zone],
      ]),
  }),

  defineCommand({
    name: 'clients set-slug',
    summary: "Give a hotel's booking page its own address, /book/SLUG (its QR code uses it; the id address keeps working; the old slug is freed)",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      slug: { value: 'SLUG', help: '3 to 60 lowercase letters, digits and hyphens, unique across hotels, such as hale-kai', required: true },
    },
    async run({ flags }) {
      const [{ cliActor }, { saveClientSlug }] = await Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/hotel-settings')]);
      const { slug, previous } = await saveClientSlug(cliActor(flags.client), flags.slug);
      return { client_id: flags.client, slug, previous_slug: previous, booking_page: `/book/${slug}` };
    },
    render: (result) =>
      fields([
        ['client_id', result.client_id],
        ['slug', result.slug ?? '(none)'],
        ['previous slug', result.previous_slug ?? '(none)'],
        ['booking page', result.booking_page],
      ]),
  }),

  defineCommand({
    name: 'clients set-plan',
    summary: "Move a client to a plan (its rate limits); moving to standard revokes its payment keys",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      plan: { value: 'PLAN', help: 'The new plan', required: true, choices: PLANS },
    },
    async run({ flags }) {
      const { client, revoked } = await (await clients()).setClientPlan(flags.client, flags.plan);
      return { client_id: client.client_id, plan: client.plan, revoked_keys: revoked.map((key) => key.key_id) };
    },
    render: (result) =>
      [
        fields([
          ['client_id', result.client_id],
          ['plan', result.plan],
          ['revoked keys', listed(result.revoked_keys)],
        ]),
        ...(result.revoked_keys.length ? ['', 'The revoked payment keys stop working within 60 s.'] : []),
      ].join('\n'),
  }),

  defineCommand({
    name: 'clients settings',
    summary: "Show a client's settings, or change those given: booking horizon, below-rate orders, time zone, free cancellation, what guests are told (contact, taxes)",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      'booking-horizon-days': { value: 'N', help: 'Guests may book at most N days ahead on the booking page (default 365)' },
      'below-rate-orders': {
        value: 'MODE',
        help: 'A room booking paid below its rate: lock (takes its room, the default) or manual (recorded for manual assignment)',
        choices: BELOW_RATE_ORDERS,
      },
      'time-zone': { value: 'TZ', help: "The hotel's IANA time zone (as clients set-time-zone)" },
      'taxes-included': { value: 'YES|NO', help: 'Whether the guest page says its prices include taxes', choices: ['yes', 'no'] },
      'cancellation-policy': { value: 'TEXT', help: 'The cancellation policy guests read before paying' },
      'check-in-time': { value: 'HH:MM', help: 'Check-in from this local time, told to guests on their confirmation' },
      address: { value: 'TEXT', help: "The hotel's address, told to guests on their confirmation" },
      'free-cancellation-hours': { value: 'H', help: 'Guests may cancel their own booking (refunded in full) until H hours before check-in (default 48)' },
      phone: { value: 'E164', help: "The hotel's phone for guests, such as +18085550123 (pages and e-mails)" },
      email: { value: 'ADDRESS', help: "The hotel's e-mail for guests: shown on pages and e-mails, the Reply-To of every guest e-mail" },
      'tax-percent': { value: 'P', help: 'Taxes on the room price in percent, 0 to 100 (default 0): shown to guests and charged' },
      language: { value: 'LANG', help: "The guests' language when neither they nor their browser chose one (default en)", choices: LANGUAGES },
    },
    async run({ flags }) {
      const raw = flags['booking-horizon-days'];
      const horizon = raw === undefined ? undefined : /^\d+$/.test(raw) ? Number(raw) : NaN;
      const rawHours = flags['free-cancellation-hours'];
      const hours = rawHours === undefined ? undefined : /^\d+$/.test(rawHours) ? Number(rawHours) : NaN;
      const given = <T,>(value: T | undefined, key: string) => (value === undefined ? {} : { [key]: value });
      const settings = await saveSettings(flags.client, {
        ...(horizon === undefined ? {} : { booking_horizon_days: horizon }),
        ...(flags['below-rate-orders'] === undefined ? {} : { below_rate_orders: flags['below-rate-orders'] as BelowRateOrders }),
        ...given(flags['time-zone'], 'time_zone'),
        ...(flags['taxes-included'] === undefined ? {} : { taxes_included: flags['taxes-included'] === 'yes' }),
        ...given(flags['cancellation-policy'], 'cancellation_policy'),
        ...given(flags['check-in-time'], 'check_in_time'),
        ...given(flags.address, 'address'),
        ...(hours === undefined ? {} : { free_cancellation_hours: hours }),
        ...given(flags.phone, 'phone'),
        ...given(flags.email, 'email'),
        ...(flags['tax-percent'] === undefined ? {} : { tax_percent: /^\d+(\.\d+)?$/.test(flags['tax-percent']) ? Number(flags['tax-percent']) : NaN }),
        ...given(flags.language, 'language'),
      });
      return { client_id: flags.client, ...settings };
    },
    render: (result) =>
      fields([
        ['client_id', result.client_id],
        ['booking_horizon_days', String(result.booking_horizon_days)],
        ['below_rate_orders', result.below_rate_orders],
        ['time_zone', result.time_zone],
        ['taxes_included', result.taxes_included === null ? '(not said)' : result.taxes_included ? 'yes' : 'no'],
        ['cancellation_policy', result.cancellation_policy ?? '(none)'],
        ['check_in_time', result.check_in_time ?? '(none)'],
        ['address', result.address ?? '(none)'],
        ['free_cancellation_hours', String(result.free_cancellation_hours)],
        ['phone', result.phone ?? '(none)'],
        ['email', result.email ?? '(none)'],
        ['tax_percent', String(result.tax_percent)],
        ['language', result.language],
      ]),
  }),

  defineCommand({
    name: 'clients list',
    summary: 'List every client with its plan',
    flags: {},
    async run() {
      const records = await (await clients()).listClientAccounts();
      return { clients: records.map((c) => ({ client_id: c.client_id, name: c.name, plan: c.plan, currency: c.currency, created_at: c.created_at })) };
    },
    render: ({ clients: list }) =>
      list.length ? list.map((c) => `${c.client_id}  ${c.plan.padEnd(8)}  ${c.currency}  ${c.name}`).join('\n') : '(no clients)',
  }),

  defineCommand({
    name: 'clients migrate-config',
    summary:
      "Move every client's profile, provider settings and endpoints to its configuration partition (CLIENTCONFIG#), from where versions before kept them; safe to run again",
    flags: {},
    async run() {
      return (await clients()).migrateClientConfigs();
    },
    render: (result) =>
      fields([
        ['clients', String(result.clients)],
        ['items copied', String(result.copied)],
        ['unset items written', String(result.unset)],
      ]),
  }),

  defineCommand({
    name: 'clients link-stripe-account',
    summary: "Link a Stripe connected account to a client: its admins may then choose it on the dashboard's Integrations page",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      account: { value: 'acct_...', help: 'The Stripe connected account id', required: true },
    },
    async run({ flags }) {
      if (!/^acct_[A-Za-z0-9]+$/.test(flags.account)) throw new UsageError(`--account must be a Stripe account id (acct_...), not ${flags.account}`);
      await (await clients()).requireClient(flags.client);
      const { linked, accounts } = await (await import('../../domain/payments/provider-accounts')).linkStripeAccount(flags.client, flags.account);
      return { client_id: flags.client, account: linked.account, linked_at: linked.linked_at, linked_accounts: accounts.map((a) => a.account) };
    },
    render: (result) =>
      fields([
        ['client_id', result.client_id],
        ['account', result.account],
        ['linked at', result.linked_at],
        ['linked accounts', listed(result.linked_accounts)],
      ]),
  }),
];
