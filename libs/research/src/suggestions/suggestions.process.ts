import { assertNever } from '@rank/domain/domain-error';
import { isCountryCode } from '@rank/domain/iso-codes';
import { isTrackableKeyword, normaliseKeyword } from '@rank/domain/keyword-text';
import type { ProjectContentEvent } from '@rank/projects/domain/project-content.events';
import type { WorkspaceEvent } from '@rank/projects/domain/workspace.events';
import { Market, marketKey, MonthlySearches } from '../domain/volume.events';
import type { LocalePhrases, RunReason, SeedUsed, SuggestionEvent } from './suggestion.events';

/**
 * The keyword-suggestions pipeline as a pure process: what happened (a project created, keywords
 * added, time passing) and what the project's suggestions stream knows give the run to start, if
 * any; the project's keywords at run time give its locales and primary locale; the phrases a seed
 * gave, the tracked keywords and the known volumes give each locale's list.
 */

/** Phrases a locale keeps (the spec's limit). */
export const MAX_PHRASES_PER_LOCALE = 30;
/** After its last run, a project's suggestions are refreshed at most this often. */
export const SUGGESTIONS_REFRESH_MS = 30 * 24 * 3600_000;

/** What a project's suggestions stream tells. */
export interface SuggestionsState {
  /** Run ids started, each once. */
  started: ReadonlySet<string>;
  /**
   * The keyword locales the latest finished run covered: a run that failed covered none, nor did one
   * made for a project without keywords (its default locale is no keyword's).
   */
  covered: readonly Market[];
  /** Runs that ended (finished or failed). */
  runCount: number;
  /** The latest run's end: when, and its error (a failure's, or the model's when autocomplete stood in); null when none ended yet. */
  lastEnd: { at: string; error: string | null } | null;
  /** The latest finished run's result: what the endpoint serves. */
  lastResult: { domain: string; primary: Market; seedUsed: SeedUsed; locales: LocalePhrases[]; finishedAt: string } | null;
  /** The latest started run's project as it was then: what a first run that failed is shown with. */
  lastStarted: { domain: string; primary: Market; locales: Market[]; covers: Market[] } | null;
  /** A run started whose end is not recorded (it was cut short by a stop): run it again. */
  unfinished: { runId: string; reason: RunReason } | null;
}

export const EMPTY_SUGGESTIONS: SuggestionsState = {
  started: new Set(),
  covered: [],
  runCount: 0,
  lastEnd: null,
  lastResult: null,
  lastStarted: null,
  unfinished: null,
};

export function evolveSuggestions(state: SuggestionsState, event: SuggestionEvent): SuggestionsState {
  switch (event.type) {
    case 'SuggestionsRunStarted': {
      const { runId, reason, locales, domain, primary, keywordLess } = event.data;
      return {
        ...state,
        started: new Set([...state.started, runId]),
        unfinished: { runId, reason },
        lastStarted: { domain, primary, locales, covers: keywordLess ? [] : locales },
      };
    }
    case 'SuggestionsRunFinished': {
      const { domain, primary, seedUsed, locales, error, finishedAt } = event.data;
      return {
        ...state,
        runCount: state.runCount + 1,
        covered: state.lastStarted?.covers ?? state.covered,
        lastEnd: { at: finishedAt, error },
        unfinished: null,
        lastResult: { domain, primary, seedUsed, locales, finishedAt },
      };
    }
    case 'SuggestionsRunFailed':
      return { ...state, runCount: state.runCount + 1, lastEnd: { at: event.data.failedAt, error: event.data.error }, unfinished: null };
    default:
      return assertNever(event);
  }
}

export const foldSuggestions = (events: readonly SuggestionEvent[]) => events.reduce(evolveSuggestions, EMPTY_SUGGESTIONS);

/** What can start a run: a new project, keywords added to one (their locales), the monthly refresh. */
export type SuggestionsTrigger =
  | {
      kind: 'event';
      projectId: string;
      eventId: string;
      event: Extract<WorkspaceEvent, { type: 'ProjectCreated' }> | Extract<ProjectContentEvent, { type: 'KeywordsAdded' }>;
    }
  | { kind: 'refresh'; projectId: string };

export interface RunDecision {
  runId: string;
  reason: RunReason;
}

/**
 * The run a trigger starts, decided when the runner takes it up (so a run already made covers the
 * keywords added before it began): the first run on creation; another when added keywords bring a
 * locale the latest finished run did not cover (after a failed run, or a first run made before the
 * project had keywords, any keywords do); the refresh once the last run is a month old. A run cut
 * short is run again first. `runId` comes from the trigger, so a replayed trigger starts nothing.
 */
export function runFor(
  trigger: SuggestionsTrigger,
  known: { state: SuggestionsState; now: Date; runIdOf: (name: string) => string },
): RunDecision | null {
  const { state, now, runIdOf } = known;
  if (state.unfinished) return state.unfinished;
  if (trigger.kind === 'refresh') {
    if (!state.lastEnd || now.getTime() - Date.parse(state.lastEnd.at) < SUGGESTIONS_REFRESH_MS) return null;
    return fresh(runIdOf(`${trigger.projectId}:refresh:${state.lastEnd.at}`), 'monthly', state);
  }
  const runId = runIdOf(`${trigger.projectId}:${trigger.eventId}`);
  switch (trigger.event.type) {
    case 'ProjectCreated':
      return state.started.size === 0 ? fresh(runId, 'project-created', state) : null;
    case 'KeywordsAdded': {
      const covered = new Set(state.covered.map(marketKey));
      const brings = trigger.event.data.keywords.some((k) => !covered.has(marketKey(k)));
      return brings ? fresh(runId, state.started.size === 0 ? 'project-created' : 'new-locale', state) : null;
    }
    default:
      return assertNever(trigger.event);
  }
}

const fresh = (runId: string, reason: RunReason, state: SuggestionsState): RunDecision | null =>
  state.started.has(runId) ? null : { runId, reason };

/** Country-code TLDs sites use as generic names (`.io`, `.ai`, …): they say nothing of the site's market. */
const GENERIC_COUNTRY_TLDS = new Set(['AI', 'CC', 'CO', 'FM', 'GG', 'IO', 'LY', 'ME', 'TO', 'TV', 'WS']);

/** The country a domain's own top-level domain names (`shop.de` → DE, `.co.uk` → GB), else US. */
export function countryOfDomain(domain: string): string {
  const tld = domain.split('.').at(-1)?.toUpperCase() ?? '';
  if (tld === 'UK') return 'GB';
  return tld.length === 2 && isCountryCode(tld) && !GENERIC_COUNTRY_TLDS.has(tld) ? tld : 'US';
}

/**
 * A project's locales at run time: the (geo, lang) pairs of its keywords, the most common first
 * (that one is `primary`; ties keep the first added); with no keywords, the domain's own country
 * and English.
 */
export function localesOf(domain: string, keywords: readonly Market[]): { primary: Market; locales: Market[] } {
  const counts = new Map<string, { market: Market; count: number }>();
  for (const k of keywords) {
    const entry = counts.get(marketKey(k)) ?? { market: { geoCode: k.geoCode, langCode: k.langCode }, count: 0 };
    entry.count += 1;
    counts.set(marketKey(k), entry);
  }
  const locales = [...counts.values()].sort((a, b) => b.count - a.count).map((e) => e.market);
  const primary = locales[0] ?? { geoCode: countryOfDomain(domain), langCode: 'en' };
  return { primary, locales: locales.length > 0 ? locales : [primary] };
}

/** What a seed gave, normalised, each once, in the seed's order, without the locale's tracked keywords. */
export function candidatePhrases(found: readonly string[], tracked: ReadonlySet<string>): string[] {
  const phrases = new Set<string>();
  for (const text of found) {
    const phrase = normaliseKeyword(text);
    // A phrase the user could not add (over 200 characters, a control character) is no suggestion.
    if (isTrackableKeyword(phrase) && !tracked.has(phrase)) phrases.add(phrase);
  }
  return [...phrases];
}

/**
 * A locale's phrases from what a seed gave (candidatePhrases), the highest latest-month volume
 * first (unknown volumes last, in the seed's order), cut to MAX_PHRASES_PER_LOCALE.
 */
export function choosePhrases(found: readonly string[], tracked: ReadonlySet<string>, lastVolume: ReadonlyMap<string, number>): string[] {
  return candidatePhrases(found, tracked)
    .map((phrase, order) => ({ phrase, order, volume: lastVolume.get(phrase) ?? -1 }))
    .sort((a, b) => b.volume - a.volume || a.order - b.order)
    .slice(0, MAX_PHRASES_PER_LOCALE)
    .map((p) => p.phrase);
}

/** The latest month's searches of a phrase's stored figures, or null. */
export const lastVolumeOf = (history: readonly MonthlySearches[]): number | null => history.at(-1)?.value ?? null;

/** A monthly history grouped by year, as the answer shows it (oldest first). */
export function historyByYear(history: readonly MonthlySearches[]): { year: number; months: { month: number; value: number }[] }[] {
  const years: { year: number; months: { month: number; value: number }[] }[] = [];
  for (const m of history) {
    const last = years.at(-1);
    if (last?.year === m.year) last.months.push({ month: m.month, value: m.value });
    else years.push({ year: m.year, months: [{ month: m.month, value: m.value }] });
  }
  return years;
}
