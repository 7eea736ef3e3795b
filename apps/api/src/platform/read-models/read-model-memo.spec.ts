import type { EventStore } from '@rank/event-store/event-store.port';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { ReadModelMemo } from './read-model-memo';

/** Stores where nothing is ever projected: every value read holds for good. */
const stillLog = { lastPosition: async () => 0, readAll: async () => [] } as unknown as EventStore;
const stillReadModels = { query: async () => [{ position: '0' }] } as unknown as ReadStore;

describe('ReadModelMemo', () => {
  it('keeps values that weigh nothing by their own estimate within its bound too', async () => {
    // Before: an empty map counted 0 bytes, so a memo of every project ever read was never cut.
    const memo = new ReadModelMemo<Map<string, number>>(stillLog, stillReadModels, {
      tables: ['keyword_volumes'],
      bytesOf: (map) => map.size * 64,
      maxBytes: 64 * 1024,
    });
    for (let i = 0; i < 2_000; i++) await memo.get(`project-${i}`, {}, async () => new Map());
    expect(memo.size).toBeGreaterThan(0);
    expect(memo.size).toBeLessThanOrEqual(256);
  });

  it('counts what a value was read for, which it keeps, in its bound', async () => {
    const keywords = Array.from({ length: 100 }, (_, i) => ({ keywordId: `k${i}` }));
    const memo = new ReadModelMemo<Map<string, number>, typeof keywords>(stillLog, stillReadModels, {
      tables: ['keyword_volumes'],
      bytesOf: (map, inputs) => map.size * 64 + inputs.length * 200,
      maxBytes: 100 * 1024,
    });
    for (let i = 0; i < 50; i++) await memo.get(`project-${i}`, keywords, async () => new Map());
    // 100 keywords at 200 bytes, and the entry's own 256: five fit in 100 KiB.
    expect(memo.size).toBe(5);
  });

  it('hands out the same value while it holds', async () => {
    const memo = new ReadModelMemo<object>(stillLog, stillReadModels, { tables: ['t'], bytesOf: () => 0, maxBytes: 1024 });
    const inputs = {};
    let reads = 0;
    const read = async () => ({ read: ++reads });
    const first = await memo.get('k', inputs, read);
    expect(await memo.get('k', inputs, read)).toBe(first);
    expect(reads).toBe(1);
  });
});
