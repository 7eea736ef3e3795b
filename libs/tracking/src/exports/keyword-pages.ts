import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';

/** The most keywords one ClickHouse query asks about. */
export const MAX_KEYWORDS_PER_PAGE = 200;
/**
 * The most (keyword, day) cells one page may fetch. chDB hands back a whole result at once, so this,
 * not the project's size, bounds what an export holds: a year of daily checks gives pages of
 * 200 keywords (73,000 cells), a ten-year window pages of 27.
 */
export const MAX_CELLS_PER_PAGE = 100_000;

export const keywordsPerPage = (days: number) =>
  Math.max(1, Math.min(MAX_KEYWORDS_PER_PAGE, Math.floor(MAX_CELLS_PER_PAGE / Math.max(1, days))));

/**
 * The export's row order: by keyword, then country, then language, compared by code unit so that the
 * order is the same on every machine (no locale collation).
 */
export function inExportOrder(keywords: readonly TrackedKeyword[]): TrackedKeyword[] {
  const key = (k: TrackedKeyword) => [k.value, k.geoCode, k.langCode, k.keywordId];
  return [...keywords].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}

export function* pagesOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
