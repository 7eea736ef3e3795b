import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';

export const SORT_FIELDS = ['keyword', 'position', 'volume'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface SortableKeyword {
  keyword: TrackedKeyword;
  /** Position in the latest successful update of the window: 0 = not ranking, null = no such update. */
  latestPosition: number | null;
  /** Average monthly searches; null while unknown. */
  volume: number | null;
}

const byValue = (a: SortableKeyword, b: SortableKeyword) =>
  a.keyword.value.localeCompare(b.keyword.value, 'en') ||
  a.keyword.geoCode.localeCompare(b.keyword.geoCode) ||
  a.keyword.langCode.localeCompare(b.keyword.langCode);

/** Keywords with a value first, ordered by it; keywords without one after them all, by keyword text. */
function valuesFirst(valueOf: (k: SortableKeyword) => number | null, order: SortOrder) {
  const sign = order === 'asc' ? 1 : -1;
  return (a: SortableKeyword, b: SortableKeyword) => {
    const x = valueOf(a);
    const y = valueOf(b);
    if (x === null || y === null) return x === y ? byValue(a, b) : x === null ? 1 : -1;
    return (x - y) * sign || byValue(a, b);
  };
}

/**
 * The order of keyword-updates' `data` (an object, so its key order is the order it is built in).
 * - no sortBy: the project's own keyword order (the order they were added); sortOrder is ignored.
 * - keyword: by keyword text.
 * - position: asc is best first; keywords not ranking (0) or without a successful update in the window
 *   come after every ranked keyword in both orders, so "desc" still leads with real positions.
 * - volume: by average monthly searches, unknown volumes last in both orders (ties by keyword text).
 */
export function orderKeywords<T extends SortableKeyword>(entries: readonly T[], sortBy: SortField | undefined, order: SortOrder): T[] {
  const sorted = [...entries];
  switch (sortBy) {
    case undefined:
      return sorted;
    case 'keyword':
      return sorted.sort((a, b) => byValue(a, b) * (order === 'asc' ? 1 : -1));
    case 'position':
      return sorted.sort(valuesFirst((k) => (k.latestPosition ? k.latestPosition : null), order));
    case 'volume':
      return sorted.sort(valuesFirst((k) => k.volume, order));
  }
}
