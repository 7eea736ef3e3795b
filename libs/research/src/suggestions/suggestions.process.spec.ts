import { processSpec } from '@rank/domain/testing/process-spec';
import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';
import type { ProjectSettings } from '@rank/projects/domain/project-settings';
import type { SuggestionEvent } from './suggestion.events';
import {
  choosePhrases,
  countryOfDomain,
  EMPTY_SUGGESTIONS,
  foldSuggestions,
  historyByYear,
  localesOf,
  MAX_PHRASES_PER_LOCALE,
  RunDecision,
  runFor,
  SuggestionsState,
  SuggestionsTrigger,
} from './suggestions.process';

const now = new Date('2026-03-15T12:00:00.000Z');
const runIdOf = (name: string) => `run:${name}`;
const us = { geoCode: 'US', langCode: 'en' };
const de = { geoCode: 'DE', langCode: 'de' };
const keyword = (value: string, market = us): TrackedKeyword => ({ keywordId: value, value, ...market });

const created: SuggestionsTrigger = {
  kind: 'event',
  projectId: 'p1',
  eventId: 'e1',
  event: {
    type: 'ProjectCreated',
    data: { projectId: 'p1', accountId: 'a1', settings: {} as ProjectSettings, folder: null, createdAt: now.toISOString() },
  },
};
const added = (eventId: string, ...keywords: TrackedKeyword[]): SuggestionsTrigger => ({
  kind: 'event',
  projectId: 'p1',
  eventId,
  event: { type: 'KeywordsAdded', data: { keywords, addedAt: now.toISOString() } },
});
const refresh: SuggestionsTrigger = { kind: 'refresh', projectId: 'p1' };

const started = (runId: string, locales = [us]): Extract<SuggestionEvent, { type: 'SuggestionsRunStarted' }> => ({
  type: 'SuggestionsRunStarted',
  data: {
    projectId: 'p1',
    runId,
    reason: 'project-created',
    domain: 'shop.example',
    locales,
    primary: locales[0]!,
    startedAt: '2026-03-01T00:00:00.000Z',
  },
});
const finished = (runId: string, at = '2026-03-01T00:01:00.000Z', error: string | null = null): SuggestionEvent => ({
  type: 'SuggestionsRunFinished',
  data: {
    projectId: 'p1',
    runId,
    domain: 'shop.example',
    primary: us,
    seedUsed: 'llm',
    locales: [{ ...us, phrases: ['a'] }],
    error,
    finishedAt: at,
  },
});

describe('suggestions process', () => {
  const decide = processSpec<SuggestionsTrigger, RunDecision | null, SuggestionsState>((trigger, state) =>
    runFor(trigger, { state, now, runIdOf }),
  );

  it('starts the first run when a project is created', () => {
    decide.given(EMPTY_SUGGESTIONS).when(created).then({ runId: 'run:p1:e1', reason: 'project-created' });
  });

  it('starts nothing for a replayed creation', () => {
    decide
      .given(foldSuggestions([started('run:p1:e1'), finished('run:p1:e1')]))
      .when(created)
      .then(null);
  });

  it('runs again when added keywords bring a locale the last run did not cover', () => {
    decide
      .given(foldSuggestions([started('run:p1:e1', [us]), finished('run:p1:e1')]))
      .when(added('e2', keyword('laufschuhe', de)))
      .then({ runId: 'run:p1:e2', reason: 'new-locale' });
  });

  it("starts nothing when the added keywords' locales are covered already", () => {
    decide
      .given(foldSuggestions([started('run:p1:e1', [us, de]), finished('run:p1:e1')]))
      .when(added('e2', keyword('shoes'), keyword('schuhe', de)))
      .then(null);
  });

  it("runs again when the project gets its first keywords, after a first run made without any (its default locale is no keyword's)", () => {
    // Before, the default locale (the domain's country, English) counted as covered: US/en keywords started nothing for a month.
    const keywordLess: SuggestionEvent = { ...started('run:p1:e1', [us]), data: { ...started('run:p1:e1', [us]).data, keywordLess: true } };
    decide
      .given(foldSuggestions([keywordLess, finished('run:p1:e1')]))
      .when(added('e2', keyword('shoes')))
      .then({ runId: 'run:p1:e2', reason: 'new-locale' });
  });

  it('runs again when keywords are added after a run that failed: it covered nothing', () => {
    const failed: SuggestionEvent = {
      type: 'SuggestionsRunFailed',
      data: { projectId: 'p1', runId: 'run:p1:e1', error: 'Google Autocomplete failed', failedAt: '2026-03-01T00:01:00.000Z' },
    };
    decide
      .given(foldSuggestions([started('run:p1:e1', [us]), failed]))
      .when(added('e2', keyword('shoes')))
      .then({ runId: 'run:p1:e2', reason: 'new-locale' });
    // A later failure leaves what an earlier finished run covered.
    decide
      .given(foldSuggestions([started('run:p1:e1', [us]), finished('run:p1:e1'), started('run:p1:e2', [us, de]), failed]))
      .when(added('e3', keyword('shoes'), keyword('schuhe', de)))
      .then({ runId: 'run:p1:e3', reason: 'new-locale' });
    decide
      .given(foldSuggestions([started('run:p1:e1', [us]), finished('run:p1:e1'), started('run:p1:e2', [us, de]), failed]))
      .when(added('e3', keyword('boots')))
      .then(null);
  });

  it("starts the first run from added keywords when creation's run was never started (a project older than the pipeline)", () => {
    decide
      .given(EMPTY_SUGGESTIONS)
      .when(added('e2', keyword('shoes')))
      .then({ runId: 'run:p1:e2', reason: 'project-created' });
  });

  it('runs a run cut short again, whatever the trigger', () => {
    decide
      .given(foldSuggestions([started('run:p1:e1')]))
      .when(refresh)
      .then({ runId: 'run:p1:e1', reason: 'project-created' });
  });

  it('refreshes a month after the last run ended, not before, and never before a first run', () => {
    decide
      .given(foldSuggestions([started('run:p1:e1'), finished('run:p1:e1', '2026-02-13T00:00:00.000Z')]))
      .when(refresh)
      .then({ runId: 'run:p1:refresh:2026-02-13T00:00:00.000Z', reason: 'monthly' });
    decide
      .given(foldSuggestions([started('run:p1:e1'), finished('run:p1:e1', '2026-02-14T00:00:00.000Z')]))
      .when(refresh)
      .then(null);
    decide.given(EMPTY_SUGGESTIONS).when(refresh).then(null);
  });
});

describe('suggestions state', () => {
  it('counts ended runs and keeps the last result when a later run failed', () => {
    const state = foldSuggestions([
      started('r1'),
      finished('r1'),
      started('r2'),
      {
        type: 'SuggestionsRunFailed',
        data: { projectId: 'p1', runId: 'r2', error: 'Google Autocomplete failed', failedAt: '2026-03-02T00:00:00.000Z' },
      },
    ]);
    expect(state.runCount).toBe(2);
    expect(state.lastEnd).toEqual({ at: '2026-03-02T00:00:00.000Z', error: 'Google Autocomplete failed' });
    expect(state.lastResult?.locales).toEqual([{ ...us, phrases: ['a'] }]);
    expect(state.unfinished).toBeNull();
  });
});

describe('locales', () => {
  it('puts the most common keyword locale first as primary', () => {
    expect(localesOf('shop.example', [keyword('a', de), keyword('b'), keyword('c'), keyword('d', de), keyword('e')])).toEqual({
      primary: us,
      locales: [us, de],
    });
  });

  it("is the domain's own country and English without keywords", () => {
    expect(localesOf('shop.de', [])).toEqual({ primary: { geoCode: 'DE', langCode: 'en' }, locales: [{ geoCode: 'DE', langCode: 'en' }] });
    expect(countryOfDomain('shop.co.uk')).toBe('GB');
    expect(countryOfDomain('shop.com')).toBe('US');
    expect(countryOfDomain('shop.fr')).toBe('FR');
    expect(countryOfDomain('app.io')).toBe('US');
  });
});

describe('phrases', () => {
  it('leaves out tracked keywords and repeats, normalised', () => {
    expect(choosePhrases(['Trail Shoes', 'trail  shoes', 'running shoes', ' '], new Set(['running shoes']), new Map())).toEqual([
      'trail shoes',
    ]);
  });

  it('leaves out phrases the user could not add as keywords: over 200 characters, control characters, ill-formed text', () => {
    // The research audit: a model's 3,000-character phrase and "a\u0000b" were suggested, and refused when added.
    const found = ['x'.repeat(3_000), 'a\u0000b', 'bidi \u202e text', 'lone \ud800', 'y'.repeat(200), 'ok phrase'];
    expect(choosePhrases(found, new Set(), new Map())).toEqual(['y'.repeat(200), 'ok phrase']);
  });

  it("keeps the 30 highest latest-month volumes, unknown volumes last in the seed's order", () => {
    const found = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const volumes = new Map(found.slice(0, 35).map((p, i) => [p, i * 10]));
    const chosen = choosePhrases(found, new Set(), volumes);
    expect(chosen).toHaveLength(MAX_PHRASES_PER_LOCALE);
    expect(chosen[0]).toBe('p34');
    expect(chosen.at(-1)).toBe('p5');
    expect(choosePhrases(['x', 'y', 'z'], new Set(), new Map([['z', 5]]))).toEqual(['z', 'x', 'y']);
  });

  it('groups a monthly history by year', () => {
    expect(
      historyByYear([
        { year: 2025, month: 11, value: 1 },
        { year: 2025, month: 12, value: 2 },
        { year: 2026, month: 1, value: 3 },
      ]),
    ).toEqual([
      {
        year: 2025,
        months: [
          { month: 11, value: 1 },
          { month: 12, value: 2 },
        ],
      },
      { year: 2026, months: [{ month: 1, value: 3 }] },
    ]);
  });
});
