/**
 * The local gateway's request log line names the route's resource path, as the stack's access
 * log does ($context.resourcePath), never the request's path or query: a guest's confirmation
 * token and a sandbox checkout reference stay out of the logs.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startLocalGateway, type LocalGateway } from '../../infra/local/gateway';
import { DEFAULT_PLAN_LIMITS } from '../../definitions/plans';
import type { Route } from '../../definitions/routes';

const confirmation: Route = {
  id: 'GuestBookingConfirmation',
  method: 'GET',
  path: '/book/{client_id}/confirmation/{token}',
  // No such file: the invocation fails, the line is still written.
  handler: 'no-such-handler-for-the-log-test',
  auth: { kind: 'public' },
  access: { dynamodb: { actions: [] } },
  description: 'a page whose path carries a secret',
  page: true,
};

const lines: string[] = [];
let gateway: LocalGateway;

beforeAll(async () => {
  gateway = await startLocalGateway({
    port: 0,
    routes: [confirmation],
    onRequest: (line) => lines.push(line),
    usagePlans: { limits: DEFAULT_PLAN_LIMITS, planOfKey: async () => undefined },
  });
});
afterAll(() => gateway?.close());

it('logs the resource path of the matched route, and `-` for a path no route matches', async () => {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await fetch(`${gateway.url}/book/c-1/confirmation/SECRET-TOKEN-1?code=SECRET-CODE`);
    await fetch(`${gateway.url}/book/c-1/confirmation/SECRET-TOKEN-2/`);
  } finally {
    quiet.mockRestore();
  }
  await vi.waitFor(() => expect(lines).toHaveLength(2));
  expect(lines[0]).toMatch(/^GET \/book\/\{client_id\}\/confirmation\/\{token\} \d{3} \d+ms$/);
  expect(lines[1]).toMatch(/^GET - 40\d \d+ms$/);
  expect(lines.join('\n')).not.toContain('SECRET');
});
