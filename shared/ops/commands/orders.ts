/**
 * `orders ...`: a paid order refunded, in full or in part, on the provider and account it was paid
 * with; audited as the operator CLI acting for the order's client (found by the reference).
 */
import { type Command, defineCommand, UsageError } from '../cli';
import { fields } from '../format';

export const orderCommands: readonly Command[] = [
  defineCommand({
    name: 'orders refund',
    summary: 'Refund a paid order, all that is left or an amount (emits payment_order.refunded); refunds never add up to more than was paid',
    flags: {
      amount: { value: 'AMOUNT_MINOR', help: 'The amount in minor units (default: all that is not refunded yet)' },
      reason: { value: 'R', help: 'Why: kept with the refund and told to the guest' },
    },
    positionals: [{ name: 'ORDER_REFERENCE', help: 'The order (PO-...; see the dashboard Payments page)' }],
    async run({ args, flags }) {
      if (flags.amount !== undefined && !/^[1-9]\d{0,14}$/.test(flags.amount)) {
        throw new UsageError(`--amount must be a whole number of minor units from 1, not ${flags.amount}`);
      }
      const [{ cliActor }, { findOrderClient, refundOrder }] = await Promise.all([
        import('../../domain/operator-actions/actor'),
        import('../../domain/operator-actions/booking-changes'),
      ]);
      const clientId = await findOrderClient(args.ORDER_REFERENCE);
      const refund = await refundOrder(cliActor(clientId), args.ORDER_REFERENCE, {
        ...(flags.amount !== undefined ? { amount_minor: Number(flags.amount) } : {}),
        ...(flags.reason ? { reason: flags.reason } : {}),
      });
      return { order_reference: args.ORDER_REFERENCE, ...refund };
    },
    render: (result) =>
      fields([
        ['order_reference', result.order_reference],
        ['refund_id', result.refund_id],
        ['amount', `${result.amount_minor} ${result.currency} minor units`],
        ['status', result.status],
        ['created_at', result.created_at],
      ]),
  }),
];
