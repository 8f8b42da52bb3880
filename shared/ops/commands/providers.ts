/**
 * `providers set`: a client's payment provider, the sandbox or Stripe on its connected account;
 * audited as the operator CLI, as the Integrations page audits an admin's choice.
 */
import { type Command, defineCommand, UsageError } from '../cli';
import { fields } from '../format';

const clients = () => import('../../domain/clients');

export const providerCommands: readonly Command[] = [
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
      const [{ cliActor }, { setPaymentProvider }] = await Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/payments')]);
      const settings = await setPaymentProvider(cliActor(flags.client), {
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
