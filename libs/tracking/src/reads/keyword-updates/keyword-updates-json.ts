import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { PAGE_MARK, type RankingPage } from './keyword-updates.reader';

/** One keyword of the answer, in answer order. */
export interface KeywordUpdatesEntry {
  keyword: TrackedKeyword;
  avgMonthlySearches: number | null;
  /** Its `updates` array's text without the brackets, pages as placeholders (KeywordPicks.updatesJson); empty for none. */
  updatesJson: Buffer;
}

/** Keywords per chunk: big enough that the stream's per-chunk cost vanishes, small enough to keep memory flat. */
const KEYWORDS_PER_CHUNK = 100;

const OPENING = Buffer.from('{"success":true,"data":{');
const ENTRY_END = Buffer.from(']}');
const CLOSING = Buffer.from('}}');

/**
 * The keyword-updates answer `{"success":true,"data":{...}}` as chunks of UTF-8 bytes, written by
 * hand rather than by JSON.stringify of the whole object graph: a year of updates is tens of MB, and
 * this way it is never held at once, neither as objects nor as one string. The text is what
 * JSON.stringify gives for the documented shape (the e2e tests parse it; keys in the same order),
 * and each page's url/title/domain is escaped and encoded once, not once per update, and put in its
 * placeholders.
 *
 * Bytes, not strings: the updates come from ClickHouse as bytes, and a string answer cost a decode
 * of them all, a copy to put the pages in and an encode at the socket (a third of the 30-day read).
 */
export function* keywordUpdatesJson(entries: Iterable<KeywordUpdatesEntry>, pages: ReadonlyMap<string, RankingPage>): Generator<Buffer> {
  const pageFields = new Map<string, Buffer>();
  const fieldsOf = (pageKey: string): Buffer => {
    let fields = pageFields.get(pageKey);
    if (fields === undefined) {
      const page = pages.get(pageKey);
      if (!page) throw new Error(`keyword-updates: page ${pageKey} of a picked check is missing`);
      fields = Buffer.from(
        `,"url":${JSON.stringify(page.url)},"title":${JSON.stringify(page.title)},"domain":${JSON.stringify(page.domain)}}`,
      );
      pageFields.set(pageKey, fields);
    }
    return fields;
  };
  // A chunk is the list of its pieces joined once: slices of the updates' bytes between the
  // placeholders, with each page's fields in its placeholder's place.
  let pieces: Buffer[] = [OPENING];
  let count = 0;
  for (const { keyword, avgMonthlySearches, updatesJson } of entries) {
    const ref = { _id: keyword.keywordId, value: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, avgMonthlySearches };
    pieces.push(Buffer.from(`${count === 0 ? '' : ','}${JSON.stringify(keyword.keywordId)}:{"keyword":${JSON.stringify(ref)},"updates":[`));
    let at = 0;
    for (let open = updatesJson.indexOf(PAGE_MARK, at); open !== -1; open = updatesJson.indexOf(PAGE_MARK, at)) {
      const close = updatesJson.indexOf(PAGE_MARK, open + 1);
      pieces.push(updatesJson.subarray(at, open), fieldsOf(updatesJson.toString('latin1', open + 1, close)));
      at = close + 1;
    }
    pieces.push(updatesJson.subarray(at), ENTRY_END);
    if (++count % KEYWORDS_PER_CHUNK === 0) {
      yield Buffer.concat(pieces);
      pieces = [];
    }
  }
  pieces.push(CLOSING);
  yield Buffer.concat(pieces);
}
