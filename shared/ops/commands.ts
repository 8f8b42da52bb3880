/**
 * The operator commands: one entry each. An entry declares its words, flags and positionals
 * (parsed and checked by cli.ts), runs a use case and returns the --json object, and renders
 * that object for people. Use cases are imported inside run(): the target's configuration is
 * in process.env only by then.
 */
import type { ApiKeyRecord } from '../store/api-key-store';
import { type Command, defineCommand } from './cli';

const clients = () => import('../domain/clients');
const propertySync = () => import('../domain/property-sync/availability');

/** Aligned `label: value` lines. */
function fields(rows: [string, string][], indent = ''): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  return rows.map(([label, value]) => `${indent}${`${label}:`.padEnd(width)} ${value}`).join('\n');
}

const listed = (items: string[]) => (items.length ? items.join(', ') : '(none)');

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
      currency: { value: 'CODE', help: 'ISO 4217 currency of its prices and payments', default: 'USD' },
    },
    async run({ flags }) {
      const client = await (await clients()).createClientAccount(flags.name, flags.currency);
      return { client_id: client.client_id };
    },
    render: (result) => fields([['client_id', result.client_id]]),
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
];
