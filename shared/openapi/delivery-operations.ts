/** The deliveries API's operations (operations.ts spreads them in): schemas, examples, errors. */
import { z } from 'zod';
import { deliveriesReplayed, deliveryDetail, deliveryIdParam, deliveryList, deliveryRetried, listDeliveriesQuery, replayDeliveriesBody } from '../schemas/deliveries';
import { classic } from './classic';
import type { Operation } from './operations';
import type { AnySchema } from './schemas';

const json = (schema: AnySchema, example: unknown) => ({ 'application/json': { schema: classic(schema), example } });

const DELIVERY_ID = '3f0c9a52-6d1e-4f7b-9a0d-2c8e5b7f1a64';
const attempts = [
  { at: '2027-06-01T10:00:01.120Z', status_code: 503, duration_ms: 84, error: 'HTTP 503' },
  { at: '2027-06-01T10:01:02.400Z', status_code: 200, duration_ms: 61, error: null },
];
const summary = { delivery_id: DELIVERY_ID, event: 'booking.confirmed', status: 'delivered', created_at: '2027-06-01T10:00:00.950Z', attempts };
const params = { params: classic<z.ZodObject>(deliveryIdParam) };
/** What a retry may carry: nothing of its own (an empty object; other fields are ignored, as everywhere). */
const retryDeliveryBody = z.object({});
const notFound = { code: 'NOT_FOUND' as const, when: "No such delivery: another client's, one of the other key kind, or one older than 30 days." };

export const DELIVERY_OPERATIONS: Record<string, Operation> = {
  ListDeliveries: {
    tag: 'Deliveries',
    request: { query: classic<z.ZodObject>(listDeliveriesQuery) },
    responses: { 200: { description: 'A page, newest first.', content: json(deliveryList, { deliveries: [summary], next_cursor: 'eyJwayI6IkRFTElWRVJZIzNmMGM5YTUyIn0' }) } },
    errors: [{ code: 'VALIDATION_ERROR', when: 'A filter or `limit` is not valid, or `cursor` is not one of this list (another client\'s, or the other key kind\'s).' }],
  },
  GetDelivery: {
    tag: 'Deliveries',
    request: params,
    responses: {
      200: {
        description: 'The delivery.',
        content: json(deliveryDetail, { ...summary, updated_at: '2027-06-01T10:01:02.461Z', next_attempt_at: null, body: '{"event":"booking.confirmed","booking":{"booking_id":"…"}}' }),
      },
    },
    errors: [notFound],
  },
  RetryDelivery: {
    tag: 'Deliveries',
    // The service takes no body and ignores one: a client may send none, or `{}` as JSON.
    request: { ...params, body: { required: false, description: 'None, or an empty JSON object: nothing in it is read.', content: json(retryDeliveryBody, {}) } },
    responses: { 202: { description: 'Queued again under the same id.', content: json(deliveryRetried, { delivery_id: DELIVERY_ID, status: 'pending' }) } },
    errors: [notFound],
  },
  ReplayDeliveries: {
    tag: 'Deliveries',
    jsonBody: true,
    request: {
      body: {
        required: true,
        content: json(replayDeliveriesBody, { since: '2027-06-01T00:00:00Z', until: '2027-06-02T00:00:00Z', status: ['failed'], event: ['booking.confirmed'] }),
      },
    },
    responses: { 202: { description: 'How many deliveries will be sent again.', content: json(deliveriesReplayed, { queued: 300 }) } },
    errors: [{ code: 'VALIDATION_ERROR', when: '`until` is before `since`.' }],
  },
};

export const deliveryOperationsSchema = z.object({});
