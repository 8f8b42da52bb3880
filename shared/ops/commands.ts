/**
 * The operator commands: one entry each. An entry declares its words, flags and positionals
 * (parsed and checked by cli.ts), runs a use case and returns the --json object, and renders
 * that object for people. Use cases are imported inside run(): the target's environment is
 * in force only by then (bin/ops.ts applies it).
 */
import type { ApiKeyRecord } from '../store/api-key-store';
import { BELOW_RATE_ORDERS, type BelowRateOrders } from '../schemas/payments';
import { DEFAULT_PLAN, PLANS } from '../../definitions/plans';
import { MFA_SETTINGS, OPERATOR_ROLES } from '../../definitions/user-pool';
import { BOOKING_ORIGINS } from '../schemas/bookings';
import { BOOKING_STATUSES } from '../schemas/property-sync';
import { type Command, defineCommand, UsageError } from './cli';

const clients = () => import('../domain/clients');
const propertySync = () => import('../domain/property-sync/availability');
const callbacks = () => import('../domain/callbacks/deliveries');
const serviceBookings = () => import('../domain/bookings/service-bookings');
const operators = () => import('../domain/operators');

/** What an operator sees of a delivery: everything but the payload's bytes. */
function deliveryView(record: import('../store/delivery-store').DeliveryRecord) {
  return {
    delivery_id: record.delivery_id,
    client_id: record.client_id,
    event: record.event,
    status: record.status,
    attempts: record.attempts,
    next_attempt_at: record.status === 'pending' || record.status === 'retrying' ? record.due_at : null,
    booking_id: record.booking_id ?? null,
    payment_order_id: record.payment_order_id ?? null,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

function renderDelivery(d: ReturnType<typeof deliveryView>): string {
  return [
    `${d.delivery_id}  ${d.event}  ${d.status}  ${d.attempts.length} attempt(s)`,
    ...d.attempts.map((a) => `  ${a.at}  ${a.status_code ?? '---'}  ${String(a.duration_ms).padStart(5)} ms  ${a.error ?? ''}`),
    ...(d.next_attempt_at ? [`  next attempt at ${d.next_attempt_at}`] : []),
  ].join('\n');
}

function endpointCommand(kind: 'callback' | 'webhook', summary: string) {
  return defineCommand({
    name: `${kind}s set`,
    summary,
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      url: { value: 'URL', help: 'Where events are POSTed: https, never to an internal address (the local stack also takes http and loopback)', required: true },
      secret: { value: 'S', help: 'Signing secret (default: a new random one); shown once' },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const result = await (await callbacks()).configureEndpoint(flags.client, kind, {
        url: flags.url,
        secret: flags.secret,
      });
      return { client_id: flags.client, url: result.url, secret: result.secret };
    },
    render: (result) =>
      [
        fields([
          ['client_id', result.client_id],
          ['url', result.url],
        ]),
        '',
        `secret: ${result.secret}`,
        '',
        'Give this secret to the receiver to verify X-Service-Signature. It is shown only this once.',
      ].join('\n'),
  });
}

/** Aligned `label: value` lines. */
function fields(rows: [string, string][], indent = ''): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  return rows.map(([label, value]) => `${indent}${`${label}:`.padEnd(width)} ${value}`).join('\n');
}

const listed = (items: string[]) => (items.length ? items.join(', ') : '(none)');

/** A number flag as a number when it is written as one; otherwise the text, which validation then refuses by its type. */
const numeric = (value: string): number | string => (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value);

/** What an operator may see of a key: never the key or its hash. */
function keyView(record: ApiKeyRecord) {
  return {
    key_id: record.key_id,
    kind: record.kind,
    scopes: record.scopes,
    origins: record.origins,
    name: record.name ?? null,
    created_at: record.created_at,
    revoked_at: record.revoked_at ?? null,
    last_used_at: record.last_used_at ?? null,
  };
}

export const commands: readonly Command[] = [
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
      const settings = await (await clients()).setClientSettings(flags.client, { time_zone: flags['time-zone'] });
      return { client_id: flags.client, time_zone: settings.time_zone };
    },
    render: (result) =>
      fields([
        ['client_id', result.client_id],
        ['time_zone', result.time_zone],
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
    summary: "Show a client's settings, or change those given: booking horizon, below-rate orders, time zone and what guests are told",
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
    },
    async run({ flags }) {
      const raw = flags['booking-horizon-days'];
      const horizon = raw === undefined ? undefined : /^\d+$/.test(raw) ? Number(raw) : NaN;
      const given = <T,>(value: T | undefined, key: string) => (value === undefined ? {} : { [key]: value });
      const settings = await (await clients()).setClientSettings(flags.client, {
        ...(horizon === undefined ? {} : { booking_horizon_days: horizon }),
        ...(flags['below-rate-orders'] === undefined ? {} : { below_rate_orders: flags['below-rate-orders'] as BelowRateOrders }),
        ...given(flags['time-zone'], 'time_zone'),
        ...(flags['taxes-included'] === undefined ? {} : { taxes_included: flags['taxes-included'] === 'yes' }),
        ...given(flags['cancellation-policy'], 'cancellation_policy'),
        ...given(flags['check-in-time'], 'check_in_time'),
        ...given(flags.address, 'address'),
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
      const { linked, accounts } = await (await import('../domain/payments/provider-accounts')).linkStripeAccount(flags.client, flags.account);
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

  defineCommand({
    name: 'operators create',
    summary: "Create a dashboard operator of a client; without --password a temporary one is printed, changed at first sign-in",
    flags: {
      client: { value: 'ID', help: 'The client the operator belongs to', required: true },
      email: { value: 'E', help: 'Their e-mail: what they sign in with', required: true },
      role: { value: 'ROLE', help: 'admin (everything) or staff (everything but Integrations)', required: true, choices: OPERATOR_ROLES },
      password: { value: 'P', help: 'A permanent password (12+ characters: upper, lower, digit, symbol)' },
      mfa: {
        value: 'MFA',
        help: 'required: the dashboard makes them set up an authenticator app (TOTP) at their first sign-in, and asks for its code at every sign-in (default optional: they may turn it on under Security)',
        choices: MFA_SETTINGS,
      },
    },
    async run({ flags }) {
      return (await operators()).createOperator({ clientId: flags.client, email: flags.email, role: flags.role, password: flags.password, mfa: flags.mfa });
    },
    render: (result) =>
      [
        fields([
          ['email', result.email],
          ['role', result.role],
          ['mfa', result.mfa ?? 'optional'],
        ]),
        ...(result.temporary_password
          ? ['', `temporary password: ${result.temporary_password}`, '', 'Shown only this once. It must be changed at the first sign-in.']
          : []),
      ].join('\n'),
  }),

  defineCommand({
    name: 'operators list',
    summary: "List a client's dashboard operators",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
    },
    async run({ flags }) {
      return { operators: await (await operators()).listOperators(flags.client) };
    },
    render: ({ operators: list }) =>
      list.length
        ? list.map((o) => `${o.email}  ${o.role.padEnd(5)}  ${o.status}${o.mfa === 'required' ? '  mfa required' : ''}${o.enabled ? '' : '  (disabled)'}`).join('\n')
        : '(no operators)',
  }),

  defineCommand({
    name: 'operators remove',
    summary: 'Remove a dashboard operator: they can no longer sign in',
    flags: {
      email: { value: 'E', help: 'Their e-mail', required: true },
    },
    async run({ flags }) {
      return (await operators()).removeOperator(flags.email);
    },
    render: (result) => `Removed ${result.email}.`,
  }),

  defineCommand({
    name: 'keys create',
    summary: 'Issue an API key for a client; the key is shown this once',
    flags: {
      client: { value: 'ID', help: 'The client the key belongs to', required: true },
      kind: { value: 'KIND', help: 'sync (PMS routes) or payment (payment routes)', required: true, choices: ['sync', 'payment'] },
      scopes: { value: 'a,b', help: 'Sync scopes (default: all five)', list: true },
      origins: { value: 'URL,URL', help: 'Browser origins allowed to use a payment key', list: true },
      name: { value: 'N', help: 'A label for the key' },
    },
    async run({ flags }) {
      const issued = await (await clients()).issueApiKey({
        clientId: flags.client,
        kind: flags.kind as 'sync' | 'payment',
        scopes: flags.scopes,
        origins: flags.origins,
        name: flags.name,
      });
      return { key_id: issued.key_id, key: issued.key, kind: issued.kind, scopes: issued.scopes, origins: issued.origins };
    },
    render: (result) =>
      [
        fields([
          ['key_id', result.key_id],
          ['kind', result.kind],
          ...(result.kind === 'sync' ? [['scopes', listed(result.scopes)] as [string, string]] : []),
          ...(result.kind === 'payment' ? [['origins', listed(result.origins)] as [string, string]] : []),
        ]),
        '',
        `key: ${result.key}`,
        '',
        'This key is shown only this once: store it now. It cannot be retrieved later;',
        'if it is lost, revoke it and create another.',
      ].join('\n'),
  }),

  defineCommand({
    name: 'keys list',
    summary: "List a client's API keys (their ids and settings, never the keys)",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
    },
    async run({ flags }) {
      const records = await (await clients()).listClientKeys(flags.client);
      const byAge = [...records].sort((a, b) => a.created_at.localeCompare(b.created_at));
      return { keys: byAge.map(keyView) };
    },
    render: ({ keys }) =>
      keys.length
        ? keys
            .map((key) =>
              [
                `${key.key_id}  ${key.kind}  ${key.revoked_at ? 'revoked' : 'active'}${key.name ? `  "${key.name}"` : ''}`,
                fields(
                  [
                    key.kind === 'sync' ? ['scopes', listed(key.scopes)] : ['origins', listed(key.origins)],
                    ['created', key.created_at],
                    ['last used', key.last_used_at ?? 'never'],
                    ...(key.revoked_at ? [['revoked', key.revoked_at] as [string, string]] : []),
                  ],
                  '  ',
                ),
              ].join('\n'),
            )
            .join('\n\n')
        : 'No API keys for this client.',
  }),

  defineCommand({
    name: 'keys revoke',
    summary: 'Revoke an API key; it stops working within 60 seconds',
    flags: {},
    positionals: [{ name: 'KEY_ID', help: 'The key id (from keys create or keys list)' }],
    async run({ args }) {
      const revoked = await (await clients()).revokeKey(args.KEY_ID);
      return { key_id: revoked.key_id, revoked_at: revoked.revoked_at ?? null };
    },
    render: (result) => `Revoked key ${result.key_id} at ${result.revoked_at}.`,
  }),

  defineCommand({
    name: 'rooms list',
    summary: "List a client's rooms in room-number order, with their external ids and category",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      return { rooms: await (await propertySync()).listRoomViews(flags.client) };
    },
    render: ({ rooms }) =>
      rooms.length
        ? rooms
            .map(
              (room) =>
                `${room.room_number.padEnd(8)} ${room.room_type.padEnd(14)} ${String(room.price).padStart(8)}  max ${room.max_occupancy}  ` +
                `${room.external_source ? `${room.external_source}/${room.external_room_id}` : '(not linked)'}` +
                `${room.category ? `  ${room.category.name}` : ''}  ${room.id}`,
            )
            .join('\n')
        : 'No rooms for this client.',
  }),

  defineCommand({
    name: 'rooms create',
    summary: 'Set up a room in the service before any PMS links it (a later sync with its room number links it)',
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      'room-number': { value: 'N', help: 'Room number, unique within the client', required: true },
      'room-type': { value: 'T', help: 'Room type, e.g. double', required: true },
      price: { value: 'P', help: "Price per night in the client's currency, not negative", required: true },
      'max-occupancy': { value: 'M', help: 'Most guests, a whole number from 1', required: true },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const room = await (await import('../domain/rooms/service-rooms')).createServiceRoom(flags.client, {
        room_number: flags['room-number'],
        room_type: flags['room-type'],
        price: numeric(flags.price),
        max_occupancy: numeric(flags['max-occupancy']),
      });
      return { room_id: room.id };
    },
    render: (result) => fields([['room_id', result.room_id]]),
  }),

  endpointCommand('callback', 'Set where booking.confirmed callbacks go, and their signing secret'),
  endpointCommand('webhook', 'Set where payment_order.paid webhooks go, and their signing secret'),

  defineCommand({
    name: 'bookings create',
    summary: 'Make a confirmed reception booking on a free room (emits booking.confirmed)',
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      room: { value: 'ROOM_ID', help: 'The room (see rooms list)', required: true },
      'guest-name': { value: 'NAME', help: 'Guest name', required: true },
      'guest-email': { value: 'EMAIL', help: 'Guest e-mail (this, --guest-phone or both)' },
      'guest-phone': { value: 'PHONE', help: 'Guest phone in international format, e.g. +44 20 7946 0958' },
      'check-in': { value: 'YYYY-MM-DD', help: 'Check-in date', required: true },
      'check-out': { value: 'YYYY-MM-DD', help: 'Check-out date', required: true },
      guests: { value: 'N', help: 'Number of guests', required: true },
      'total-amount': { value: 'X', help: "Total in the client's currency", required: true },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const { createReceptionBooking } = await import('../domain/bookings/reception-bookings');
      const confirmed = await createReceptionBooking(flags.client, flags.room, {
        guest_name: flags['guest-name'],
        guest_email: flags['guest-email'],
        guest_phone: flags['guest-phone'],
        check_in_date: flags['check-in'],
        check_out_date: flags['check-out'],
        guests: flags.guests,
        total_amount: flags['total-amount'],
      });
      return {
        booking_id: confirmed.booking.id,
        booking_reference: confirmed.booking.booking_reference!,
        confirmation_code: confirmed.booking.confirmation_code!,
      };
    },
    render: (result) =>
      fields([
        ['booking_id', result.booking_id],
        ['booking_reference', result.booking_reference],
        ['confirmation_code', result.confirmation_code],
      ]),
  }),

  defineCommand({
    name: 'bookings list',
    summary: "List a client's bookings of every origin (sync, reception, payment) in check-in order",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      from: { value: 'YYYY-MM-DD', help: 'Only stays with a night on or after this date' },
      to: { value: 'YYYY-MM-DD', help: 'Only stays with a night on or before this date' },
      status: { value: 'S', help: 'Only this status', choices: BOOKING_STATUSES },
      origin: { value: 'O', help: 'Only this origin', choices: BOOKING_ORIGINS },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const { bookings } = await (await import('../domain/bookings/list-bookings')).listClientBookings(flags.client, {
        from: flags.from,
        to: flags.to,
        status: flags.status,
        origin: flags.origin,
      });
      const order = (b: (typeof bookings)[number]) => `${b.check_in_date}#${b.check_out_date}#${b.booking_id}`;
      return { bookings: bookings.sort((a, b) => order(a).localeCompare(order(b))) };
    },
    render: ({ bookings }) =>
      bookings.length
        ? bookings
            .map(
              (b) =>
                `${b.check_in_date} → ${b.check_out_date}  ${b.status.padEnd(11)} ${b.origin.padEnd(9)} ` +
                `${b.room_number ? `room ${b.room_number}` : b.awaiting_room ? 'AWAITING ROOM' : '(no room)'}  ${b.guest_name}  ${b.booking_id}` +
                (b.below_rate ? '  PAID BELOW RATE' : ''),
            )
            .join('\n')
        : 'No bookings.',
  }),

  defineCommand({
    name: 'bookings reindex',
    summary:
      "Give bookings written by versions before the check-in order index and the dashboard's search their index attributes and search entries (one client, or every client); safe to run again",
    flags: {
      client: { value: 'ID', help: 'Only this client (default: every client)' },
    },
    async run({ flags }) {
      if (flags.client) await (await clients()).requireClient(flags.client);
      return (await import('../domain/bookings/reindex-bookings')).reindexBookings({ clientId: flags.client });
    },
    render: (result) =>
      fields([
        ['clients', String(result.clients)],
        ['bookings', String(result.bookings)],
        ['bookings given the index', String(result.reindexed)],
      ]),
  }),

  defineCommand({
    name: 'bookings assign',
    summary: 'Give a paid booking recorded for manual assignment a room (emits booking.confirmed again, with the room)',
    flags: {
      room: { value: 'ROOM_ID', help: "A room of the booking's client, free for the whole stay (see rooms list)", required: true },
    },
    positionals: [{ name: 'BOOKING_ID', help: 'The booking (see bookings list; the order status names it as service_booking_sync.booking_id)' }],
    async run({ args, flags }) {
      const [assign, list] = await Promise.all([import('../domain/bookings/assign-room'), import('../domain/bookings/list-bookings')]);
      const clientId = await assign.findBookingClient(args.BOOKING_ID);
      const { booking, room, delivery_id } = await assign.assignBookingRoom(clientId, args.BOOKING_ID, flags.room);
      return { ...list.bookingView(booking, () => room.room_number), delivery_id: delivery_id ?? null };
    },
    render: (result) =>
      fields([
        ['booking_id', result.booking_id],
        ['room', `${result.room_number} (${result.room_id})`],
        ['stay', `${result.check_in_date} → ${result.check_out_date}`],
        ['booking.confirmed', result.delivery_id ? `delivery ${result.delivery_id}` : 'not sent (no callback URL)'],
      ]),
  }),

  defineCommand({
    name: 'deliveries list',
    summary: "List a client's callback and webhook deliveries with every attempt",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      status: { value: 'S', help: 'Only this status', choices: ['pending', 'retrying', 'delivered', 'failed', 'needs_review'] },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const deliveries = await (await callbacks()).listDeliveries(flags.client, flags.status as never);
      return { deliveries: deliveries.map(deliveryView) };
    },
    render: ({ deliveries }) => (deliveries.length ? deliveries.map(renderDelivery).join('\n\n') : 'No deliveries.'),
  }),

  defineCommand({
    name: 'deliveries show',
    summary: 'Show one delivery with every attempt',
    flags: {},
    positionals: [{ name: 'DELIVERY_ID', help: 'The delivery id (X-Service-Delivery)' }],
    async run({ args }) {
      return deliveryView(await (await callbacks()).showDelivery(args.DELIVERY_ID));
    },
    render: renderDelivery,
  }),

  defineCommand({
    name: 'deliveries retry',
    summary: 'Send a failed or needs_review delivery again (same delivery id), or all of a client\'s with --client and --status',
    flags: {
      client: { value: 'ID', help: 'With --status: retry all of this client\'s deliveries in that status' },
      status: { value: 'S', help: 'failed or needs_review', choices: ['failed', 'needs_review'] },
    },
    positionals: [{ name: 'DELIVERY_ID', help: 'One delivery to retry', optional: true }],
    async run({ args, flags }) {
      const domain = await callbacks();
      if (args.DELIVERY_ID && !flags.client && !flags.status) {
        return { retried: [deliveryView(await domain.retryDelivery(args.DELIVERY_ID))] };
      }
      if (!args.DELIVERY_ID && flags.client && flags.status) {
        await (await clients()).requireClient(flags.client);
        const retried = await domain.retryDeliveries(flags.client, flags.status as 'failed' | 'needs_review');
        return { retried: retried.map(deliveryView) };
      }
      throw new UsageError('give either DELIVERY_ID, or --client and --status');
    },
    render: ({ retried }) => (retried.length ? `Queued again: ${retried.map((d) => d.delivery_id).join(', ')}` : 'Nothing to retry.'),
  }),

  defineCommand({
    name: 'providers set',
    summary: "Set a client's payment provider: the sandbox, or Stripe on the client's connected account (linked to the client too)",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      provider: { value: 'NAME', help: 'sandbox or stripe', required: true, choices: ['sandbox', 'stripe'] },
      account: { value: 'acct_...', help: 'The Stripe connected account checkouts are created on (required for stripe)' },
    },
    async run({ flags }) {
      if (flags.provider === 'stripe' && !flags.account) throw new UsageError('--provider stripe needs --account acct_...');
      if (flags.provider === 'sandbox' && flags.account) throw new UsageError('--account is only for --provider stripe');
      if (flags.account && !/^acct_[A-Za-z0-9]+$/.test(flags.account)) throw new UsageError(`--account must be a Stripe account id (acct_...), not ${flags.account}`);
      await (await clients()).requireClient(flags.client);
      const settings = await (await import('../domain/payments/providers')).configureProvider(flags.client, {
        provider: flags.provider,
        account: flags.account,
      });
      return { client_id: flags.client, provider: settings.provider, account: settings.account ?? null };
    },
    render: (result) =>
      fields([
        ['client_id', result.client_id],
        ['provider', result.provider],
        ...(result.account ? [['account', result.account] as [string, string]] : []),
      ]),
  }),
];
