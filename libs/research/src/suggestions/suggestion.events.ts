import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';
import type { Market } from '../domain/volume.events';

/** What seeded a run's phrases (`meta.seedUsed`). */
export type SeedUsed = 'llm' | 'autocomplete';

/** Why a run was started. */
export type RunReason = 'project-created' | 'new-locale' | 'monthly';

/** One locale's phrases of a run, as chosen then (the answer re-sorts them by the volumes known when it is read). */
export interface LocalePhrases extends Market {
  phrases: string[];
}

/**
 * The keyword-suggestions pipeline of one project, on `suggestions-<projectId>`: each run is a
 * start and an end (finished or failed), appended by the projector's suggestions runner only.
 */
export type SuggestionEvent =
  | {
      type: 'SuggestionsRunStarted';
      /**
       * `keywordLess`: the project had no keywords, so `locales` is the domain's own default locale,
       * which no keyword of the project has yet (absent on runs started before it was recorded).
       */
      data: {
        projectId: string;
        runId: string;
        reason: RunReason;
        domain: string;
        locales: Market[];
        primary: Market;
        startedAt: string;
        keywordLess?: true;
      };
    }
  /** `error`: set when the configured model failed and autocomplete stood in for it. */
  | {
      type: 'SuggestionsRunFinished';
      data: {
        projectId: string;
        runId: string;
        domain: string;
        primary: Market;
        seedUsed: SeedUsed;
        locales: LocalePhrases[];
        error: string | null;
        finishedAt: string;
      };
    }
  | { type: 'SuggestionsRunFailed'; data: { projectId: string; runId: string; error: string; failedAt: string } };

export const SUGGESTION_EVENT_TYPES = eventTypes<SuggestionEvent>()([
  'SuggestionsRunStarted',
  'SuggestionsRunFinished',
  'SuggestionsRunFailed',
]);

export const suggestionsStreamName = (projectId: string) => STREAM_CATEGORIES.suggestions(projectId);
