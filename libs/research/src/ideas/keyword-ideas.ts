import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { normaliseKeyword } from '@rank/domain/keyword-text';
import { keywordDataFailureOf } from '@rank/providers/keyword-data/keyword-data-error';
import { MAX_IDEA_SEEDS } from '@rank/providers/keyword-data/keyword-data.port';
import type { Competition, KeywordMetrics, Market } from '../domain/volume.events';
import { AUTOCOMPLETE_PROVIDER, AutocompleteProvider, KEYWORD_DATA_PROVIDER, KeywordDataProvider } from '../keyword-data-providers';
import { withTimeout } from './with-timeout';
import { averageMonthlySearches } from '../domain/twelve-months';

/** The spec's upstream timeout of keyword-ideas (and keyword-research). */
export const RESEARCH_TIMEOUT_MS = 30_000;
/** Overrides RESEARCH_TIMEOUT_MS (tests only). */
export const RESEARCH_TIMEOUT = Symbol('RESEARCH_TIMEOUT');
/** Ideas a keyword-ideas answer holds at most. */
export const MAX_IDEAS = 100;
/** Seeds sent to autocomplete when no provider is configured: one request each. */
const AUTOCOMPLETE_SEEDS = 5;

export interface KeywordIdea {
  keyword: string;
  avgMonthlySearches: number | null;
  competition: Competition | null;
}

/** `error` as the clarifications name it: the provider answered badly, or nothing could answer. */
export type IdeasError = 'upstream_error' | 'service_unavailable';

export interface KeywordIdeasAnswer {
  ideas: KeywordIdea[];
  error?: IdeasError;
}

export interface IdeasSeed extends Market {
  /** The project's domain (`example.com`). */
  domain: string;
  /** The project's tracked keyword texts, which are never suggested back. */
  tracked: readonly { value: string; geoCode: string; langCode: string }[];
}

/** Highest volume first; unknown volumes last; ties by text. */
export const byVolume = <T extends { keyword: string; avgMonthlySearches: number | null }>(a: T, b: T) =>
  (b.avgMonthlySearches ?? -1) - (a.avgMonthlySearches ?? -1) || a.keyword.localeCompare(b.keyword, 'en');

/** The name part of a domain, as an autocomplete seed for a project without keywords (`shop.example.co.uk` → `example`). */
function brandOf(domain: string): string {
  const labels = domain.split('.');
  return labels.length >= 3 && labels.at(-2)!.length <= 3 ? labels.at(-3)! : labels.length >= 2 ? labels.at(-2)! : domain;
}

/**
 * Keyword ideas for a project in a market. Seeds are the project's keywords of that market (else any
 * of its keywords) and its domain: with a provider, its related keywords for the seeds plus its
 * keywords for the site, with figures; without one, Google Autocomplete's completions of the seeds
 * with null figures. Tracked keywords are left out. Failures are answers, never exceptions.
 */
@Injectable()
export class KeywordIdeas {
  private readonly logger = new Logger('KeywordIdeas');

  constructor(
    @Inject(AUTOCOMPLETE_PROVIDER) private readonly autocomplete: AutocompleteProvider,
    @Optional() @Inject(KEYWORD_DATA_PROVIDER) private readonly provider: KeywordDataProvider | null = null,
    @Optional() @Inject(RESEARCH_TIMEOUT) private readonly timeoutMs: number = RESEARCH_TIMEOUT_MS,
  ) {}

  async forProject(seed: IdeasSeed): Promise<KeywordIdeasAnswer> {
    const market: Market = { geoCode: seed.geoCode, langCode: seed.langCode };
    const inMarket = seed.tracked.filter((k) => k.geoCode === seed.geoCode && k.langCode === seed.langCode).map((k) => k.value);
    const seeds = [...new Set([...inMarket, ...seed.tracked.map((k) => k.value)])];
    // A keyword is tracked per market: one tracked in Germany is still an idea for the US.
    const tracked = new Set(inMarket.map((value) => normaliseKeyword(value)));
    return this.provider
      ? this.fromProvider(this.provider, market, seeds, seed.domain, tracked)
      : this.fromAutocomplete(market, seeds, seed.domain, tracked);
  }

  private async fromProvider(
    provider: KeywordDataProvider,
    market: Market,
    seeds: string[],
    domain: string,
    tracked: Set<string>,
  ): Promise<KeywordIdeasAnswer> {
    try {
      const answers = await withTimeout(
        (signal) =>
          bothOrFirstFailure(
            signal,
            (cut) =>
              [
                seeds.length > 0
                  ? provider.ideasForKeywords(market, seeds.slice(0, MAX_IDEA_SEEDS), { limit: MAX_IDEAS, signal: cut })
                  : Promise.resolve([]),
                provider.ideasForSite(market, domain, { limit: MAX_IDEAS, signal: cut }),
              ] as const,
          ),
        this.timeoutMs,
        provider.source,
      );
      const ideas = new Map<string, KeywordIdea>();
      for (const figures of answers.flat()) {
        const idea = ideaOf(figures);
        if (idea.keyword && !tracked.has(idea.keyword) && !ideas.has(idea.keyword)) ideas.set(idea.keyword, idea);
      }
      return { ideas: [...ideas.values()].sort(byVolume).slice(0, MAX_IDEAS) };
    } catch (error) {
      const failure = keywordDataFailureOf(error);
      this.logger.warn(
        `keyword ideas from ${provider.source} failed (${failure}): ${error instanceof Error ? error.message : String(error)}`,
      );
      return { ideas: [], error: failure === 'unavailable' ? 'service_unavailable' : 'upstream_error' };
    }
  }

  private async fromAutocomplete(market: Market, seeds: string[], domain: string, tracked: Set<string>): Promise<KeywordIdeasAnswer> {
    const queries = seeds.length > 0 ? seeds.slice(0, AUTOCOMPLETE_SEEDS) : [brandOf(domain)];
    const settled = await Promise.allSettled(
      queries.map((q) =>
        // Autocomplete is free and bounded by its own timeout and retry budget: it takes no signal.
        withTimeout(() => this.autocomplete.complete({ q, hl: market.langCode, gl: market.geoCode }), this.timeoutMs, 'autocomplete'),
      ),
    );
    const answered = settled.filter((s): s is PromiseFulfilledResult<string[]> => s.status === 'fulfilled');
    if (answered.length === 0) {
      this.logger.warn(
        `keyword ideas: no provider is configured and autocomplete failed: ${String((settled[0] as PromiseRejectedResult).reason)}`,
      );
      return { ideas: [], error: 'service_unavailable' };
    }
    const phrases = [...new Set(answered.flatMap((s) => s.value.map(normaliseKeyword)))].filter((p) => p && !tracked.has(p));
    return { ideas: phrases.slice(0, MAX_IDEAS).map((keyword) => ({ keyword, avgMonthlySearches: null, competition: null })) };
  }
}

const ideaOf = (figures: KeywordMetrics): KeywordIdea => ({
  keyword: normaliseKeyword(figures.keyword),
  avgMonthlySearches: averageMonthlySearches(figures),
  competition: figures.competition,
});

/**
 * Both answers of two calls started by `start` with one signal, or the first failure. At the first
 * failure the signal aborts (as it does when `outer`, the timeout's, aborts), so the other call is cut
 * off instead of retrying on its own (DataForSEO: up to three tries a second apart), and the answer
 * waits until it has ended: no call of the request outlives its answer, nor is paid for unread. The
 * other call's own error (cut off) never hides the failure that ended the pair.
 */
async function bothOrFirstFailure<A, B>(
  outer: AbortSignal,
  start: (signal: AbortSignal) => readonly [Promise<A>, Promise<B>],
): Promise<[A, B]> {
  const failed = new AbortController();
  let firstFailure: { reason: unknown } | undefined;
  const onFailure = (reason: unknown): never => {
    firstFailure ??= { reason };
    failed.abort();
    throw reason;
  };
  const [first, second] = start(AbortSignal.any([outer, failed.signal]));
  const [a, b] = await Promise.allSettled([first.catch(onFailure), second.catch(onFailure)]);
  if (firstFailure) throw firstFailure.reason;
  return [(a as PromiseFulfilledResult<A>).value, (b as PromiseFulfilledResult<B>).value];
}
