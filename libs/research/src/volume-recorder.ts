import { Inject, Injectable } from '@nestjs/common';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import type { EventStore } from '@rank/event-store/event-store.port';
import { EVENT_STORE } from '@rank/platform/tokens';
import { KeywordMetrics, Market, VolumeEvent, volumesStreamName, VolumeSource } from './domain/volume.events';

/** Keywords per event: a 1,000-keyword batch with its months stays far below EventStoreDB's append size limit. */
const KEYWORDS_PER_EVENT = 250;

const noData = (keyword: string): KeywordMetrics => ({
  keyword,
  avgMonthlySearches: null,
  competition: null,
  competitionIndex: null,
  cpcLow: null,
  cpcHigh: null,
  history: [],
});

/**
 * Text without the combining marks of Latin, Greek and Cyrillic letters (U+0300–U+036F: `café crème`
 * → `cafe creme`, but also `año` → `ano`, `мой` → `мои`), for matching an answer that dropped them.
 * Such marks often make another word, which is why only an answer no text asked claims is matched
 * this way (see metricsOfAsked). The marks of other scripts are kept (Japanese が is not か).
 */
const withoutAccents = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');

/**
 * One entry per text asked, in the order asked: the provider's figures matched on the normalised text
 * (providers may answer in another case or spacing); else an answer whose text matches no text asked,
 * matched without accents: the provider answers only what it was asked, so such an answer is its
 * answer to one of ours, spelt its own way (before, `café crème` answered as `cafe creme` lost its
 * figures, stored as "no data" for 30 days). Only when a single text left unanswered has that
 * accent-free spelling: `ban` answered for `bàn` and `bán` (different words) goes to neither. An
 * answer to one text asked never goes to another (`мой` does not get `мои`'s figures when both were
 * asked); and an entry with no data for a text it did not answer, so that the text counts as fetched.
 */
export function metricsOfAsked(asked: readonly string[], answered: readonly KeywordMetrics[]): KeywordMetrics[] {
  const byText = new Map(answered.map((m) => [normaliseKeyword(m.keyword), m]));
  const askedTexts = new Set(asked);
  const unclaimed = new Map<string, KeywordMetrics>();
  for (const [text, metrics] of byText) {
    if (!askedTexts.has(text) && !unclaimed.has(withoutAccents(text))) unclaimed.set(withoutAccents(text), metrics);
  }
  // How many texts left unanswered share each accent-free spelling: an answer fits one of them only.
  const unanswered = new Map<string, number>();
  for (const text of askedTexts) {
    if (!byText.has(text)) unanswered.set(withoutAccents(text), (unanswered.get(withoutAccents(text)) ?? 0) + 1);
  }
  const bareMatch = (keyword: string) =>
    unanswered.get(withoutAccents(keyword)) === 1 ? unclaimed.get(withoutAccents(keyword)) : undefined;
  return asked.map((keyword) => {
    const found = byText.get(keyword) ?? bareMatch(keyword);
    return found ? { ...found, keyword } : noData(keyword);
  });
}

/** Appends fetched volumes (and batches that failed for good) to their market's stream. */
@Injectable()
export class VolumeRecorder {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async fetched(market: Market, source: VolumeSource, fetchedAt: Date, metrics: readonly KeywordMetrics[]): Promise<void> {
    const at = fetchedAt.toISOString();
    const events = [];
    for (let i = 0; i < metrics.length; i += KEYWORDS_PER_EVENT) {
      const keywords = metrics.slice(i, i + KEYWORDS_PER_EVENT);
      const event: VolumeEvent = { type: 'KeywordVolumesFetched', data: { ...market, source, currency: 'USD', fetchedAt: at, keywords } };
      events.push({
        id: uuidFromName(`${volumesStreamName(market)}:${at}:${keywords[0]!.keyword}:${keywords.length}`),
        type: event.type,
        data: { ...event.data },
      });
    }
    if (events.length > 0) await this.store.appendToStream(volumesStreamName(market), events, { expectedRevision: 'any' });
  }

  async failed(
    market: Market,
    source: VolumeSource,
    failedAt: Date,
    keywords: readonly string[],
    reason: string,
    attempts: number,
  ): Promise<void> {
    const at = failedAt.toISOString();
    const event: VolumeEvent = {
      type: 'KeywordVolumesFetchFailed',
      data: { ...market, source, keywords: [...keywords], reason, attempts, failedAt: at },
    };
    await this.store.appendToStream(
      volumesStreamName(market),
      [
        {
          id: uuidFromName(`${volumesStreamName(market)}:failed:${at}:${keywords[0] ?? ''}:${keywords.length}`),
          type: event.type,
          data: { ...event.data },
        },
      ],
      { expectedRevision: 'any' },
    );
  }
}
