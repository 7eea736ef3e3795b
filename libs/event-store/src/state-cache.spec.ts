import { estimatedEventBytes, StateCache } from './state-cache';

describe('StateCache', () => {
  it('keeps states within its byte budget, dropping the least recently used first', () => {
    const cache = new StateCache(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.get('a')?.value).toBe('A'); // a is now the most recently used
    cache.set('c', 'C', 40);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.value).toBe('A');
    expect(cache.get('c')?.value).toBe('C');
    expect(cache.bytes).toBe(80);
  });

  it('replaces an entry and its size, forgets a deleted one, and never keeps one larger than the budget', () => {
    const cache = new StateCache(100);
    cache.set('a', 'A', 30);
    cache.set('a', 'A2', 60);
    expect(cache.bytes).toBe(60);
    cache.set('huge', 'H', 101);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')?.value).toBe('A2');
    cache.delete('a');
    expect(cache.bytes).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('estimates a project of 3,500 keywords at about a megabyte, an account at under a kilobyte', () => {
    const keywords = Array.from({ length: 3_500 }, (_, i) => ({
      keywordId: `${i}`.padStart(24, '0'),
      value: `keyword number ${i}`,
      geoCode: 'US',
      langCode: 'en',
    }));
    const project = estimatedEventBytes({ keywords, addedAt: '2026-01-01T00:00:00.000Z' });
    expect(project).toBeGreaterThan(500_000);
    expect(project).toBeLessThan(2_000_000);
    expect(estimatedEventBytes({ accountId: '0'.repeat(24), name: 'Agency', plan: 'pro' })).toBeLessThan(1_000);
  });
});
