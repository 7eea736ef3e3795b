import { averageOf, reportedFigures, twelveMonthTrend } from '../domain/twelve-months';
import type { StoredVolume } from '../volumes.reader';

/** The compact record of keyword-volumes' bulk mode (spec: Compact volume record). */
export interface CompactVolume {
  /** keyword text */ v: string;
  /** country */ g: string;
  /** language */ l: string;
  /** provider: dataforseo | google-ads */ s: string;
  /** the latest month's volume */ lv: number | null;
  /** the 12 months up to the latest, oldest first; a month without a figure is 0 */ tr: number[];
  /** the average of the months in `tr` that have a figure (the provider's average when it gave no months) */ am: number | null;
  /** competition index 0–100 */ ci: number | null;
  /** low top-of-page bid, USD */ cl: number | null;
  /** high top-of-page bid, USD */ ch: number | null;
}

export function compactVolume(volume: StoredVolume): CompactVolume {
  const reported = reportedFigures(volume.history);
  return {
    v: volume.keyword,
    g: volume.geoCode,
    l: volume.langCode,
    s: volume.source,
    lv: reported.at(-1) ?? null,
    tr: twelveMonthTrend(volume.history),
    am: averageOf(reported) ?? volume.avgMonthlySearches,
    ci: volume.competitionIndex,
    cl: volume.cpcLow,
    ch: volume.cpcHigh,
  };
}
