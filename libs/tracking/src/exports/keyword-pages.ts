import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';

/** The most keywords a page of lines (or of the report's queries) holds. */
export const MAX_KEYWORDS_PER_PAGE = 200;

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
