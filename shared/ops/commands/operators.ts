/** `operators ...`: a client's dashboard operators, created, listed and removed. */
import { MFA_SETTINGS, OPERATOR_ROLES } from '../../../definitions/user-pool';
import { type Command, defineCommand } from '../cli';
import { fields } from '../format';

const operators = () => import('../../domain/operators');

export const operatorCommands: readonly Command[] = [
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
];
