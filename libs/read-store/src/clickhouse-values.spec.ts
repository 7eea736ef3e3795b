import { toColumnarInsert } from './clickhouse-values';

describe('toColumnarInsert', () => {
  it("writes one array per column in the first row's column order, whatever the key order of the other rows", () => {
    const at = new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 60));
    const columnar = toColumnarInsert([
      { id: 'a', at, n: 1n, tags: ['x'] },
      { n: 2, tags: [], at: 5, id: 'b"\n' },
      { id: 'c', at: null, n: 3, tags: [at] },
    ]);
    expect(columnar).toEqual({
      columns: ['id', 'at', 'n', 'tags'],
      body: '[["a","b\\"\\n","c"],["1735787045.060",5,null],["1",2,3],[["x"],[],["1735787045.060"]]]',
    });
  });

  it('gives up (so the rows go as objects) when a row has a column the first has not, or lacks one', () => {
    expect(
      toColumnarInsert([
        { a: 1, b: 2 },
        { a: 1, c: 2 },
      ]),
    ).toBeUndefined();
    expect(toColumnarInsert([{ a: 1, b: 2 }, { a: 1 }])).toBeUndefined();
    expect(toColumnarInsert([{ a: 1 }, { a: 1, b: 2 }])).toBeUndefined();
    expect(
      toColumnarInsert([
        { a: 1, b: 2 },
        { b: 2, c: 1 },
      ]),
    ).toBeUndefined();
  });
});
