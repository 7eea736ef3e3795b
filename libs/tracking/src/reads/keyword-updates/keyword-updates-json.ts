import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { PAGE_MARK, type RankingPage } from './keyword-updates.reader';

/** One keyword of the answer, in answer order. */
export interface KeywordUpdatesEntry {
  keyword: TrackedKeyword;
  avgMonthlySearches: number | null;
  /** Its `updates` array's text without the brackets, pages as placeholders (KeywordPicks.updatesJson); '' for none. */
  updatesJson: string;
}

/** Keywords per chunk: big enough that the stream's per-chunk cost vanishes, small enough to keep memory flat. */
const KEYWORDS_PER_CHUNK = 100;

/**
 * The keyword-updates answer `{"success":true,"data":{...}}` as text chunks, written by hand rather
 * than by JSON.stringify of the whole object graph: a year of updates is tens of MB, and this way it
 * is never held at once, neither as objects nor as one string. The text is what JSON.stringify gives
 * for the documented shape (the e2e tests parse it; keys in the same order), and each page's
 * url/title/domain is escaped once, not once per update, and put in its placeholders.
 */
export function* keywordUpdatesJson(entries: Iterable<KeywordUpdatesEntry>, pages: ReadonlyMap<string, RankingPage>): Generator<string> {
  const pageFields = new Map<string, string>();
  const fieldsOf = (pageKey: string): string => {
    let fields = pageFields.get(pageKey);
    if (fields === undefined) {
      const page = pages.get(pageKey);
      if (!page) throw new Error(`keyword-updates: page ${pageKey} of a picked check is missing`);
      fields = `,"url":${JSON.stringify(page.url)},"title":${JSON.stringify(page.title)},"domain":${JSON.stringify(page.domain)}}`;
      pageFields.set(pageKey, fields);
    }
    return fields;
  };
  // A chunk is an array of pieces joined once: the split updates' text with each page's fields in
  // its placeholders' places. A regex replace with a callback took twice the time, and strings built
  // by += are ropes that cost as much again to flatten when the socket encodes them.
  let pieces: string[] = ['{"success":true,"data":{'];
  let count = 0;
  for (const { keyword, avgMonthlySearches, updatesJson } of entries) {
    const ref = { _id: keyword.keywordId, value: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, avgMonthlySearches };
    pieces.push(`${count === 0 ? '' : ','}${JSON.stringify(keyword.keywordId)}:{"keyword":${JSON.stringify(ref)},"updates":[`);
    const parts = updatesJson.split(PAGE_MARK);
    for (let i = 0; i < parts.length; i++) pieces.push(i % 2 === 0 ? parts[i]! : fieldsOf(parts[i]!));
    pieces.push(']}');
    if (++count % KEYWORDS_PER_CHUNK === 0) {
      yield pieces.join('');
      pieces = [];
    }
  }
  pieces.push('}}');
  yield pieces.join('');
}
