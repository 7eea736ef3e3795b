import { LighthousePageSpeedProvider } from './lighthouse-page-speed-provider';
import { SpeedTestSite } from './testing/speed-test-site';
import { UpstreamError } from '../shared/upstream-error';

// Real Lighthouse runs in the real Chromium against pages served on 127.0.0.1.
jest.setTimeout(240_000);

describe('LighthousePageSpeedProvider (real Lighthouse, local pages)', () => {
  let site: SpeedTestSite;
  const lighthouse = new LighthousePageSpeedProvider({ timeoutMs: 90_000 });

  beforeAll(async () => {
    site = await SpeedTestSite.start();
  });
  afterAll(() => site.close());

  it('scores a deliberately slow page lower than a fast one, with lab data only', async () => {
    const fast = await lighthouse.measure(site.url('/fast'));
    const slow = await lighthouse.measure(site.url('/slow'));

    expect(fast.source).toBe('lighthouse');
    expect(fast.url).toBe(site.url('/fast'));
    expect(fast.cruxFieldData).toBeNull();
    expect(fast.cruxScore).toBeNull();
    for (const record of [fast, slow]) {
      for (const score of [record.performanceScore, record.accessibilityScore, record.bestPracticesScore, record.seoScore]) {
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
      }
      expect(record.largestContentfulPaint).toBeGreaterThan(0);
      expect(record.firstContentfulPaint).toBeGreaterThan(0);
      expect(record.totalBlockingTime).toBeGreaterThanOrEqual(0);
      expect(record.cumulativeLayoutShift).toBeGreaterThanOrEqual(0);
    }
    // The slow page blocks rendering: its first paint comes later and it scores lower. (Total blocking
    // time is not compared: the page's main-thread work runs mostly before the first paint, which TBT
    // does not count, and on a loaded machine the fast page's TBT varies as much — 42 ms each, once.)
    expect(slow.performanceScore!).toBeLessThan(fast.performanceScore!);
    expect(slow.firstContentfulPaint!).toBeGreaterThan(fast.firstContentfulPaint!);
  });

  it('fails with a typed error, not a record of zeros, when the page answers 500', async () => {
    const failure = await lighthouse.measure(site.url('/broken')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ provider: 'lighthouse', kind: 'page' });
  });

  it('says no browser could start, with the fix, when CHROMIUM_PATH is not a browser', async () => {
    const broken = new LighthousePageSpeedProvider({ env: { CHROMIUM_PATH: '/bin/false' }, timeoutMs: 20_000 });
    const failure = await broken.measure(site.url('/fast')).catch((error: unknown) => error);
    expect(failure).toMatchObject({ provider: 'lighthouse', kind: 'unreachable' });
    expect((failure as Error).message).toMatch(/CHROMIUM_PATH/);
  });
});
