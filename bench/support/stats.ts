/** Small figures helpers shared by the benches. */

/** The q-quantile (0..1) of the values, nearest-rank on a sorted copy. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

export const perSecond = (count: number, milliseconds: number) => Math.round((count / milliseconds) * 1000);

export const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** How many times slower `ours` is than `baseline`, e.g. "2.4x". */
export const ratio = (ours: number, baseline: number) => (baseline > 0 ? `${(ours / baseline).toFixed(1)}x` : 'n/a');
