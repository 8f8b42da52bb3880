/** The credentials of the API (`components.securitySchemes`); routes name them in paths.ts. */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { SYNC_SCOPES } from '../../definitions/scopes';

export function registerSecuritySchemes(registry: OpenAPIRegistry): void {

  registry.registerComponent('securitySchemes', 'syncKey', {
    type: 'http',
    scheme: 'bearer',
    description: `Sync key (\`svc_sync_…\`) as \`Authorization: Bearer <key>\`, for Area A only. Each route needs one scope, named in its security requirement: ${SYNC_SCOPES.map((s) => `\`${s}\``).join(', ')}. Issued per client (\`npm run ops -- keys create --kind sync [--scopes a,b]\`), shown once, stored only as a SHA-256 digest; a revoked key stops working within 60 s.`,
  });
  registry.registerComponent('securitySchemes', 'paymentKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Payment key (`svc_pay_…`) as `Authorization: Bearer <key>`, for payment orders only. A key may have allowed origins: an `Origin` header must then be one of them, and `success_url`/`cancel_url` must use one of them.',
  });
  registry.registerComponent('securitySchemes', 'paymentApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'The same payment key in `x-api-key` (payment keys only: a sync key there is 401 `INVALID_API_KEY`). When both headers are sent, `Authorization` is used.',
  });
}
