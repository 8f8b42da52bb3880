/** Small statistics and formatting helpers. */
export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const s = sorted(values);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: readonly number[]): number {
  if (!values.length) return Number.NaN;
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function ratio(value: number, baseline: number): number {
  return baseline > 0 ? value / baseline : Number.NaN;
}

export const round = (n: number, digits = 2) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export function ms(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(n >= 10 ? 1 : 2)} ms`;
}

export function bytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(2)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export function x(n: number): string {
  return Number.isFinite(n) ? `${n.toFixed(2)}x` : 'n/a';
}

export const now = () => performance.now();

export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - started };
}
