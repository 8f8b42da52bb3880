/**
 * `keys ...`: a client's API keys, issued (shown once), listed without the keys, and revoked;
 * issuing and revoking are audited as the operator CLI, on the key's client.
 */
import type { ApiKeyRecord } from '../../store/api-key-store';
import { type Command, defineCommand } from '../cli';
import { fields, listed } from '../format';

const clients = () => import('../../domain/clients');
const actions = () => Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/keys')]);

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

export const keyCommands: readonly Command[] = [
  defineCommand({
    name: 'keys create',
    summary: 'Issue an API key for a client; the key is shown this once',
    flags: {
      client: { value: 'ID', help: 'The client the key belongs to', required: true },
      kind: { value: 'KIND', help: 'sync (PMS routes) or payment (payment routes)', required: true, choices: ['sync', 'payment'] },
      scopes: { value: 'a,b', help: 'Scopes (sync key default: the five sync scopes; add rates:read,rates:write for rate plans and prices per date, deliveries:read,deliveries:write to read and resend its callbacks; a payment key: only the deliveries two, for its webhooks)', list: true },
      origins: { value: 'URL,URL', help: 'Browser origins allowed to use a payment key', list: true },
      name: { value: 'N', help: 'A label for the key' },
    },
    async run({ flags }) {
      const [{ cliActor }, { createApiKey }] = await actions();
      const issued = await createApiKey(cliActor(flags.client), {
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
          ...(result.kind === 'sync' || result.scopes.length ? [['scopes', listed(result.scopes)] as [string, string]] : []),
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
      const [{ OPERATOR_CLI }, { revokeKeyById }] = await actions();
      const revoked = await revokeKeyById(OPERATOR_CLI, args.KEY_ID);
      return { key_id: revoked.key_id, revoked_at: revoked.revoked_at ?? null };
    },
    render: (result) => `Revoked key ${result.key_id} at ${result.revoked_at}.`,
  }),
];
