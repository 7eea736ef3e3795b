import { csvField, csvTextField } from '@rank/tracking/exports/csv';
import { mdText, mdUrl } from '@rank/tracking/exports/markdown';
import { changeOf, formatAverage } from '@rank/tracking/exports/ranking-figures';
import { positionSummaryOf } from '@rank/tracking/exports/summary-history';

describe('CSV fields', () => {
  it.each([
    ['plain', 'plain'],
    ['a;b', '"a;b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['', ''],
  ])('quotes %j only when it must', (value, encoded) => {
    expect(csvField(value)).toBe(encoded);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+x', "'+x"],
    ['-x', "'-x"],
    ['@x', "'@x"],
    ['=a;b', `"'=a;b"`],
    ['a=b', 'a=b'],
  ])('keeps free text %j from running as a formula', (value, encoded) => expect(csvTextField(value)).toBe(encoded));

  it.each([
    ['nul\u0000byte', 'nul byte'],
    ['bell\u0007\u007f\u0085', 'bell   '],
    ['\u0000=1', ' =1'],
    ['tab\tkept', 'tab\tkept'],
  ])('never writes a control character in free text %j', (value, encoded) => expect(csvTextField(value)).toBe(encoded));
});

describe('ranking figures', () => {
  const check = (position: number, previousPosition: number | null) => ({ position, previousPosition, url: '', day: '2026-01-01' });

  it('counts places gained as positive, and has no number for a missing or unranked side', () => {
    expect(changeOf(check(3, 7))).toBe(4);
    expect(changeOf(check(9, 2))).toBe(-7);
    expect(changeOf(check(4, 4))).toBe(0);
    expect(changeOf(check(3, null))).toBeNull();
    expect(changeOf(check(0, 5))).toBeNull();
    expect(changeOf(check(5, 0))).toBeNull();
    expect(changeOf(undefined)).toBeNull();
  });

  it('summarises ranked days only, counting the 0s apart', () => {
    // Days 4, 0, 2, 9: four checked, three ranked, summed to 15.
    expect(positionSummaryOf({ checkedDays: 4, rankedDays: 3, best: 2, worst: 9, positionSum: 15 })).toEqual({
      checkedDays: 4,
      notRankingDays: 1,
      best: 2,
      worst: 9,
      average: 5,
    });
    expect(positionSummaryOf({ checkedDays: 2, rankedDays: 0, best: null, worst: null, positionSum: 0 })).toEqual({
      checkedDays: 2,
      notRankingDays: 2,
      best: null,
      worst: null,
      average: null,
    });
    expect(positionSummaryOf(undefined)).toEqual({ checkedDays: 0, notRankingDays: 0, best: null, worst: null, average: null });
    expect([formatAverage(3.25), formatAverage(4), formatAverage(10 / 3)]).toEqual(['3.3', '4.0', '3.3']);
  });
});

describe('Markdown text', () => {
  it('escapes inline markup and table pipes, and flattens line breaks', () => {
    expect(mdText('a | b *c* _d_ [e](f) <g> `h`\nnext')).toBe('a \\| b \\*c\\* \\_d\\_ \\[e\\](f) \\<g\\> \\`h\\` next');
  });

  it('escapes & so that an entity reference a user typed shows as typed', () => {
    expect(mdText('r&amp;d &lt;b&gt; Smith & Co')).toBe('r\\&amp;d \\&lt;b\\&gt; Smith \\& Co');
  });

  it('makes autolinks of plain URLs only', () => {
    expect(mdUrl('https://shop.example/a_b?c=1')).toBe('<https://shop.example/a_b?c=1>');
    expect(mdUrl('https://shop.example/a|b')).toBe('https://shop.example/a\\|b');
    expect(mdUrl('')).toBe('–');
  });
});
