/**
 * The receiver kit's rates types (shared/receiver-kit/index.ts, copied into partners' projects)
 * against the service's own schemas and answers: a field renamed on one side fails the type check.
 */
import { expect, it } from 'vitest';
import type * as z from 'zod/mini';
import type { PutRatesRequest, PutRatesResponse, RatePlanOnStay, RatesResponse } from '../../shared/receiver-kit';
import type { PutRatesBody } from '../../shared/schemas/rates';
import type { rateDay, ratePlanOnStay, ratesPushResult } from '../../shared/schemas/responses';
import type { pushRates } from '../../shared/domain/rates/push-rates';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: [
  Same<PutRatesRequest, PutRatesBody>,
  Same<PutRatesResponse, z.infer<typeof ratesPushResult>>,
  Same<PutRatesResponse, Omit<Awaited<ReturnType<typeof pushRates>>, 'writes'>>,
  Same<RatePlanOnStay, z.infer<typeof ratePlanOnStay>>,
  Same<RatesResponse['rate_plans'][string][string], z.infer<typeof rateDay>>,
] = [true, true, true, true, true];

it('has the shapes the service sends and answers (checked by the type checker)', () => {
  expect(same.every(Boolean)).toBe(true);
});
