import { assertNever } from '@rank/domain/domain-error';

/**
 * Which ranking rows of a project a read counts: those of its current keywords. A project's rows
 * belong to a current keyword or to one it removed (keyword ids are never reused), so the shorter of
 * the two lists says the same thing, and a project that never removed a keyword needs no list at all.
 *
 * Why not always the current ids: ClickHouse spends about 6 µs an element on a list in a statement
 * (parsing it and building its set), 20 ms for a project of 3,500 keywords, on every statement and
 * every place the list appears, however few rows the statement reads.
 */
export type KeywordFilter =
  { kind: 'all' } | { kind: 'except'; keywordIds: readonly string[] } | { kind: 'only'; keywordIds: readonly string[] };

export function keywordFilterOf(currentIds: readonly string[], removedIds: readonly string[]): KeywordFilter {
  if (removedIds.length === 0) return { kind: 'all' };
  return removedIds.length < currentIds.length ? { kind: 'except', keywordIds: removedIds } : { kind: 'only', keywordIds: currentIds };
}

/** The filter as a condition on `keyword_id` (to follow a WHERE's other conditions) and its parameters. */
export function keywordFilterSql(filter: KeywordFilter): { sql: string; params: { filterKeywordIds?: readonly string[] } } {
  switch (filter.kind) {
    case 'all':
      return { sql: '', params: {} };
    case 'except':
      return { sql: 'AND keyword_id NOT IN {filterKeywordIds:Array(String)}', params: { filterKeywordIds: filter.keywordIds } };
    case 'only':
      return { sql: 'AND keyword_id IN {filterKeywordIds:Array(String)}', params: { filterKeywordIds: filter.keywordIds } };
    default:
      return assertNever(filter);
  }
}
