/**
 * An in-memory model of docs/behaviour.md "Rates and restrictions per date", written from the
 * contract and apart from the product code on purpose (test/integration/rates-model.test.ts):
 * values kept per plan, date and field with the sequence each was set with; a stay evaluated on
 * each plan as the contract lists its rules.
 */
import type { RateUpdate } from '../../shared/receiver-kit';

export const FIELDS = ['price', 'min_stay_arrival', 'min_stay_through', 'max_stay', 'closed_to_arrival', 'closed_to_departure', 'stop_sell'] as const;
export type Field = (typeof FIELDS)[number];
const WEEKDAY_NAMES = ['su', 'mo', 'tu', 'we', 'th', 'fr', 'sa'];

/** An update as a partner writes it: the receiver kit's type (the public contract), not the service's. */
export type Update = RateUpdate;

export interface Push {
  sequence?: number;
  updates: Update[];
}

export interface Offer {
  external_rate_plan_id: string;
  name: string;
  bookable: boolean;
  total: number;
  nights: { date: string; price: number }[];
  blocked_by: { date: string; restriction: string }[];
}

const next = (date: string, n = 1) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export class RatesModel {
  /** plan -> date -> field -> value and the sequence it was set with. */
  private readonly days = new Map<string, Map<string, Map<Field, { value: number | boolean; seq?: number }>>>();

  constructor(readonly plans: { id: string; name: string }[]) {
    for (const plan of plans) this.days.set(plan.id, new Map());
  }

  private valuesAt(plan: string, date: string): Partial<Record<Field, number | boolean>> {
    const fields = this.days.get(plan)!.get(date);
    return Object.fromEntries([...(fields ?? new Map()).entries()].map(([f, v]) => [f, v.value]));
  }

  /** Applies a push; answers its day counts as the contract defines them. */
  push(push: Push): { changed: number; unchanged: number; stale: number } {
    const before = new Map<string, Partial<Record<Field, number | boolean>>>();
    const stale = new Set<string>();
    for (const update of push.updates) {
      const from = update.date ?? update.date_from!;
      const to = update.date ?? update.date_to!;
      for (let date = from; date <= to; date = next(date)) {
        if (update.days && !(update.days as string[]).includes(WEEKDAY_NAMES[new Date(`${date}T00:00:00Z`).getUTCDay()]!)) continue;
        const id = `${update.external_rate_plan_id}|${date}`;
        if (!before.has(id)) before.set(id, this.valuesAt(update.external_rate_plan_id, date));
        const dayMap = this.days.get(update.external_rate_plan_id)!;
        const fields = dayMap.get(date) ?? new Map();
        dayMap.set(date, fields);
        for (const field of FIELDS) {
          const value = update[field];
          if (value === undefined) continue;
          const current = fields.get(field);
          if (push.sequence !== undefined && current?.seq !== undefined && push.sequence < current.seq) {
            if (current.value !== value) stale.add(id);
            continue;
          }
          fields.set(field, { value, seq: push.sequence ?? current?.seq });
        }
      }
    }
    const counts = { changed: 0, unchanged: 0, stale: 0 };
    for (const [id, values] of before) {
      const [plan, date] = id.split('|') as [string, string];
      const after = this.valuesAt(plan, date);
      const same = FIELDS.every((f) => values[f] === after[f]);
      counts[!same ? 'changed' : stale.has(id) ? 'stale' : 'unchanged']++;
    }
    return counts;
  }

  /** Every plan on the stay, bookable first, then cheapest, then by id. */
  offers(checkIn: string, checkOut: string, fallback: number): Offer[] {
    const nightsCount = Math.round((Date.parse(checkOut) - Date.parse(checkIn)) / 86_400_000);
    return this.plans
      .map((plan) => {
        const nights: Offer['nights'] = [];
        const blocked: Offer['blocked_by'] = [];
        for (let date = checkIn; date <= checkOut; date = next(date)) {
          const v = this.valuesAt(plan.id, date);
          const night = date < checkOut;
          if (night) nights.push({ date, price: (v.price as number | undefined) ?? fallback });
          const rules: [string, boolean][] = [
            ['min_stay_arrival', date === checkIn && nightsCount < ((v.min_stay_arrival as number | undefined) ?? 1)],
            ['min_stay_through', night && nightsCount < ((v.min_stay_through as number | undefined) ?? 1)],
            ['max_stay', date === checkIn && ((v.max_stay as number | undefined) ?? 0) > 0 && nightsCount > (v.max_stay as number)],
            ['closed_to_arrival', date === checkIn && v.closed_to_arrival === true],
            ['closed_to_departure', date === checkOut && v.closed_to_departure === true],
            ['stop_sell', night && v.stop_sell === true],
          ];
          for (const [restriction, refuses] of rules) if (refuses) blocked.push({ date, restriction });
        }
        const total = Math.round(nights.reduce((s, n) => s + n.price, 0) * 100) / 100;
        return { external_rate_plan_id: plan.id, name: plan.name, bookable: blocked.length === 0, total, nights, blocked_by: blocked };
      })
      .sort((a, b) => Number(b.bookable) - Number(a.bookable) || a.total - b.total || (a.external_rate_plan_id < b.external_rate_plan_id ? -1 : 1));
  }
}
