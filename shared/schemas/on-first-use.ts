/**
 * A schema built on its first use instead of when its module loads: building a zod schema costs
 * CPU at every cold start of every function whose bundle holds it, used or not (BENCHMARKS.md,
 * the cold-start reading of issue #39). For schemas that only some requests of a function parse.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
