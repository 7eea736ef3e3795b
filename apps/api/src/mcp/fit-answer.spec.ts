import { fitJson, fitText } from './fit-answer';

describe('fitting an answer to an agent', () => {
  const yearOfUpdates = {
    success: true,
    data: Object.fromEntries(
      Array.from({ length: 200 }, (_, k) => [
        `kw${k}`,
        { keyword: { value: `keyword ${k}` }, updates: Array.from({ length: 365 }, (_, d) => ({ day: d, position: 1 + ((k + d) % 90) })) },
      ]),
    ),
  };

  it('leaves an answer under the limit as it is', () => {
    const small = { success: true, data: { a: { updates: [1, 2, 3] } } };
    expect(fitJson(small, 1_000)).toEqual({ value: small, cuts: [] });
  });

  it('cuts the largest collections, keeping their first entries, until the answer fits, and says what it cut', () => {
    const { value, cuts } = fitJson(yearOfUpdates, 50_000);
    const fitted = value as typeof yearOfUpdates;
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(50_000);
    expect(fitted.success).toBe(true);
    expect(Object.keys(fitted.data)[0]).toBe('kw0');
    expect(cuts[0]).toEqual({ path: 'data', kept: Object.keys(fitted.data).length, total: 200 });
    // The input is not changed.
    expect(Object.keys(yearOfUpdates.data)).toHaveLength(200);
  });

  it('keeps as many first entries as fit, however far over the limit the answer is', () => {
    // A month of a 3,500-keyword project: about 50 times the limit.
    const month = {
      success: true,
      data: Object.fromEntries(
        Array.from({ length: 3_500 }, (_, k) => [
          `kw${k}`,
          { keyword: { value: `keyword ${k}` }, updates: Array.from({ length: 30 }, (_, d) => ({ day: d, position: 1 + ((k + d) % 90) })) },
        ]),
      ),
    };
    const { value, cuts } = fitJson(month, 58_000);
    const kept = Object.keys((value as typeof month).data).length;
    const size = JSON.stringify(value).length;
    expect(size).toBeLessThanOrEqual(58_000);
    // One more keyword would not have fitted.
    const next = JSON.stringify({ [`kw${kept}`]: month.data[`kw${kept}`] }).length - 2;
    expect(size + 1 + next).toBeGreaterThan(58_000);
    expect(cuts).toEqual([{ path: 'data', kept, total: 3_500 }]);
  });

  it('navigates keys that contain dots (domains, URLs)', () => {
    const byDomain = { data: { 'a.example.com': Array.from({ length: 1000 }, (_, i) => i), 'b.example.com': [1] } };
    const { value, cuts } = fitJson(byDomain, 500);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(500);
    expect(cuts[0]!.path).toBe('data.a.example.com');
    expect((value as typeof byDomain).data['b.example.com']).toEqual([1]);
  });

  it('cuts text at a line end', () => {
    const csv = Array.from({ length: 1000 }, (_, i) => `keyword ${i};${i}`).join('\n');
    const { text, cut } = fitText(csv, 100);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text.endsWith('\n')).toBe(true);
    expect(fitText('short', 100)).toEqual({ text: 'short', cut: false });
  });
});
