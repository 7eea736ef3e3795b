import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';

/** One keyword of the answer, in answer order. */
export interface KeywordUpdatesEntry {
  keyword: TrackedKeyword;
  avgMonthlySearches: number | null;
  /** Its `updates` array's text without the brackets (KeywordPicks.updatesJson); empty for none. */
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
 * but for U+2028 and U+2029 in a page's strings, which ClickHouse escapes (the same strings parsed).
 *
 * Bytes, not strings: the updates come from ClickHouse as bytes, whole, and go out as they came
 * between each keyword's opening and closing.
 */
export function* keywordUpdatesJson(entries: Iterable<KeywordUpdatesEntry>): Generator<Buffer> {
  let pieces: Buffer[] = [OPENING];
  let count = 0;
  for (const { keyword, avgMonthlySearches, updatesJson } of entries) {
    const ref = { _id: keyword.keywordId, value: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, avgMonthlySearches };
    pieces.push(
      Buffer.from(`${count === 0 ? '' : ','}${JSON.stringify(keyword.keywordId)}:{"keyword":${JSON.stringify(ref)},"updates":[`),
      updatesJson,
      ENTRY_END,
    );
    if (++count % KEYWORDS_PER_CHUNK === 0) {
      yield Buffer.concat(pieces);
      pieces = [];
    }
  }
  pieces.push(CLOSING);
  yield Buffer.concat(pieces);
}
