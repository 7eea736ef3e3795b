import { compareSnapshots, movementOf, SerpItem } from './serp-movement';

const item = (position: number, domain: string): SerpItem => ({
  position,
  domain,
  url: `https://${domain}/${position}`,
  title: `T${position}`,
});

describe('position-history movement rules', () => {
  it('names the direction and the number of places moved', () => {
    expect(movementOf(3, 7)).toEqual({ type: 'up', value: 4 });
    expect(movementOf(9, 2)).toEqual({ type: 'down', value: 7 });
    expect(movementOf(5, 5)).toEqual({ type: 'same', value: 0 });
    expect(movementOf(5, null)).toEqual({ type: 'new', value: null });
  });

  it('matches a repeated domain occurrence by occurrence, and finds climbers from beyond the top 30', () => {
    const now = [item(1, 'a.com'), item(2, 'b.com'), item(3, 'b.com'), item(4, 'c.com'), item(5, 'b.com')];
    const before = [item(1, 'b.com'), item(2, 'a.com'), item(6, 'b.com'), item(42, 'c.com')];
    const { resultList } = compareSnapshots(now, before, 0);
    expect(resultList.map((r) => [r.domain, r.previousPosition, r.movement.type, r.movement.value])).toEqual([
      ['a.com', 2, 'up', 1],
      ['b.com', 1, 'down', 1],
      ['b.com', 6, 'up', 3],
      ['c.com', 42, 'up', 38],
      ['b.com', null, 'new', null],
    ]);
  });

  it('shows the top 30 plus our own deeper result, and drops previous top-30 domains absent now', () => {
    const now = Array.from({ length: 50 }, (_, i) => item(i + 1, i + 1 === 44 ? 'ours.com' : `d${i + 1}.com`));
    const before = [item(1, 'gone.com'), item(2, 'd1.com'), item(31, 'deep.com'), item(3, 'd44.com')];
    const { resultList, droppedDomains } = compareSnapshots(now, before, 44);
    expect(resultList).toHaveLength(31);
    expect(resultList[30]).toMatchObject({ position: 44, domain: 'ours.com', movement: { type: 'new', value: null } });
    // d44.com ranks 44 now, outside what is shown: it left the top 30. deep.com was never in it.
    expect(droppedDomains).toEqual([
      { domain: 'gone.com', previousPosition: 1, movement: { type: 'gone', value: null } },
      { domain: 'd44.com', previousPosition: 3, movement: { type: 'gone', value: null } },
    ]);
  });

  it('without a previous check, everything is new and nothing is dropped', () => {
    const { resultList, droppedDomains } = compareSnapshots([item(2, 'b.com'), item(1, 'a.com')], null, 1);
    expect(resultList.map((r) => [r.position, r.movement.type])).toEqual([
      [1, 'new'],
      [2, 'new'],
    ]);
    expect(droppedDomains).toEqual([]);
  });
});
