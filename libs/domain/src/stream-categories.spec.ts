import { parseStreamName, STREAM_CATEGORIES, streamCategoryOf, streamIdIn } from './stream-categories';

describe('stream categories', () => {
  it('names streams as they have always been stored', () => {
    expect(STREAM_CATEGORIES.account('a1')).toBe('account-a1');
    expect(STREAM_CATEGORIES.workspace('a1')).toBe('workspace-a1');
    expect(STREAM_CATEGORIES.project('p1')).toBe('project-p1');
    expect(STREAM_CATEGORIES.schedule('p1')).toBe('schedule-p1');
    expect(STREAM_CATEGORIES.tokens('a1', '2026-05')).toBe('tokens-a1-2026-05');
    expect(STREAM_CATEGORIES['check-work']('o1')).toBe('check-work-o1');
    expect(STREAM_CATEGORIES.checks('p1', 'k1')).toBe('checks-p1-k1');
    expect(STREAM_CATEGORIES['check-dispatcher-checkpoint']()).toBe('check-dispatcher-checkpoint');
  });

  it('reads every name it builds back to its category', () => {
    expect(parseStreamName('check-work-o1')).toEqual({ category: 'check-work', id: 'o1' });
    expect(parseStreamName('checks-p1-k1')).toEqual({ category: 'checks', id: 'p1-k1' });
    expect(parseStreamName('tokens-a1-2026-05')).toEqual({ category: 'tokens', id: 'a1-2026-05' });
    expect(parseStreamName('check-dispatcher-checkpoint')).toEqual({ category: 'check-dispatcher-checkpoint', id: '' });
    expect(streamCategoryOf('workspace-a1')).toBe('workspace');
  });

  it('knows no category for streams it does not name', () => {
    expect(parseStreamName('$$account-a1')).toBeUndefined();
    expect(parseStreamName('projection-x')).toBeUndefined();
    expect(parseStreamName('account')).toBeUndefined();
  });

  it("gives a stream's id only for the category asked", () => {
    expect(streamIdIn('account', 'account-a1')).toBe('a1');
    expect(streamIdIn('account', 'workspace-a1')).toBeUndefined();
  });
});
