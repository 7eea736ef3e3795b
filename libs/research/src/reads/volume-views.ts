import type { MonthlySearches } from '../domain/volume.events';
import type { StoredVolume } from '../volumes.reader';

/** The compact record of keyword-volumes' bulk mode (spec: Compact volume record). */
export interface CompactVolume {
  /** keyword text */ v: string;
  /** country */ g: string;
  /** language */ l: string;
  /** provider: dataforseo | google-ads */ s: string;
  /** the latest month's volume */ lv: number | null;
  /** the last 12 months, oldest first */ tr: number[];
  /** the average of `tr` (the provider's average when it gave no months) */ am: number | null;
  /** competition index 0–100 */ ci: number | null;
  /** low top-of-page bid, USD */ cl: number | null;
  /** high top-of-page bid, USD */ ch: number | null;
}

/** The last 12 months of a history (oldest first). */
export const lastTwelve = (history: readonly MonthlySearches[]): MonthlySearches[] => history.slice(-12);

export function averageOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : Math.round(values.reduce((sum, v) => sum + v, 0) / values.length);
}

export function compactVolume(volume: StoredVolume): CompactVolume {
  const trend = lastTwelve(volume.history).map((m) => m.value);
  return {
    v: volume.keyword,
    g: volume.geoCode,
    l: volume.langCode,
    s: volume.source,
    lv: trend.at(-1) ?? null,
    tr: trend,
    am: averageOf(trend) ?? volume.avgMonthlySearches,
    ci: volume.competitionIndex,
    cl: volume.cpcLow,
    ch: volume.cpcHigh,
  };
}

/** The average monthly searches a keyword record shows: the provider's figure, else the average of the stored months. */
export const averageMonthlySearches = (volume: StoredVolume): number | null =>
  volume.avgMonthlySearches ?? averageOf(lastTwelve(volume.history).map((m) => m.value));
