/** Service settings with defaults, shared by the CDK stack and the local stack. */
export const DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS: readonly number[] = [60, 300, 1800, 7200, 21600];
export const DEFAULT_SUPPORTED_CURRENCIES: readonly string[] = ['USD', 'EUR', 'GBP', 'NGN', 'GHS', 'KES', 'ZAR', 'JPY'];

/**
 * What the X-Ray tracer may record of a function (docs/reliability.md "Only the guest holds a guest's
 * booking"): no handler response, no method result, no error message or stack (only the flag).
 */
export const TRACER_ENVIRONMENT = {
  POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
  POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
} as const;
