/**
 * An integration test's view of the service: the run's emulators, the file's own table, its own callback queues,
 * and its own local gateway (same route table and authorizer as the stack) on a free port, with
 * the sandbox checkout on another free port (its own origin, as in the stack).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Plan, PlanLimits } from '../../definitions/plans';
import type { KeyKind } from '../../definitions/routes';
import { ensureQueues } from '../../infra/local/local-queues';
import { ensureTable } from '../../infra/local/local-table';
import { ensureKeyFile } from '../../infra/local/key-files';
import { takeTableRefusals } from '../../infra/local/table-guard';
import { sweepOnce } from '../../infra/local/delivery-sweeper';
import { serve, type ServingStack } from '../../infra/local/serve';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Tenant {
  clientId: string;
  syncKey: string;
  syncKeyId: string;
  paymentKey: string;
  paymentKeyId: string;
}

export interface TestStack extends ServingStack {
  url: string;
  /** The sandbox checkout's own origin (a port of its own), where the stack runs the sandbox. */
  sandboxUrl?: string;
  /** `path` on the API, or an absolute URL (a sandbox checkout_url). */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** A new client with a full sync key and a payment key: each test's own data. */
  createTenant(): Promise<Tenant>;
  issueKey(clientId: string, kind: KeyKind, options?: { scopes?: string[]; origins?: string[] }): Promise<{ key: string; key_id: string }>;
  /** One run of the delivery sweeper, now, as its schedule runs it. */
  sweep(): Promise<unknown>;
  /**
   * Resolves when the stack's scheduled sweeper runs started so far have ended, the one at start
   * included: a test that writes due deliveries and sweeps them itself waits for it first, or that
   * run (still loading under load) may take them.
   */
  sweeperSettled(): Promise<void>;
}

// This module is loaded once per test file (test/support/per-file.ts resets the modules before each).
const FILE_TABLE = `hotel-integration-test-${randomUUID().slice(0, 8)}`;

const UNTHROTTLED: Record<Plan, PlanLimits> = { standard: { rateLimit: 100_000, burstLimit: 100_000 }, premium: { rateLimit: 100_000, burstLimit: 100_000 } };

export async function startTestStack(
  options: {
    /**
     * How often the stack's sweeper runs (after a run at start). By default every minute, as the
     * deployed schedule: an idle stack sweeping every 200 ms kept 0.64 of a core busy (DynamoDB
     * Local 0.40, the test worker 0.24), a third of the machine. A test that needs the sweeper
     * runs it with `sweep()`.
     */
    sweepIntervalMs?: number;
    sandboxPayments?: boolean;
    /**
     * A named table (created if missing). By default the test file's own table, made on its first
     * stack: files run side by side, and no other file's sweeper reads its due index.
     */
    tableName?: string;
    /**
     * Per-client limits of each plan. By default so high that no test depends on how fast the
     * machine sends; test/integration/rate-limits.test.ts passes the plans' real limits.
     */
    planLimits?: Readonly<Record<Plan, PlanLimits>>;
    /** @default true: e-mail to guests through the run's SES emulator; false, a stage without a sender. */
    email?: boolean;
  } = {},
): Promise<TestStack> {
  const emulators = inject('emulators');
  const { dynamodbEndpoint, sqsEndpoint } = emulators;
  const tableName = options.tableName ?? FILE_TABLE;
  await ensureTable(dynamodbEndpoint, tableName);
  const queues = await ensureQueues(sqsEndpoint, `test-${randomUUID().slice(0, 8)}`);
  // Each test stack seals with its own key file, as each local stack has its own.
  const keyDir = mkdtempSync(join(tmpdir(), 'test-stack-secrets-'));
  const serving = await serve({
    port: 0,
    tableName,
    dynamodbEndpoint,
    sqsEndpoint,
    queues,
    secretsKeyFile: ensureKeyFile(join(keyDir, 'secrets.key')),
    orderReferenceKeyFile: ensureKeyFile(join(keyDir, 'order-reference.key')),
    sandboxPayments: options.sandboxPayments,
    sweepIntervalMs: options.sweepIntervalMs ?? 60_000,
    planLimits: options.planLimits ?? UNTHROTTLED,
    cognito: emulators.cognito,
    ...(options.email === false ? {} : { sesEndpoint: emulators.sesEndpoint }),
  });
  const domain = await import('../../shared/domain/clients');
  const url = serving.info.apiUrl;

  const issueKey: TestStack['issueKey'] = async (clientId, kind, options = {}) =>
    domain.issueApiKey({ clientId, kind, scopes: options.scopes, origins: options.origins });

  return {
    ...serving,
    async stop() {
      await serving.stop();
      rmSync(keyDir, { recursive: true, force: true });
      // A missing grant fails the file, even where the function caught the refusal and only
      // logged it: a test that provokes one on purpose takes it (takeTableRefusals) and asserts it.
      const refused = takeTableRefusals();
      if (refused.length) throw new Error(`the table guard refused ${refused.length} call(s) no test expected; the first: ${refused[0]}`);
    },
    url,
    sandboxUrl: serving.info.sandboxUrl,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.Authorization = `Bearer ${options.key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const response = await fetch(/^https?:\/\//.test(path) ? path : url + path, { method, headers, body, redirect: 'manual' });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body: parsed as never, text };
    },
    async createTenant() {
      const client = await domain.createClientAccount({ name: `Test hotel ${randomUUID().slice(0, 8)}`, plan: 'premium' });
      const sync = await issueKey(client.client_id, 'sync');
      const payment = await issueKey(client.client_id, 'payment');
      return { clientId: client.client_id, syncKey: sync.key, syncKeyId: sync.key_id, paymentKey: payment.key, paymentKeyId: payment.key_id };
    },
    issueKey,
    sweep: sweepOnce,
    sweeperSettled: serving.sweeperSettled,
  };
}
