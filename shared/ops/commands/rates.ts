/**
 * `rates ...`: a client's rate plans night by night (the dashboard's Rates calendar), and a range
 * of one plan set as PUT rates sets it (the dashboard's "Set rates", audited as the operator CLI).
 */
import { type Command, defineCommand } from '../cli';
import { numeric } from '../format';

const clients = () => import('../../domain/clients');
const calendar = () => import('../../domain/rates/rates-calendar');
const actions = () => Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/rates')]);
const YES_NO = ['yes', 'no'] as const;
const flag = (value: string | undefined) => (value === undefined ? undefined : value === 'yes');

export const rateCommands: readonly Command[] = [
  defineCommand({
    name: 'rates show',
    summary: "A client's rate plans night by night: price (* the category's base price) and rules of stay",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      from: { value: 'D', help: 'First night (YYYY-MM-DD); default today (UTC)' },
      nights: { value: 'N', help: 'Nights from 1 to 62', default: '14' },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const nights = Number(flags.nights);
      const from = flags.from ?? new Date().toISOString().slice(0, 10);
      const { errors } = await import('../../errors');
      const { isCalendarDate } = await import('../../schemas/common');
      if (!Number.isInteger(nights) || nights < 1 || nights > 62) throw errors.validation([{ path: 'nights', message: 'must be a whole number from 1 to 62' }]);
      if (!isCalendarDate(from)) throw errors.validation([{ path: 'from', message: 'must be a real calendar date in YYYY-MM-DD form' }]);
      return (await calendar()).ratesCalendar(flags.client, from, nights);
    },
    render: ({ dates, categories }) => {
      if (!categories.length) return 'No rate plans for this client.';
      const lines = [`${''.padEnd(28)}${dates.map((d) => d.slice(5).padStart(9)).join('')}`];
      for (const category of categories) {
        lines.push(`${category.name} (${category.external_source}/${category.external_category_id})`);
        for (const plan of category.plans) {
          const cells = plan.nights.map((n) => {
            const mark = n.stop_sell ? 'X' : n.closed_to_arrival || n.closed_to_departure ? '!' : n.min_stay_arrival > 1 || n.min_stay_through > 1 || n.max_stay > 0 ? '+' : '';
            return `${n.price === null ? '-' : String(n.price)}${n.price_source === 'base' ? '*' : ''}${mark}`.padStart(9);
          });
          lines.push(`  ${`${plan.name} [${plan.external_rate_plan_id}]`.slice(0, 26).padEnd(26)}${cells.join('')}`);
        }
      }
      lines.push('* base price   X closed   ! closed to arrival or departure   + minimum or maximum stay (--json for every value)');
      return lines.join('\n');
    },
  }),

  defineCommand({
    name: 'rates set',
    summary: 'Set prices and rules of stay of one plan for a range of nights (PUT rates\' rules; what is not given is left as it is)',
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      source: { value: 'S', help: 'The external_source of the plan', required: true },
      plan: { value: 'P', help: 'The external_rate_plan_id', required: true },
      from: { value: 'D', help: 'First date (YYYY-MM-DD)', required: true },
      to: { value: 'D', help: 'Last date, included', required: true },
      days: { value: 'mo,tu,...', help: 'Only these weekdays of the range', list: true },
      price: { value: 'P', help: "Price a night in the client's currency" },
      'min-stay-arrival': { value: 'N', help: 'Minimum nights of a stay arriving on the date' },
      'min-stay-through': { value: 'N', help: 'Minimum nights of a stay that includes the night' },
      'max-stay': { value: 'N', help: 'Maximum nights of a stay arriving on the date (0: none)' },
      'closed-to-arrival': { value: 'yes|no', help: 'No arrivals on the date', choices: YES_NO },
      'closed-to-departure': { value: 'yes|no', help: 'No departures on the date', choices: YES_NO },
      'stop-sell': { value: 'yes|no', help: 'Night not for sale', choices: YES_NO },
      sequence: { value: 'N', help: 'Your change number: a value set with a higher one is kept' },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const [{ cliActor }, { setRates }] = await actions();
      const optional = {
        price: flags.price,
        min_stay_arrival: flags['min-stay-arrival'],
        min_stay_through: flags['min-stay-through'],
        max_stay: flags['max-stay'],
        sequence: flags.sequence,
      };
      const range = {
        external_source: flags.source,
        external_rate_plan_id: flags.plan,
        date_from: flags.from,
        date_to: flags.to,
        ...(flags.days.length ? { days: flags.days } : {}),
        ...Object.fromEntries(Object.entries(optional).flatMap(([k, v]) => (v === undefined ? [] : [[k, numeric(v)]]))),
        ...Object.fromEntries(
          (['closed-to-arrival', 'closed-to-departure', 'stop-sell'] as const).flatMap((k) => (flags[k] === undefined ? [] : [[k.replace(/-/g, '_'), flag(flags[k])]])),
        ),
      };
      return setRates(cliActor(flags.client), range as Parameters<typeof setRates>[1]);
    },
    render: (result) => `${result.days_changed} nights changed, ${result.days_unchanged} unchanged, ${result.days_stale} kept (set with a higher sequence)`,
  }),
];
