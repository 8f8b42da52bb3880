/**
 * The local stack holds every function to the table access the stack grants it (the table
 * guard, infra/local/table-guard.ts), so the rest of the suite proves each declaration is
 * enough. Here: the guard is on for the functions the gateway runs, off for code outside an
 * invocation, and an idempotent route without any other delete still clears its own record.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeFunction, withinInvocation } from '../../infra/local/lambda-runtime';
import * as guard from '../../infra/local/table-guard';
import { findRoute } from '../../definitions/routes';
import type { TableAccess } from '../../definitions/table-access';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let tenant: Tenant;
let shared: typeof import('../../shared/store/dynamo');

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  shared = await import('../../shared/store/dynamo');
});

afterAll(() => stack?.stop());

/** Runs `fn` without the functions' logs of the failures it causes on purpose. */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const spies = [vi.spyOn(process.stdout, 'write').mockReturnValue(true), vi.spyOn(process.stderr, 'write').mockReturnValue(true)];
  try {
    return await fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** Runs `fn` with a route's declared table access replaced. */
async function withDeclaration<T>(routeId: string, dynamodb: TableAccess, fn: () => Promise<T>): Promise<T> {
  const access = findRoute(routeId).access as { dynamodb: TableAccess };
  const declared = access.dynamodb;
  access.dynamodb = dynamodb;
  try {
    return await quietly(fn);
  } finally {
    access.dynamodb = declared;
  }
}

describe('table guard', () => {
  it('refuses a route function a call outside its declared access, as IAM would', async () => {
    const page = () => stack.request('GET', `${stack.sandboxUrl}/checkout/sbx_000000000000000000000000`);
    expect((await page()).status).toBe(404);
    const refused = await withDeclaration('SandboxCheckoutPage', { actions: ['Query'] }, page);
    expect(refused.status).toBe(500);
    expect(guard.takeTableRefusals()).toEqual([expect.stringMatching(/^SandboxCheckout is not authorized to perform: dynamodb:GetItem/)]);
    expect((await page()).status).toBe(404);
  });

  it('holds code inside an invocation, and nothing outside one', async () => {
    const scan = () => shared.db.send(new ScanCommand({ TableName: shared.TABLE, Limit: 1 }));
    await expect(scan()).resolves.toBeDefined();
    await expect(withinInvocation(routeFunction(findRoute('GetAvailability')), scan)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(guard.takeTableRefusals()).toEqual([expect.stringContaining('dynamodb:Scan')]);
  });

  it('lets an idempotent route delete its own record after a 5xx, so the retry runs', async () => {
    const { dynamoClient } = shared;
    let failing = true;
    dynamoClient.middlewareStack.add(
      (next, context) => async (args) => {
        if (failing && context.commandName === 'BatchWriteItemCommand') {
          throw Object.assign(new Error('injected'), { name: 'ThrottlingException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
        }
        return next(args);
      },
      { step: 'finalizeRequest', priority: 'low', name: 'tableAccessFault' },
    );
    try {
      const body = { external_source: 'pms', categories: [{ external_category_id: 'C1', name: 'Double' }] };
      const put = () => stack.request('PUT', '/api/v1/property-sync/room-categories', { key: tenant.syncKey, body, headers: { 'Idempotency-Key': 'table-access-1' } });
      expect((await quietly(put)).status).toBe(503);
      failing = false;
      const retried = await put();
      expect(retried.status).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(retried.body).toMatchObject({ created: 1 });
    } finally {
      dynamoClient.middlewareStack.remove('tableAccessFault');
    }
  });
});
