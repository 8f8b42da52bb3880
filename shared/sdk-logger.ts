/**
 * AWS SDK v3 clients without the SDK's logger middleware. No SDK logger is configured here, so
 * the SDK's default one logs nothing; yet that middleware first copies every call's input and
 * output through the SDK's sensitive-data filter, for it: without it, a Query answering 200 items
 * costs a third less of the SDK's CPU (BENCHMARKS.md, the reading of 2026-11-26 20:07). Apart
 * from shared/observability.ts (serviceClient) so that the local stack's own clients use it too
 * without loading Powertools.
 */
export function withoutSdkLogger<T extends { middlewareStack: { remove(toRemove: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
