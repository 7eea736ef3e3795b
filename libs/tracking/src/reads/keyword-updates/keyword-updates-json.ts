import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import type { PickedCheck, RankingPage } from './keyword-updates.reader';

/** One keyword of the answer, in answer order. */
export interface KeywordUpdatesEntry {
  keyword: TrackedKeyword;
  avgMonthlySearches: number | null;
  picks: readonly PickedCheck[];
}

/** Keywords per chunk: big enough that the stream's per-chunk cost vanishes, small enough to keep memory flat. */
const KEYWORDS_PER_CHUNK = 100;

/** Position of the latest successful pick: 0 = not ranking, null = no successful pick in the window. */
export function latestPosition(picks: readonly PickedCheck[]): number | null {
  for (let i = picks.length - 1; i >= 0; i--) if (picks[i]!.succeeded) return picks[i]!.position;
  return null;
}

/**
 * The keyword-updates answer `{"success":true,"data":{...}}` as text chunks, written by hand rather
 * than by JSON.stringify of the whole object graph: a year of updates is tens of MB, and this way it
 * is never held at once, neither as objects nor as one string. The text is what JSON.stringify gives
 * for the documented shape (the e2e tests parse it; keys in the same order), and each page's
 * url/title/domain is escaped once, not once per update.
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
  const update = (pick: PickedCheck): string => {
    const id = JSON.stringify(pick.checkId);
    const date = new Date(pick.checkedAtMs).toISOString();
    return pick.succeeded
      ? `{"_id":${id},"date":"${date}","status":"success","position":{"position":${pick.position}${fieldsOf(pick.pageKey)},"aiSerpId":${pick.hasAiOverview ? id : 'null'}}`
      : `{"_id":${id},"date":"${date}","status":"failed","position":null,"aiSerpId":null}`;
  };

  let chunk = '{"success":true,"data":{';
  let count = 0;
  for (const { keyword, avgMonthlySearches, picks } of entries) {
    const ref = { _id: keyword.keywordId, value: keyword.value, geoCode: keyword.geoCode, langCode: keyword.langCode, avgMonthlySearches };
    chunk += `${count === 0 ? '' : ','}${JSON.stringify(keyword.keywordId)}:{"keyword":${JSON.stringify(ref)},"updates":[${picks.map(update).join(',')}]}`;
    if (++count % KEYWORDS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}}}`;
}
