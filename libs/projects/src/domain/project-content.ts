import { LIMITS } from '@rank/domain/limits';
import { assertNever, DomainError, invalid, notFound } from '@rank/domain/domain-error';
import { Decider } from '@rank/domain/decider';
import { Note, NoteColor, PROJECT_CONTENT_EVENT_TYPES, ProjectContentEvent, TrackedKeyword } from './project-content.events';

export const MAX_KEYWORDS_PER_PROJECT = LIMITS.keywordsPerProject;

/** A keyword of the project, with when it was added (a scheduled slot checks the keywords it had then). */
export interface ProjectKeyword extends TrackedKeyword {
  addedAt: string;
}

export interface ProjectContentState {
  projectId: string | null;
  accountId: string | null;
  /** In the order they were added. */
  keywords: ProjectKeyword[];
  /**
   * Every keyword id the project ever removed. Keyword ids are never reused, so a ranking row of the
   * project belongs to a current keyword or to one of these: a read that counts only current keywords
   * can leave these out instead of listing every current one (ClickHouse spends about 6 µs an element
   * on a list in a statement, 20 ms for 3,500 ids).
   */
  removedKeywordIds: string[];
  /** In the order they were created. */
  notes: Note[];
}

export type ProjectContentCommand =
  | { type: 'RecordOwner'; projectId: string; accountId: string }
  /** `keywordIds[i]` is the id for `values[i]` if it is added; values are already normalised. */
  | { type: 'AddKeywords'; values: string[]; geoCode: string; langCode: string; keywordIds: string[] }
  | { type: 'RemoveKeywords'; keywordIds: string[] }
  | { type: 'SaveNote'; noteId: string; date: string; text: string; color: NoteColor | undefined }
  | { type: 'DeleteNote'; noteId: string };

/** A keyword's identity in a project (clarifications); composed, so a keyword stored before input was composed (NFC) still meets its twin. */
export const keywordIdentity = (k: Pick<TrackedKeyword, 'value' | 'geoCode' | 'langCode'>) =>
  `${k.geoCode}|${k.langCode}|${k.value.normalize('NFC')}`;

export function decideProjectContent(command: ProjectContentCommand, state: ProjectContentState, now: Date): ProjectContentEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'RecordOwner':
      if (state.projectId !== null) throw new DomainError('conflict', 'Project already exists');
      return [{ type: 'ProjectOwnerRecorded', data: { projectId: command.projectId, accountId: command.accountId } }];
    case 'AddKeywords': {
      if (state.projectId === null) throw notFound('Project not found');
      const seen = new Set(state.keywords.map(keywordIdentity));
      const added: TrackedKeyword[] = [];
      command.values.forEach((value, i) => {
        const keyword = { keywordId: command.keywordIds[i]!, value, geoCode: command.geoCode, langCode: command.langCode };
        const identity = keywordIdentity(keyword);
        if (seen.has(identity)) return;
        seen.add(identity);
        added.push(keyword);
      });
      const currentCount = state.keywords.length;
      if (currentCount + added.length > MAX_KEYWORDS_PER_PROJECT) {
        const availableSlots = Math.max(0, MAX_KEYWORDS_PER_PROJECT - currentCount);
        throw invalid(
          `This request would add ${added.length} ${added.length === 1 ? 'keyword' : 'keywords'} but the project has room for ${availableSlots} (at most ${MAX_KEYWORDS_PER_PROJECT} per project); nothing was added`,
          { error: 'KEYWORDS_LIMIT_EXCEEDED', currentCount, maxAllowed: MAX_KEYWORDS_PER_PROJECT, availableSlots },
        );
      }
      return added.length === 0 ? [] : [{ type: 'KeywordsAdded', data: { keywords: added, addedAt: at } }];
    }
    case 'RemoveKeywords': {
      if (state.projectId === null) throw notFound('Project not found');
      const wanted = new Set(command.keywordIds);
      const keywordIds = state.keywords.filter((k) => wanted.has(k.keywordId)).map((k) => k.keywordId);
      return keywordIds.length === 0 ? [] : [{ type: 'KeywordsRemoved', data: { keywordIds, removedAt: at } }];
    }
    case 'SaveNote': {
      if (state.projectId === null) throw notFound('Project not found');
      const existing = state.notes.find((n) => n.date === command.date);
      if (existing) {
        // The default colour applies only to a new note: an update keeps the old colour unless it sends one.
        return [{ type: 'NoteUpdated', data: { ...existing, text: command.text, color: command.color ?? existing.color, updatedAt: at } }];
      }
      const { noteId, date, text } = command;
      return [{ type: 'NoteSaved', data: { noteId, date, text, color: command.color ?? 'info', savedAt: at } }];
    }
    case 'DeleteNote': {
      if (!state.notes.some((n) => n.noteId === command.noteId)) throw notFound('Note not found');
      return [{ type: 'NoteDeleted', data: { noteId: command.noteId, deletedAt: at } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolveProjectContent(state: ProjectContentState, event: ProjectContentEvent): ProjectContentState {
  switch (event.type) {
    case 'ProjectOwnerRecorded':
      return { ...state, projectId: event.data.projectId, accountId: event.data.accountId };
    case 'KeywordsAdded':
      return { ...state, keywords: [...state.keywords, ...event.data.keywords.map((k) => ({ ...k, addedAt: event.data.addedAt }))] };
    case 'KeywordsRemoved': {
      const removed = new Set(event.data.keywordIds);
      return {
        ...state,
        keywords: state.keywords.filter((k) => !removed.has(k.keywordId)),
        removedKeywordIds: [...state.removedKeywordIds, ...event.data.keywordIds],
      };
    }
    case 'NoteSaved': {
      const { noteId, date, text, color } = event.data;
      return { ...state, notes: [...state.notes, { noteId, date, text, color }] };
    }
    case 'NoteUpdated':
      return {
        ...state,
        notes: state.notes.map((n) => (n.noteId === event.data.noteId ? { ...n, text: event.data.text, color: event.data.color } : n)),
      };
    case 'NoteDeleted':
      return { ...state, notes: state.notes.filter((n) => n.noteId !== event.data.noteId) };
    default:
      return assertNever(event);
  }
}

export const projectContentDecider: Decider<ProjectContentCommand, ProjectContentEvent, ProjectContentState> = {
  decide: decideProjectContent,
  evolve: evolveProjectContent,
  initialState: () => ({ projectId: null, accountId: null, keywords: [], removedKeywordIds: [], notes: [] }),
  eventTypes: PROJECT_CONTENT_EVENT_TYPES,
};
