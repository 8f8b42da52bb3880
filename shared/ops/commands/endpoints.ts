/**
 * `callbacks set` and `webhooks set`: where a client's booking callbacks and payment_order
 * webhooks go, and the secret they are signed with (shown once; a secret set this way replaces
 * the old one at once). `callbacks rotate-secret` and `webhooks rotate-secret`: a new secret, the
 * old one still signing beside it for the overlap. Audited as the operator CLI, as the
 * Integrations page audits its changes.
 */
import { type Command, defineCommand, UsageError } from '../cli';
import { fields } from '../format';

const clients = () => import('../../domain/clients');
const actions = () => Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/endpoints')]);

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
      const [{ cliActor }, { setEndpoint }] = await actions();
      const result = await setEndpoint(cliActor(flags.client), kind, {
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
        'Give this secret to the receiver to verify webhook-signature and X-Service-Signature. It is shown only this once.',
      ].join('\n'),
  });
}

function rotateCommand(kind: 'callback' | 'webhook') {
  return defineCommand({
    name: `${kind}s rotate-secret`,
    summary: `A new ${kind} signing secret; the current one keeps signing beside it for the overlap`,
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      'overlap-hours': { value: 'H', help: 'How long the current secret stays valid beside the new one (default 24; 0 ends it at once)' },
    },
    async run({ flags }) {
      const raw = flags['overlap-hours'];
      const hours = raw === undefined ? undefined : /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
      if (Number.isNaN(hours)) throw new UsageError(`--overlap-hours must be a number of hours, not "${raw}"`);
      await (await clients()).requireClient(flags.client);
      const [{ cliActor }, { rotateSigningSecret }] = await actions();
      const rotated = await rotateSigningSecret(cliActor(flags.client), kind, hours);
      return { client_id: flags.client, url: rotated.url, secret: rotated.secret, previous_valid_until: rotated.previous_valid_until };
    },
    render: (result) =>
      [
        fields([
          ['client_id', result.client_id],
          ['url', result.url],
          ['previous_valid_until', result.previous_valid_until],
        ]),
        '',
        `secret: ${result.secret}`,
        '',
        `Give this secret to the receiver before ${result.previous_valid_until}: until then every ${kind} is signed with both (webhook-signature) and`,
        'X-Service-Signature keeps the previous secret; from then on only this one signs. It is shown only this once.',
      ].join('\n'),
  });
}

export const endpointCommands: readonly Command[] = [
  endpointCommand('callback', 'Set where booking callbacks go, and their signing secret (replaced at once)'),
  endpointCommand('webhook', 'Set where payment_order webhooks go, and their signing secret (replaced at once)'),
  rotateCommand('callback'),
  rotateCommand('webhook'),
];
