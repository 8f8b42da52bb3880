/** One route-table entry as an OpenAPI operation: its text, security, headers and responses. */
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Route } from '../../definitions/routes';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../config';
import { LOCAL_SANDBOX } from './examples';
import { headerRef } from './headers';
import { operationOf } from './operations';
import { type RouteDocs, docsOfRoute } from './route-docs';
import { errorResponse, errorsOf } from './route-errors';

function securityOf(route: Route): RouteConfig['security'] {
  switch (route.auth.kind) {
    case 'sync':
      return [{ syncKey: [route.auth.scope] }];
    case 'payment':
      return [{ paymentKey: [] }, { paymentApiKey: [] }];
    case 'key':
      return [{ syncKey: [route.auth.scope] }, { paymentKey: [route.auth.scope] }, { paymentApiKey: [route.auth.scope] }];
    case 'public':
      return [];
  }
}

function headerParameters(route: Route): z.ZodObject | undefined {
  const shape: Record<string, z.ZodType> = {};
  if (route.idempotent) {
    shape['Idempotency-Key'] = z
      .string()
      .min(1)
      .max(MAX_IDEMPOTENCY_KEY_LENGTH)
      .optional()
      .meta({
        param: { description: `Optional, 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters; makes a retry safe. Scoped by client + method + path + key and kept 24 hours. The same key with the same body (compared as canonical JSON) after completion replays the stored status and body with \`Idempotent-Replayed: true\`; with a different body: 422 \`IDEMPOTENCY_KEY_REUSED\`; while the first request still runs: 409 \`IDEMPOTENCY_REQUEST_IN_PROGRESS\`. 5xx outcomes are not stored, so a retry runs again.` },
        example: 'sync-2027-06-01-0001',
      });
  }
  if (route.auth.kind === 'payment' || route.auth.kind === 'key') {
    shape.Origin = z
      .string()
      .optional()
      .meta({
        param: {
          description:
            'Server-to-server calls normally send no `Origin` and are allowed with a valid payment key. If `Origin` is present it must be one of the key\'s allowed origins, else 403 `ORIGIN_NOT_ALLOWED`.',
        },
        example: 'https://partner.example',
      });
  }
  return Object.keys(shape).length ? z.object(shape) : undefined;
}

/** Where the sandbox checkout's operations are served: an origin of its own, never the API's. */
const SANDBOX_SERVERS: RouteConfig['servers'] = [
  { url: LOCAL_SANDBOX, description: 'The sandbox checkout on the local stack (`npm start`; `SANDBOX_PORT` overrides 3001)' },
  {
    url: 'https://{url_id}.lambda-url.{region}.on.aws',
    description: 'A deployed stage synthesized with `-c sandboxPayments=true`, never prod: its sandbox checkout function\'s URL (the `SandboxCheckoutUrl` output)',
    variables: {
      url_id: { default: 'abcdefghijklmnopqrstuvwxyz012345', description: 'The function URL id.' },
      region: { default: 'eu-west-1', description: 'The AWS region of the stack.' },
    },
  },
];

function docsOf(route: Route): RouteDocs {
  const docs = docsOfRoute(route);
  if (!docs) throw new Error(`Route ${route.id} (${route.method} ${route.path}) has no docs in shared/openapi/route-docs.ts: give it a summary and a description, or mark a page for people with page: true.`);
  return docs;
}

export function routeConfig(route: Route): RouteConfig {
  const operation = operationOf(route);
  const docs = docsOf(route);
  const successHeaders = (status: number) => ({
    'X-Request-Id': headerRef('X-Request-Id'),
    ...(route.idempotent && status < 300 ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {}),
  });
  const responses: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = { ...response, headers: { ...successHeaders(Number(status)), ...(response.headers as object) } as never };
  }
  for (const [status, codes] of errorsOf(route)) responses[String(status)] = errorResponse(route, status, codes);

  const headers = headerParameters(route);
  const request = { ...operation.request, ...(headers ? { headers } : {}) };
  const scopeNote =
    route.auth.kind === 'sync'
      ? `\n\nNeeds a sync key with the scope \`${route.auth.scope}\`.`
      : route.auth.kind === 'key'
        ? `\n\nNeeds a key with the scope \`${route.auth.scope}\`: a sync key sees the client's callbacks (\`booking.*\`), a payment key its webhooks (\`payment_order.*\`).`
        : '';
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    path: route.path,
    operationId: route.id,
    tags: [operation.tag],
    summary: docs.summary,
    description: `${docs.description}${scopeNote}`,
    security: securityOf(route),
    ...(route.origin === 'sandbox' ? { servers: SANDBOX_SERVERS } : {}),
    ...(Object.keys(request).length ? { request } : {}),
    responses,
  };
}
