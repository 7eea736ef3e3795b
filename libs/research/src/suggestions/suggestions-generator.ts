import { normaliseKeyword } from '@rank/domain/keyword-text';
import type { KeywordLlm } from '@rank/providers/llm/llm.port';
import { Market, marketKey } from '../domain/volume.events';
import type { AutocompleteProvider, KeywordDataProvider } from '../keyword-data-providers';
import type { MarketKeyword, StoredVolume } from '../volumes.reader';
import { isFresh } from '../volumes.process';
import { metricsOfAsked, VolumeRecorder } from '../volume-recorder';
import type { LocalePhrases, SeedUsed } from './suggestion.events';
import { candidatePhrases, choosePhrases, lastVolumeOf, MAX_PHRASES_PER_LOCALE } from './suggestions.process';

/** Tracked keywords of a locale that autocomplete expands (one request each); a project's first ones. */
const AUTOCOMPLETE_SEEDS_PER_LOCALE = 10;
/** Ranking page titles the model is shown. */
const TITLES_IN_PROMPT = 20;
/** Tracked keywords the model is shown per locale. */
const KEYWORDS_IN_PROMPT = 50;

export interface SuggestionsInput {
  domain: string;
  locales: Market[];
  tracked: readonly MarketKeyword[];
  /** The titles of the project's own ranking pages, from its latest checks. */
  titles: readonly string[];
}

export interface SuggestionsOutput {
  seedUsed: SeedUsed;
  locales: LocalePhrases[];
  /** Why the model's answer was not used (autocomplete stood in), else null. */
  error: string | null;
}

export interface SuggestionsGeneratorDependencies {
  llm: KeywordLlm | null;
  autocomplete: AutocompleteProvider;
  /** The configured keyword-data provider: the phrases' volumes are fetched with it when none are stored. */
  provider: KeywordDataProvider | null;
  recorder: Pick<VolumeRecorder, 'fetched'>;
  stored(keywords: readonly MarketKeyword[]): Promise<StoredVolume[]>;
  now(): Date;
  log(message: string): void;
  /** How long the model may take for all of a run's locales (MODEL_DEADLINE_MS; a test's is shorter). */
  modelDeadlineMs?: number;
}

/**
 * The model's time for a whole run. Past it autocomplete takes over, so that a run whose model hangs
 * (or answers slowly for many locales) still ends within the spec's two minutes of polling: the
 * model's own tries (2 of 60 s) would take them all.
 */
export const MODEL_DEADLINE_MS = 75_000;
/** Locales the model is asked about at once. */
const MODEL_CALLS_AT_ONCE = 4;

/** The name part of a domain (`shop.example.co.uk` → `example`): the autocomplete seed of a locale without keywords. */
function brandOf(domain: string): string {
  const labels = domain.split('.');
  return labels.length >= 3 && labels.at(-2)!.length <= 3 ? labels.at(-3)! : labels.length >= 2 ? labels.at(-2)! : domain;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A run given up because the service is stopping: not a failure of its seeds (nothing is recorded). */
export class SuggestionsStopped extends Error {
  constructor() {
    super('the service stopped before the suggestions were made');
  }
}

const stopIfAborted = (signal: AbortSignal | undefined) => {
  if (signal?.aborted) throw new SuggestionsStopped();
};

/**
 * One run's work: phrases per locale from the model when one is configured (all locales, or
 * autocomplete for all of them if the model fails in any), else from Google Autocomplete's
 * completions of the tracked keywords; then their volumes (stored, else fetched from the provider and
 * recorded like any fetch) to keep the 30 best per locale. Related searches of result pages are not
 * a seed: the parser leaves them out and nothing stores them.
 */
export class SuggestionsGenerator {
  constructor(private readonly deps: SuggestionsGeneratorDependencies) {}

  /**
   * `stop` aborts when the service stops: the calls under way are cut off and the run throws
   * `SuggestionsStopped`, so that it is run again after the restart rather than recorded as failed.
   */
  async generate(input: SuggestionsInput, stop?: AbortSignal): Promise<SuggestionsOutput> {
    let seedUsed: SeedUsed = 'autocomplete';
    let modelFailure: string | null = null;
    let found: Map<string, string[]> | undefined;
    if (this.deps.llm) {
      try {
        found = await this.fromModel(this.deps.llm, input, stop);
        seedUsed = 'llm';
      } catch (failure) {
        stopIfAborted(stop);
        modelFailure = reasonOf(failure);
        this.deps.log(`keyword suggestions for ${input.domain}: the language model failed, autocomplete was used instead: ${modelFailure}`);
      }
    }
    try {
      found ??= await this.fromAutocomplete(input, stop);
    } catch (failure) {
      stopIfAborted(stop);
      // Both seeds failed: the run's error says so, the model's failure too, not only the last one.
      throw modelFailure === null ? failure : new Error(`${reasonOf(failure)}; before it, the language model failed: ${modelFailure}`);
    }
    const error = modelFailure === null ? null : `The language model failed, autocomplete was used instead: ${modelFailure}`;
    const locales: LocalePhrases[] = [];
    for (const market of input.locales) {
      const tracked = new Set(
        input.tracked.filter((k) => k.geoCode === market.geoCode && k.langCode === market.langCode).map((k) => normaliseKeyword(k.keyword)),
      );
      const candidates = candidatePhrases(found.get(marketKey(market)) ?? [], tracked);
      const volumes = await this.volumesOf(market, candidates, stop);
      stopIfAborted(stop);
      locales.push({ ...market, phrases: choosePhrases(candidates, tracked, volumes) });
    }
    return { seedUsed, locales, error };
  }

  /** Every locale's phrases from the model, a few locales at once; the first failure, or the deadline, fails them all. */
  private async fromModel(llm: KeywordLlm, input: SuggestionsInput, stop: AbortSignal | undefined): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    const markets = [...input.locales];
    let next = 0;
    // Ended by the first failure, the deadline or the stop: the calls under way are cut off (their
    // answers would not be used, and each retry is paid for), and no further locale is asked.
    const over = new AbortController();
    stopIfAborted(stop);
    let onStop: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      onStop = () => reject(new SuggestionsStopped());
      stop?.addEventListener('abort', onStop, { once: true });
    });
    stopped.catch(() => undefined);
    const askInTurn = async () => {
      while (!over.signal.aborted && next < markets.length) {
        const market = markets[next++]!;
        found.set(marketKey(market), await this.askModel(llm, input, market, over.signal));
      }
    };
    const deadlineMs = this.deps.modelDeadlineMs ?? MODEL_DEADLINE_MS;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`it had not answered for every locale after ${deadlineMs / 1000} s`)), deadlineMs);
    });
    try {
      await Promise.race([
        Promise.all(Array.from({ length: Math.min(MODEL_CALLS_AT_ONCE, markets.length) }, askInTurn)),
        deadline,
        stopped,
      ]);
    } finally {
      over.abort();
      clearTimeout(timer);
      // The stop signal is the runner's, for its whole life: a listener left on it per run would pile up.
      stop?.removeEventListener('abort', onStop!);
    }
    return found;
  }

  private askModel(llm: KeywordLlm, input: SuggestionsInput, market: Market, signal: AbortSignal): Promise<string[]> {
    const tracked = input.tracked.filter((k) => k.geoCode === market.geoCode && k.langCode === market.langCode).map((k) => k.keyword);
    return llm.keywordsFor(
      {
        system:
          'You are an SEO keyword researcher. Suggest search phrases people type into Google that the site could rank for and that it does not track yet. ' +
          'Answer with JSON {"keywords": [string]} only: lowercase phrases in the requested language, no duplicates, no brand names of competitors.',
        user: [
          `Site: ${input.domain}`,
          `Market: country ${market.geoCode}, language ${market.langCode}`,
          `Titles of its ranking pages: ${input.titles.slice(0, TITLES_IN_PROMPT).join(' | ') || '(none yet)'}`,
          `Keywords it already tracks (do not repeat them): ${tracked.slice(0, KEYWORDS_IN_PROMPT).join(', ') || '(none yet)'}`,
          `Suggest ${MAX_PHRASES_PER_LOCALE * 2} phrases.`,
        ].join('\n'),
      },
      signal,
    );
  }

  /** Completions of the locale's tracked keywords (else of the domain's name); a query that fails is skipped, every query failing fails the run. */
  private async fromAutocomplete(input: SuggestionsInput, stop: AbortSignal | undefined): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    let answered = 0;
    let lastFailure: unknown;
    for (const market of input.locales) {
      const tracked = input.tracked.filter((k) => k.geoCode === market.geoCode && k.langCode === market.langCode).map((k) => k.keyword);
      const seeds = tracked.length > 0 ? tracked.slice(0, AUTOCOMPLETE_SEEDS_PER_LOCALE) : [brandOf(input.domain)];
      const phrases: string[] = [];
      for (const q of seeds) {
        // A query takes up to 10 s (2 tries of 5 s): the stop waits for the one under way only.
        stopIfAborted(stop);
        try {
          phrases.push(...(await this.deps.autocomplete.complete({ q, hl: market.langCode, gl: market.geoCode })));
          answered += 1;
        } catch (failure) {
          lastFailure = failure;
        }
      }
      found.set(marketKey(market), phrases);
    }
    if (answered === 0) throw new Error(`Google Autocomplete failed: ${reasonOf(lastFailure)}`);
    return found;
  }

  /**
   * The latest month's volume of each phrase: stored while fresh (a month), else asked from the
   * provider (and recorded), the stale figure standing in when that fails; none without a provider.
   */
  private async volumesOf(market: Market, phrases: readonly string[], stop: AbortSignal | undefined): Promise<Map<string, number>> {
    const lastVolume = new Map<string, number>();
    if (phrases.length === 0) return lastVolume;
    const stored = await this.deps.stored(phrases.map((keyword) => ({ ...market, keyword })));
    for (const v of stored) {
      const last = lastVolumeOf(v.history);
      if (last !== null) lastVolume.set(v.keyword, last);
    }
    const known = new Set(stored.filter((v) => isFresh(v.fetchedAt, this.deps.now())).map((v) => v.keyword));
    const missing = phrases.filter((p) => !known.has(p));
    const { provider } = this.deps;
    if (!provider || missing.length === 0) return lastVolume;
    try {
      const fetchedAt = this.deps.now();
      const metrics = metricsOfAsked(missing, await provider.searchVolumes(market, missing, stop));
      await this.deps.recorder.fetched(market, provider.source, fetchedAt, metrics);
      for (const m of metrics) {
        const last = lastVolumeOf(m.history);
        if (last !== null) lastVolume.set(m.keyword, last);
      }
    } catch (failure) {
      stopIfAborted(stop);
      // Volumes only order the list: without them the phrases keep the seed's order.
      this.deps.log(`volumes of ${missing.length} suggested phrases (${market.geoCode}/${market.langCode}) failed: ${reasonOf(failure)}`);
    }
    return lastVolume;
  }
}
