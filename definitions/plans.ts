/**
 * Client plans and their rate limits (docs/behaviour.md "Plans and rate limits"), defined once: the
 * stack makes one API Gateway usage plan per plan from these numbers, and the local gateway
 * enforces the same numbers. A stage may override the limits (stack prop `planLimits`).
 */
export const PLANS = ['standard', 'premium'] as const;
export type Plan = (typeof PLANS)[number];

export const DEFAULT_PLAN: Plan = 'standard';

export interface PlanLimits {
  /** Steady-state requests per second, all of a client's keys together. */
  rateLimit: number;
  /** Requests allowed at once above the steady rate (the token bucket's size). */
  burstLimit: number;
}

export const DEFAULT_PLAN_LIMITS: Readonly<Record<Plan, PlanLimits>> = {
  standard: { rateLimit: 20, burstLimit: 40 },
  premium: { rateLimit: 100, burstLimit: 200 },
};

/** Payment keys exist only on these plans (403 PLAN_REQUIRED otherwise). */
export const PAYMENT_KEY_PLANS: readonly Plan[] = ['premium'];

export function isPlan(value: unknown): value is Plan {
  return (PLANS as readonly unknown[]).includes(value);
}
