/**
 * `callbacks set` and `webhooks set`: where a client's booking.confirmed callbacks and
 * payment_order.paid webhooks go, and the secret they are signed with (shown once); audited as
 * the operator CLI, as the Integrations page audits a URL saved.
 */
import { type Command, defineCommand } from '../cli';
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
        'Give this secret to the receiver to verify X-Service-Signature. It is shown only this once.',
      ].join('\n'),
  });
}

export const endpointCommands: readonly Command[] = [
  endpointCommand('callback', 'Set where booking.confirmed callbacks go, and their signing secret'),
  endpointCommand('webhook', 'Set where payment_order.paid webhooks go, and their signing secret'),
];
