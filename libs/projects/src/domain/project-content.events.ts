import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';

/**
 * What a project holds besides its settings: its owner, tracked keywords and timeline notes, in the
 * stream `project-<projectId>`. Keeping keywords here makes the 3,500 limit a check against one
 * stream revision, so concurrent adds can neither lose a keyword nor pass the limit.
 */
export interface TrackedKeyword {
  keywordId: string;
  /** Trimmed, inner whitespace collapsed, lowercased. */
  value: string;
  /** ISO 3166-1 alpha-2, uppercase. */
  geoCode: string;
  /** ISO 639-1, lowercase. */
  langCode: string;
}

export const NOTE_COLORS = ['info', 'warning', 'success', 'danger'] as const;
export type NoteColor = (typeof NOTE_COLORS)[number];

export interface Note {
  noteId: string;
  /** `YYYY-MM-DD`; the API shows it as that day at 00:00:00 UTC. */
  date: string;
  text: string;
  color: NoteColor;
}

export type ProjectContentEvent =
  /** First event of every project stream: lets a public read find the project's account. */
  | { type: 'ProjectOwnerRecorded'; data: { projectId: string; accountId: string } }
  | { type: 'KeywordsAdded'; data: { keywords: TrackedKeyword[]; addedAt: string } }
  | { type: 'KeywordsRemoved'; data: { keywordIds: string[]; removedAt: string } }
  | { type: 'NoteSaved'; data: Note & { savedAt: string } }
  | { type: 'NoteUpdated'; data: Note & { updatedAt: string } }
  | { type: 'NoteDeleted'; data: { noteId: string; deletedAt: string } };

export const PROJECT_CONTENT_EVENT_TYPES = eventTypes<ProjectContentEvent>()([
  'ProjectOwnerRecorded',
  'KeywordsAdded',
  'KeywordsRemoved',
  'NoteSaved',
  'NoteUpdated',
  'NoteDeleted',
]);

export const projectStreamName = STREAM_CATEGORIES.project;
