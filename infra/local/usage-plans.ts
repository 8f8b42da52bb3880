/**
 * The usage plan of a usage key, as the gateway looks it up: asked once per key for a few
 * seconds, however many requests carry it (API Gateway, too, applies a usage-plan change after
 * a while). The plan's rate limits are TokenBuckets (limits.ts).
 */
import type { Plan } from '../../definitions/plans';

/** How long the gateway trusts a usage key's plan. */
const USAGE_PLAN_CACHE_MS = 5_000;

/**
 * The plan of a usage key, asked once per key for a few seconds however many requests carry it.
 * A failed lookup answers the plan found last, if any, and is tried again on the next request.
 */
export function cachedPlanLookup(planOfKey: (usageKey: string) => Promise<Plan | undefined>) {
  interface Entry {
    plan: Promise<Plan | undefined>;
    at: number;
    last?: Plan;
  }
  const known = new Map<string, Entry>();
  return (usageKey: string): Promise<Plan | undefined> => {
    const hit = known.get(usageKey);
    if (hit && performance.now() - hit.at < USAGE_PLAN_CACHE_MS) return hit.plan;
    if (known.size > 10_000) known.clear();
    const entry: Entry = { plan: Promise.resolve(undefined), at: performance.now(), last: hit?.last };
    entry.plan = planOfKey(usageKey).then(
      (plan) => (entry.last = plan),
      (error: unknown) => {
        entry.at = -Infinity;
        if (entry.last) return entry.last;
        throw error;
      },
    );
    known.set(usageKey, entry);
    return entry.plan;
  };
}
