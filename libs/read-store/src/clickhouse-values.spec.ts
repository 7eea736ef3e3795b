import { toCompactInsert } from './clickhouse-values';

describe('toCompactInsert', () => {
  it("writes each row as an array in the first row's column order, whatever the key order of the others", () => {
    const at = new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 60));
    const compact = toCompactInsert([
      { id: 'a', at, n: 1n, tags: ['x'] },
      { n: 2, tags: [], at: 5, id: 'b"\n' },
    ]);
    expect(compact).toEqual({
      columns: ['id', 'at', 'n', 'tags'],
      body: '["a","1735787045.060","1",["x"]]\n["b\\"\\n",5,2,[]]',
    });
  });

  it('gives up (so the rows go as objects) when a row has a column the first has not, or lacks one', () => {
    expect(
      toCompactInsert([
        { a: 1, b: 2 },
        { a: 1, c: 2 },
      ]),
    ).toBeUndefined();
    expect(toCompactInsert([{ a: 1, b: 2 }, { a: 1 }])).toBeUndefined();
    expect(toCompactInsert([{ a: 1 }, { a: 1, b: 2 }])).toBeUndefined();
  });
});
