/**
 * Errors API Gateway produces itself, rendered in the error envelope (docs/behaviour.md "Errors").
 * The CDK stack installs these as gateway responses; the local gateway renders the same
 * templates, substituting the same `$context` variables.
 */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'REQUEST_TOO_LARGE'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INVALID_API_KEY'
  | 'WAF_FILTERED'
  | 'INTEGRATION_TIMEOUT'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

export interface GatewayResponseDefinition {
  type: GatewayResponseType;
  /**
   * None on DEFAULT_4XX and DEFAULT_5XX: they keep API Gateway's own status. A status there
   * would replace the status of every 4XX (5XX) response type not configured here
   * (https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
   */
  statusCode?: string;
  template: string;
  /** Extra headers as API Gateway mapping expressions ('literal' in single quotes). */
  headers?: Record<string, string>;
}

const envelope = (code: string, message: string) =>
  `{"error":{"code":"${code}","message":"${message}","request_id":"$context.requestId"}}`;

export const gatewayResponses: readonly GatewayResponseDefinition[] = [
  // No key: the authorizer throws Unauthorized, or (sync routes, cached authorizer) API Gateway
  // refuses a request without the Authorization header before invoking it.
  { type: 'UNAUTHORIZED', statusCode: '401', template: envelope('MISSING_API_KEY', 'An API key is required') },
  // An unknown, malformed or revoked key: the authorizer allows it without a usage key, and
  // API Gateway refuses a keyed method without one (functions/authorizer.ts).
  { type: 'INVALID_API_KEY', statusCode: '401', template: envelope('INVALID_API_KEY', 'The API key is not valid') },
  // Deny carries the code and message in the authorizer context.
  {
    type: 'ACCESS_DENIED',
    statusCode: '403',
    template: envelope('$context.authorizer.code', '$context.authorizer.message'),
  },
  { type: 'AUTHORIZER_FAILURE', statusCode: '503', template: envelope('SERVICE_UNAVAILABLE', 'Authorization is temporarily unavailable'), headers: { 'Retry-After': "'1'" } },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', statusCode: '500', template: envelope('INTERNAL_ERROR', 'Internal error') },
  // API Gateway answers an unknown path with "Missing Authentication Token".
  { type: 'MISSING_AUTHENTICATION_TOKEN', statusCode: '404', template: envelope('NOT_FOUND', 'No such route') },
  { type: 'RESOURCE_NOT_FOUND', statusCode: '404', template: envelope('NOT_FOUND', 'No such route') },
  { type: 'REQUEST_TOO_LARGE', statusCode: '413', template: envelope('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB') },
  { type: 'THROTTLED', statusCode: '429', template: envelope('RATE_LIMITED', 'Too many requests'), headers: { 'Retry-After': "'1'" } },
  { type: 'QUOTA_EXCEEDED', statusCode: '429', template: envelope('RATE_LIMITED', 'Request quota exceeded'), headers: { 'Retry-After': "'60'" } },
  // Every block of the web ACL (infra/constructs/public-rate-limit.ts): mostly its per-IP rate rules;
  // AWS's managed rule groups' blocks (known bad inputs, bad IP reputation) answer the same, as a WAF
  // custom response would take precedence but could not carry the request id.
  { type: 'WAF_FILTERED', statusCode: '429', template: envelope('RATE_LIMITED', 'Too many requests from this address'), headers: { 'Retry-After': "'60'" } },
  // The function did not answer within API Gateway's integration timeout (29 s): a dependency timed
  // out. 503, not API Gateway's 504: the service answers SERVICE_UNAVAILABLE (with Retry-After) for a
  // dependency that timed out, and each code has one status (docs/behaviour.md "Errors").
  {
    type: 'INTEGRATION_TIMEOUT',
    statusCode: '503',
    template: envelope('SERVICE_UNAVAILABLE', 'The request took too long; retry shortly'),
    headers: { 'Retry-After': "'1'" },
  },
  { type: 'UNSUPPORTED_MEDIA_TYPE', statusCode: '415', template: envelope('UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type') },
  // Everything else API Gateway refuses itself is a malformed request (400). $context.error.messageString
  // is already a quoted JSON string.
  {
    type: 'DEFAULT_4XX',
    template: '{"error":{"code":"VALIDATION_ERROR","message":$context.error.messageString,"request_id":"$context.requestId"}}',
  },
  { type: 'DEFAULT_5XX', template: envelope('INTERNAL_ERROR', 'Internal error') },
];

/** Headers every gateway response carries (mapping expressions). The request id matches the body. */
export const gatewayResponseHeaders: Readonly<Record<string, string>> = {
  'Content-Type': "'application/json'",
  'X-Request-Id': 'context.requestId',
};

/** Method-not-allowed body for a known path with another method (a mock integration). */
export const methodNotAllowedTemplate = envelope('METHOD_NOT_ALLOWED', 'Method not allowed on this route');
