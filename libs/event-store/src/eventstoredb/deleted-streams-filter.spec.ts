import { DeletedStreamsFilter } from './deleted-streams-filter';

describe('DeletedStreamsFilter', () => {
  function filterOver(truncateBefore: Record<string, number>): { filter: DeletedStreamsFilter; lookups: string[] } {
    const lookups: string[] = [];
    const filter = new DeletedStreamsFilter(async (streamName) => {
      lookups.push(streamName);
      return truncateBefore[streamName] ?? 0;
    });
    return { filter, lookups };
  }

  it('shows every event of a stream that was never deleted', async () => {
    const { filter } = filterOver({});

    expect(await filter.isVisible('project-1', 0)).toBe(true);
    expect(await filter.isVisible('project-1', 7)).toBe(true);
  });

  it('hides all events of a deleted stream and, once re-created, only those before the new start', async () => {
    const truncateBefore: Record<string, number> = { 'project-1': Number.MAX_SAFE_INTEGER };
    const { filter } = filterOver(truncateBefore);

    expect(await filter.isVisible('project-1', 2)).toBe(false);
    truncateBefore['project-1'] = 3;
    filter.forget('project-1');

    expect(await filter.isVisible('project-1', 2)).toBe(false);
    expect(await filter.isVisible('project-1', 3)).toBe(true);
  });

  it('asks the server once per stream until told the metadata changed', async () => {
    const { filter, lookups } = filterOver({});

    await filter.isVisible('a', 0);
    await filter.isVisible('a', 1);
    await filter.isVisible('b', 0);
    filter.forget('a');
    await filter.isVisible('a', 2);

    expect(lookups).toEqual(['a', 'b', 'a']);
  });
});
