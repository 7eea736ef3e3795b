import type { TrafficMonth } from './domain-data.events';

/** The spec's traffic history: at most the last 12 months, oldest first. */
export const lastTwelveMonths = (months: readonly TrafficMonth[]) => [...months].sort((a, b) => a.month.localeCompare(b.month)).slice(-12);

/** `totalVisits`: the sum of the months' visits (a month without a figure adds nothing). */
export const totalVisitsOf = (months: readonly TrafficMonth[]) => months.reduce((sum, m) => sum + (m.visits ?? 0), 0);

/**
 * A period's engagement as one figure: the months' values weighted by their visits (a month of
 * 10 million visits says more than one of ten), or their plain mean when no month has visits.
 */
export function engagementOf(months: readonly TrafficMonth[], pick: (m: TrafficMonth) => number | null): number | null {
  const known = months.filter((m) => pick(m) !== null);
  if (known.length === 0) return null;
  const weight = known.reduce((sum, m) => sum + (m.visits ?? 0), 0);
  if (weight === 0) return known.reduce((sum, m) => sum + pick(m)!, 0) / known.length;
  return known.reduce((sum, m) => sum + pick(m)! * (m.visits ?? 0), 0) / weight;
}
