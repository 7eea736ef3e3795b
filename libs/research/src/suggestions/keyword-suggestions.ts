import { Inject, Injectable } from '@nestjs/common';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import type { EventStore } from '@rank/event-store/event-store.port';
import { EVENT_STORE } from '@rank/platform/tokens';
import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import { Market, marketKeywordKey } from '../domain/volume.events';
import { KeywordVolumes } from '../keyword-volumes';
import type { SeedUsed } from './suggestion.events';
import { loadSuggestions } from './suggestions-runner';
import { choosePhrases, historyByYear, lastVolumeOf, MAX_PHRASES_PER_LOCALE } from './suggestions.process';

export interface SuggestedPhrase {
  phrase: string;
  lastVolume: number | null;
  volume: { year: number; months: { month: number; value: number }[] }[];
}

export interface SuggestionsLocale {
  key: string;
  lang: string;
  region: string;
  geo: string;
  lastUpdatedAt: string;
  keywords: SuggestedPhrase[];
}

export type KeywordSuggestionsAnswer =
  | { ready: false }
  | {
      success: true;
      ready: true;
      domain: string;
      primary: { lang: string; geo: string };
      locales: SuggestionsLocale[];
      pages: never[];
      meta: { seedUsed: SeedUsed };
      runCount: number;
      lastRunAt: string;
      lastError: string | null;
    };

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * The keyword-suggestions answer, folded from the project's suggestions stream (a handful of events
 * a month, so no read model of its own) with the phrases' volumes read from `keyword_volumes` at
 * answer time, so they sort by the figures known now; keywords the project tracks now are left out.
 */
@Injectable()
export class KeywordSuggestions {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly volumes: KeywordVolumes,
  ) {}

  async forProject(projectId: string, tracked: readonly TrackedKeyword[]): Promise<KeywordSuggestionsAnswer> {
    const state = await loadSuggestions(this.store, projectId);
    if (!state.lastEnd) return { ready: false };
    const result = state.lastResult;
    const shown = result ?? {
      domain: state.lastStarted?.domain ?? '',
      primary: state.lastStarted?.primary ?? { geoCode: 'US', langCode: 'en' },
      seedUsed: 'autocomplete' as const,
      finishedAt: state.lastEnd.at,
      locales: (state.lastStarted?.locales ?? []).map((m) => ({ ...m, phrases: [] })),
    };
    const locales: SuggestionsLocale[] = [];
    for (const locale of shown.locales) {
      const own = new Set(
        tracked.filter((k) => k.geoCode === locale.geoCode && k.langCode === locale.langCode).map((k) => normaliseKeyword(k.value)),
      );
      const stored = await this.volumes.stored(
        locale.phrases.map((keyword) => ({ geoCode: locale.geoCode, langCode: locale.langCode, keyword })),
      );
      const byPhrase = new Map(stored.map((v) => [marketKeywordKey(v, v.keyword), v]));
      const history = (phrase: string) => byPhrase.get(marketKeywordKey(locale, phrase))?.history ?? [];
      const lastVolume = new Map<string, number>();
      for (const phrase of locale.phrases) {
        const last = lastVolumeOf(history(phrase));
        if (last !== null) lastVolume.set(phrase, last);
      }
      const phrases = choosePhrases(locale.phrases, own, lastVolume).slice(0, MAX_PHRASES_PER_LOCALE);
      locales.push({
        ...localeNames(locale),
        lastUpdatedAt: shown.finishedAt,
        keywords: phrases.map((phrase) => ({ phrase, lastVolume: lastVolume.get(phrase) ?? null, volume: historyByYear(history(phrase)) })),
      });
    }
    return {
      success: true,
      ready: true,
      domain: shown.domain,
      primary: { lang: shown.primary.langCode, geo: shown.primary.geoCode },
      locales,
      pages: [],
      meta: { seedUsed: shown.seedUsed },
      runCount: state.runCount,
      lastRunAt: state.lastEnd.at,
      lastError: state.lastEnd.error,
    };
  }
}

function localeNames(market: Market): Pick<SuggestionsLocale, 'key' | 'lang' | 'region' | 'geo'> {
  return {
    key: `${market.langCode}-${market.geoCode}`,
    lang: market.langCode,
    region: regionNames.of(market.geoCode) ?? market.geoCode,
    geo: market.geoCode,
  };
}
