import { filterCompetitors } from './competitor-filter';

const traffic = (visits: Record<string, number>) => Object.entries(visits).map(([domain, totalVisits]) => ({ domain, totalVisits }));
const names = (list: { domain: string }[]) => list.map((c) => c.domain);

describe('filterCompetitors', () => {
  it('keeps every competitor when there are at most 6', () => {
    expect(names(filterCompetitors(traffic({ a: 1, b: 900, c: 50 }), 100))).toEqual(['b', 'c', 'a']);
  });

  it('keeps the 3 smallest above and the 3 largest below the main domain', () => {
    const list = traffic({ a1: 1000, a2: 500, a3: 300, a4: 200, b1: 90, b2: 80, b3: 10, b4: 5 });
    expect(names(filterCompetitors(list, 100))).toEqual(['a2', 'a3', 'a4', 'b1', 'b2', 'b3']);
  });

  it('takes more from the other side when one side has fewer than 3', () => {
    const oneAbove = traffic({ a1: 1000, b1: 90, b2: 80, b3: 70, b4: 60, b5: 50, b6: 40 });
    expect(names(filterCompetitors(oneAbove, 100))).toEqual(['a1', 'b1', 'b2', 'b3', 'b4', 'b5']);
    const noneBelow = traffic({ a1: 1000, a2: 900, a3: 800, a4: 700, a5: 600, a6: 500, a7: 400 });
    expect(names(filterCompetitors(noneBelow, 100))).toEqual(['a2', 'a3', 'a4', 'a5', 'a6', 'a7']);
  });

  it('counts a tie with the main domain as below, and keeps the 6 largest without a main figure', () => {
    const list = traffic({ a: 700, b: 600, c: 500, d: 400, e: 300, f: 100, g: 50 });
    // f ties (below), g below: two below, so four above.
    expect(names(filterCompetitors(list, 100))).toEqual(['b', 'c', 'd', 'e', 'f', 'g']);
    expect(names(filterCompetitors(list, null))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});
