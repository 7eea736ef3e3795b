import { processSpec } from '@rank/domain/testing/process-spec';
import type { ProjectContentEvent } from '@rank/projects/domain/project-content.events';
import { marketKeywordKey } from './domain/volume.events';
import {
  keywordsWanted,
  KnownVolumes,
  retryAfterFailure,
  VOLUME_BATCH_SIZE,
  volumeFetchesFor,
  VolumeFetch,
  waitBeforeCall,
} from './volumes.process';
import type { MarketKeyword } from './volumes.reader';

const now = new Date('2026-03-15T12:00:00.000Z');
const nothingKnown: KnownVolumes = { fetchedAt: new Map(), now };
const us = (keyword: string): MarketKeyword => ({ geoCode: 'US', langCode: 'en', keyword });
const de = (keyword: string): MarketKeyword => ({ geoCode: 'DE', langCode: 'de', keyword });

describe('volumes process', () => {
  const fetches = processSpec<readonly MarketKeyword[], VolumeFetch[], KnownVolumes>(volumeFetchesFor);

  it('fetches new keywords in one batch per market', () => {
    fetches
      .given(nothingKnown)
      .when([us('running shoes'), de('laufschuhe'), us('trail shoes')])
      .then([
        { geoCode: 'US', langCode: 'en', keywords: ['running shoes', 'trail shoes'] },
        { geoCode: 'DE', langCode: 'de', keywords: ['laufschuhe'] },
      ]);
  });

  it('asks once for a text wanted twice in a market (volumes are shared by every project)', () => {
    fetches
      .given(nothingKnown)
      .when([us('running shoes'), us('Running  Shoes')])
      .then([{ geoCode: 'US', langCode: 'en', keywords: ['running shoes'] }]);
  });

  it('skips keywords fetched within the month and refetches older ones', () => {
    const known: KnownVolumes = {
      now,
      fetchedAt: new Map([
        [marketKeywordKey(us('fresh'), 'fresh'), '2026-03-01T00:00:00.000Z'],
        [marketKeywordKey(us('stale'), 'stale'), '2026-02-01T00:00:00.000Z'],
      ]),
    };
    fetches
      .given(known)
      .when([us('fresh'), us('stale'), us('new')])
      .then([{ geoCode: 'US', langCode: 'en', keywords: ['stale', 'new'] }]);
  });

  it('asks for nothing when every keyword is fresh', () => {
    const known: KnownVolumes = { now, fetchedAt: new Map([[marketKeywordKey(us('a'), 'a'), '2026-03-14T00:00:00.000Z']]) };
    fetches
      .given(known)
      .when([us('a')])
      .then([]);
  });

  it('cuts a large market into provider calls of at most 1,000 keywords', () => {
    const wanted = Array.from({ length: 3_500 }, (_, i) => us(`keyword ${i}`));
    const batches = fetches.given(nothingKnown).when(wanted).outcome();
    expect(batches.map((b) => b.keywords.length)).toEqual([VOLUME_BATCH_SIZE, VOLUME_BATCH_SIZE, VOLUME_BATCH_SIZE, 500]);
    expect(new Set(batches.flatMap((b) => b.keywords)).size).toBe(3_500);
  });

  describe('the keywords an event brings into view', () => {
    const wanted = processSpec<ProjectContentEvent, MarketKeyword[]>(keywordsWanted);

    it('are the added keywords with their market', () => {
      wanted
        .when({
          type: 'KeywordsAdded',
          data: {
            addedAt: '2026-03-15T12:00:00.000Z',
            keywords: [{ keywordId: 'k1', value: 'running shoes', geoCode: 'US', langCode: 'en' }],
          },
        })
        .then([us('running shoes')]);
    });

    it('are none for another event of the project', () => {
      wanted.when({ type: 'KeywordsRemoved', data: { keywordIds: ['k1'], removedAt: '2026-03-15T12:00:00.000Z' } }).then([]);
    });
  });

  describe('retries', () => {
    const retry = processSpec<number, number | null>((attempt) => retryAfterFailure(attempt));

    it('back off after each failure', () => {
      retry.when(1).then(5_000);
      retry.when(2).then(30_000);
      retry.when(4).then(600_000);
    });

    it('give up after the last delay', () => {
      retry.when(5).then(null);
    });
  });

  describe('pacing of background calls', () => {
    const wait = processSpec<{ callTimes: number[]; now: number }, number>(({ callTimes, now }) => waitBeforeCall(callTimes, now, 6));

    it('calls at once while the last minute holds fewer than 6 calls', () => {
      wait.when({ callTimes: [], now: 100_000 }).then(0);
      wait.when({ callTimes: [41_000, 50_000, 60_000, 70_000, 90_000], now: 100_000 }).then(0);
      // Calls older than a minute do not count.
      wait.when({ callTimes: [10_000, 20_000, 50_000, 60_000, 70_000, 80_000, 90_000], now: 100_000 }).then(0);
    });

    it('waits until the oldest of the last 6 calls is a minute old', () => {
      wait.when({ callTimes: [45_000, 50_000, 60_000, 70_000, 80_000, 90_000], now: 100_000 }).then(5_000);
    });
  });
});
