import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LighthousePageSpeedProvider } from './lighthouse-page-speed-provider';
import { SpeedTestSite } from './testing/speed-test-site';
import { UpstreamError } from '../shared/upstream-error';

// Real Lighthouse runs in the real Chromium against pages served on 127.0.0.1, under the name
// speed.example: the browser's proxy lets no loopback address through but a site a test maps.
jest.setTimeout(240_000);

describe('LighthousePageSpeedProvider (real Lighthouse, local pages)', () => {
  let site: SpeedTestSite;
  let lighthouse: LighthousePageSpeedProvider;
  /** A service of "our own network" on loopback, which no page may reach. */
  let inside: Server;
  const insideRequests: string[] = [];
  const page = (path: string) => `http://speed.example${path}`;

  beforeAll(async () => {
    site = await SpeedTestSite.start();
    inside = createServer((req, res) => {
      insideRequests.push(req.url ?? '');
      res.end('<html><body><h1>instance metadata</h1></body></html>');
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    lighthouse = new LighthousePageSpeedProvider({
      timeoutMs: 90_000,
      egress: {
        localSites: new Map([['speed.example', { host: '127.0.0.1', port: site.port }]]),
        resolve: (host) => Promise.resolve(host === 'metadata.example' ? ['169.254.169.254'] : []),
      },
    });
  });
  afterAll(async () => {
    inside.closeAllConnections();
    await Promise.all([site.close(), new Promise((resolve) => inside.close(resolve))]);
  });

  it('scores a deliberately slow page lower than a fast one, with lab data only', async () => {
    const fast = await lighthouse.measure(page('/fast'));
    const slow = await lighthouse.measure(page('/slow'));

    expect(fast.source).toBe('lighthouse');
    expect(fast.url).toBe(page('/fast'));
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

  it('is cut off at once when its signal aborts (the service stopping), and a run waiting its turn never starts', async () => {
    // Given a run on a page that never answers, and another waiting behind it
    const stop = new AbortController();
    const running = lighthouse.measure(page('/hang'), stop.signal).catch((error: unknown) => error);
    const waiting = lighthouse.measure(page('/hang'), stop.signal).catch((error: unknown) => error);
    while (site.hung === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    // When the signal aborts
    const abortedAt = Date.now();
    stop.abort();
    // then both end within moments as cut off, not as a failure of the page, and the second never loaded it
    for (const failure of await Promise.all([running, waiting])) {
      expect(failure).toBeInstanceOf(UpstreamError);
      expect(failure).toMatchObject({ provider: 'lighthouse', kind: 'timeout', message: expect.stringContaining('cut off') });
    }
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
    expect(site.hung).toBe(1);
  });

  it('fails with a typed error, not a record of zeros, when the page answers 500', async () => {
    const failure = await lighthouse.measure(page('/broken')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ provider: 'lighthouse', kind: 'page' });
  });

  it("never follows a page into the service's own network: a redirect to a loopback address is refused, unloaded", async () => {
    const insidePort = (inside.address() as AddressInfo).port;
    // Before, the browser followed the redirect and the metadata page was measured as the public site's.
    const failure = await lighthouse
      .measure(page(`/redirect?to=http://127.0.0.1:${insidePort}/latest/meta-data/`))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as Error).message).toMatch(/the page led to 127\.0\.0\.1, not on the public internet/);
    // A public-looking name that resolves to a private address is refused the same way.
    const named = await lighthouse.measure(page('/redirect?to=http://metadata.example/')).catch((e: unknown) => e);
    expect((named as Error).message).toMatch(/the page led to metadata\.example, not on the public internet/);
    expect(insideRequests).toEqual([]);
  });

  it("sends no WebRTC UDP, which would go around the proxy, to the service's own network", async () => {
    const stun = createSocket('udp4');
    let packets = 0;
    stun.on('message', () => packets++);
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
    try {
      const record = await lighthouse.measure(page(`/webrtc?to=127.0.0.1:${stun.address().port}`));
      expect(record.performanceScore).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Before, Chromium sent STUN binding requests to it (6 in one run here).
      expect(packets).toBe(0);
    } finally {
      stun.close();
    }
  });

  it('says no browser could start, with the fix, when CHROMIUM_PATH is not a browser', async () => {
    const broken = new LighthousePageSpeedProvider({ env: { CHROMIUM_PATH: '/bin/false' }, timeoutMs: 20_000 });
    const failure = await broken.measure(page('/fast')).catch((error: unknown) => error);
    expect(failure).toMatchObject({ provider: 'lighthouse', kind: 'unreachable' });
    expect((failure as Error).message).toMatch(/CHROMIUM_PATH/);
  });
});
