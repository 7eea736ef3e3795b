import { DomainError } from '@rank/domain/domain-error';
import { foldEvents } from '@rank/domain/decider';
import { deciderSpec } from '@rank/domain/testing/decider-spec';
import { MAX_KEYWORDS_PER_PROJECT, projectContentDecider } from './project-content';
import { ProjectContentEvent } from './project-content.events';

const now = new Date('2026-03-01T10:00:00.000Z');
const at = now.toISOString();
const spec = deciderSpec(projectContentDecider, now);
const id = (n: number) => n.toString(16).padStart(24, '0');
const owner: ProjectContentEvent = { type: 'ProjectOwnerRecorded', data: { projectId: id(1), accountId: id(2) } };
const add = (values: string[], firstId = 100, geoCode = 'US', langCode = 'en') => ({
  type: 'AddKeywords' as const,
  values,
  geoCode,
  langCode,
  keywordIds: values.map((_, i) => id(firstId + i)),
});
const added = (values: string[], firstId = 100, geoCode = 'US', langCode = 'en'): ProjectContentEvent => ({
  type: 'KeywordsAdded',
  data: { keywords: values.map((value, i) => ({ keywordId: id(firstId + i), value, geoCode, langCode })), addedAt: at },
});

describe('Project content: keywords', () => {
  it('adds keywords, dropping duplicates within the request and against the project', () => {
    spec
      .given([owner, added(['shoes'])])
      .when(add(['shoes', 'boots', 'boots', 'socks'], 200))
      .then([
        {
          type: 'KeywordsAdded',
          data: {
            keywords: [
              { keywordId: id(201), value: 'boots', geoCode: 'US', langCode: 'en' },
              { keywordId: id(203), value: 'socks', geoCode: 'US', langCode: 'en' },
            ],
            addedAt: at,
          },
        },
      ]);
  });
  it('treats the same text in another country or language as another keyword', () => {
    spec
      .given([owner, added(['shoes'])])
      .when(add(['shoes'], 200, 'DE', 'de'))
      .then([added(['shoes'], 200, 'DE', 'de')]);
  });
  it('records nothing when every keyword is already tracked', () => {
    spec
      .given([owner, added(['shoes'])])
      .when(add(['shoes'], 200))
      .then([]);
  });
  it('fills the project to exactly the limit, and refuses one more with the counts', () => {
    const almost = Array.from({ length: MAX_KEYWORDS_PER_PROJECT - 1 }, (_, i) => `kw ${i}`);
    const past = [owner, added(almost, 1000)];
    expect(
      spec
        .given(past)
        .when(add(['last one'], 9000))
        .events(),
    ).toHaveLength(1);
    const error = spec
      .given(past)
      .when(add(['one', 'two'], 9000))
      .thenThrows('invalid', /nothing was added/) as DomainError;
    expect(error.details).toEqual({ error: 'KEYWORDS_LIMIT_EXCEEDED', currentCount: 3499, maxAllowed: 3500, availableSlots: 1 });
  });
  it('accepts only duplicates at the limit as a change of nothing', () => {
    const full = Array.from({ length: MAX_KEYWORDS_PER_PROJECT }, (_, i) => `kw ${i}`);
    spec
      .given([owner, added(full, 1000)])
      .when(add(['kw 1', 'kw 2'], 9000))
      .then([]);
  });
  it('removes only keywords of the project', () => {
    spec
      .given([owner, added(['a', 'b'])])
      .when({ type: 'RemoveKeywords', keywordIds: [id(101), id(5000)] })
      .then([{ type: 'KeywordsRemoved', data: { keywordIds: [id(101)], removedAt: at } }]);
  });
  it('remembers the ids it removed, so that reads can leave their ranking rows out', () => {
    const removed = (n: number): ProjectContentEvent => ({ type: 'KeywordsRemoved', data: { keywordIds: [id(n)], removedAt: at } });
    const state = foldEvents(projectContentDecider, [owner, added(['a', 'b', 'c']), removed(100), removed(102)]);
    expect(state.keywords.map((k) => k.keywordId)).toEqual([id(101)]);
    expect(state.removedKeywordIds).toEqual([id(100), id(102)]);
  });
  it('says not found when the project does not exist', () => {
    spec
      .given([])
      .when(add(['a']))
      .thenThrows('not-found', 'Project not found');
  });
});

describe('Project content: notes', () => {
  const saved: ProjectContentEvent = {
    type: 'NoteSaved',
    data: { noteId: id(7), date: '2026-02-01', text: 'launch', color: 'warning', savedAt: at },
  };
  it('creates a note with its color, info by default', () => {
    spec
      .given([owner])
      .when({ type: 'SaveNote', noteId: id(7), date: '2026-02-01', text: 'launch', color: undefined })
      .then([{ type: 'NoteSaved', data: { noteId: id(7), date: '2026-02-01', text: 'launch', color: 'info', savedAt: at } }]);
  });
  it('updates the note of the same date with the color it is sent', () => {
    spec
      .given([owner, saved])
      .when({ type: 'SaveNote', noteId: id(8), date: '2026-02-01', text: 'relaunch', color: 'danger' })
      .then([{ type: 'NoteUpdated', data: { noteId: id(7), date: '2026-02-01', text: 'relaunch', color: 'danger', updatedAt: at } }]);
  });
  it('keeps the old color when an update sends none', () => {
    spec
      .given([owner, saved])
      .when({ type: 'SaveNote', noteId: id(8), date: '2026-02-01', text: 'relaunch', color: undefined })
      .then([{ type: 'NoteUpdated', data: { noteId: id(7), date: '2026-02-01', text: 'relaunch', color: 'warning', updatedAt: at } }]);
  });
  it('folds an update into the note, color included', () => {
    const updated: ProjectContentEvent = {
      type: 'NoteUpdated',
      data: { noteId: id(7), date: '2026-02-01', text: 'relaunch', color: 'danger', updatedAt: at },
    };
    const state = [owner, saved, updated].reduce(projectContentDecider.evolve, projectContentDecider.initialState());
    expect(state.notes).toEqual([{ noteId: id(7), date: '2026-02-01', text: 'relaunch', color: 'danger' }]);
  });
  it('deletes a note, and says not found for an unknown one', () => {
    const saved: ProjectContentEvent = {
      type: 'NoteSaved',
      data: { noteId: id(7), date: '2026-02-01', text: 'x', color: 'info', savedAt: at },
    };
    spec
      .given([owner, saved])
      .when({ type: 'DeleteNote', noteId: id(7) })
      .then([{ type: 'NoteDeleted', data: { noteId: id(7), deletedAt: at } }]);
    spec
      .given([owner])
      .when({ type: 'DeleteNote', noteId: id(7) })
      .thenThrows('not-found', 'Note not found');
  });
});
