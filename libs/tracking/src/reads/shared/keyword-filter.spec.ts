import { keywordFilterOf, keywordFilterSql } from './keyword-filter';

describe('keyword filter: which ranking rows a read counts', () => {
  const current = ['k1', 'k2', 'k3'];

  it('needs no list while the project never removed a keyword', () => {
    expect(keywordFilterOf(current, [])).toEqual({ kind: 'all' });
    expect(keywordFilterSql({ kind: 'all' })).toEqual({ sql: '', params: {} });
  });

  it('leaves the removed keywords out when they are fewer than the current ones', () => {
    const filter = keywordFilterOf(current, ['gone']);
    expect(filter).toEqual({ kind: 'except', keywordIds: ['gone'] });
    expect(keywordFilterSql(filter)).toEqual({
      sql: 'AND keyword_id NOT IN {filterKeywordIds:Array(String)}',
      params: { filterKeywordIds: ['gone'] },
    });
  });

  it('lists the current keywords when the project removed as many or more', () => {
    const filter = keywordFilterOf(current, ['g1', 'g2', 'g3']);
    expect(filter).toEqual({ kind: 'only', keywordIds: current });
    expect(keywordFilterSql(filter)).toEqual({
      sql: 'AND keyword_id IN {filterKeywordIds:Array(String)}',
      params: { filterKeywordIds: current },
    });
  });
});
