/** Service settings with defaults, shared by the CDK stack and the local stack. */
export const DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS: readonly number[] = [60, 300, 1800, 7200, 21600];
export const DEFAULT_SUPPORTED_CURRENCIES: readonly string[] = ['USD', 'EUR', 'GBP', 'NGN', 'GHS', 'KES', 'ZAR', 'JPY'];
