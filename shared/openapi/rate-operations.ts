/** The rates operations (operations.ts spreads them in): schemas, examples, errors. */
import { z } from 'zod';
import { MAX_SYNC_ITEMS } from '../config';
import { MAX_PLAN_DAYS, MAX_READ_DAYS, putRatePlansBody, putRatesBody, RATE_HORIZON_DAYS, ratesQuery } from '../schemas/rates';
import { ratesPushResult, ratesReadResult, rateSyncResult } from '../schemas/responses';
import { classic } from './classic';
import type { Operation } from './operations';
import type { AnySchema } from './schemas';

const json = (schema: AnySchema, example: unknown) => ({ 'application/json': { schema: classic(schema), example } });

const PLAN_ID = '9b1deb4d-3b7d-5bad-9bdd-2b0d7b3dcb6d';
const day = { min_stay_arrival: 1, min_stay_through: 1, max_stay: 0, closed_to_arrival: false, closed_to_departure: false, stop_sell: false };

export const RATE_OPERATIONS: Record<string, Operation> = {
  PutRatePlans: {
    tag: 'Property sync',
    jsonBody: true,
    request: {
      body: {
        required: true,
        content: json(putRatePlansBody, { external_source: 'demo-pms', rate_plans: [{ external_rate_plan_id: 'BAR-DBL', external_category_id: 'DBL', name: 'Best available rate' }] }),
      },
    },
    responses: {
      200: {
        description: 'Applied. `items` has one entry per plan, in request order.',
        content: json(rateSyncResult, { external_source: 'demo-pms', received: 1, created: 1, updated: 0, unchanged: 0, items: [{ external_rate_plan_id: 'BAR-DBL', id: PLAN_ID, action: 'created' }] }),
      },
    },
    errorExamples: { VALIDATION_ERROR: { message: 'The request body is not valid', details: [{ path: 'rate_plans[0].name', message: 'Invalid input: expected string, received undefined' }] } },
    errors: [
      { code: 'TOO_MANY_ITEMS', when: `More than ${MAX_SYNC_ITEMS} plans. Nothing is written.` },
      { code: 'VALIDATION_ERROR', when: 'Two plans share an `external_rate_plan_id`. Nothing is written.' },
      { code: 'UNKNOWN_REFERENCE', when: 'A plan names an `external_category_id` not synced for this `external_source`. Nothing is written.' },
    ],
  },
  PutRates: {
    tag: 'Property sync',
    jsonBody: true,
    request: {
      body: {
        required: true,
        content: json(putRatesBody, {
          external_source: 'demo-pms',
          sequence: 18452,
          updates: [
            { external_rate_plan_id: 'BAR-DBL', date_from: '2027-01-01', date_to: '2027-12-31', price: 120 },
            { external_rate_plan_id: 'BAR-DBL', date_from: '2027-01-01', date_to: '2027-12-31', days: ['fr', 'sa'], price: 150, min_stay_arrival: 2 },
            { external_rate_plan_id: 'BAR-DBL', date: '2027-10-14', stop_sell: true },
          ],
        }),
      },
    },
    responses: {
      200: {
        description: 'Applied: every plan-day is counted once, by its values after the whole request.',
        content: json(ratesPushResult, { external_source: 'demo-pms', received: 3, days_changed: 365, days_unchanged: 0, days_stale: 0 }),
      },
    },
    errorExamples: { VALIDATION_ERROR: { message: 'The request body is not valid', details: [{ path: 'updates[4].max_stay', message: 'Too big: expected number to be <=365' }] } },
    errors: [
      { code: 'TOO_MANY_ITEMS', when: `More than ${MAX_SYNC_ITEMS} updates, or more than ${MAX_PLAN_DAYS} plan-days (\`path\` \`updates\`). Nothing is written.` },
      { code: 'VALIDATION_ERROR', when: `A range that ends before the hotel's today, or a date more than ${RATE_HORIZON_DAYS} days after it. Nothing is written.` },
      { code: 'UNKNOWN_REFERENCE', when: 'An update names an `external_rate_plan_id` not synced for this `external_source`. Nothing is written.' },
    ],
  },
  GetRates: {
    tag: 'Property sync',
    request: { query: classic<z.ZodObject>(ratesQuery) },
    responses: {
      200: {
        description: 'Every date of the range for each plan.',
        content: json(ratesReadResult, {
          rate_plans: { 'BAR-DBL': { '2027-10-14': { price: 150, price_source: 'rate', ...day, stop_sell: true }, '2027-10-15': { price: 120, price_source: 'base', ...day } } },
        }),
      },
    },
    errors: [
      { code: 'VALIDATION_ERROR', when: `A parameter is missing or invalid, \`date_to\` is before \`date_from\`, or the range is over ${MAX_READ_DAYS} days.` },
      { code: 'UNKNOWN_REFERENCE', when: 'The `external_rate_plan_id` named is not synced for this `external_source`.' },
    ],
  },
};
