/**
 * Lighthouse's time per page on this machine: the local page-speed provider (browser start,
 * mobile run with simulated throttling, browser close) against three pages served on 127.0.0.1,
 * light to heavy. Bounded: three runs, one at a time, as the provider runs them.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { LighthousePageSpeedProvider } from '@rank/providers/pagespeed/lighthouse-page-speed-provider';

/** Milliseconds of busy main thread each page's inline script burns before the first paint. */
const PAGES = { light: 0, medium: 300, heavy: 1_500 } as const;

export async function run(): Promise<void> {
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1) as keyof typeof PAGES;
    const busyMs = PAGES[name];
    if (busyMs === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} page</title><meta name="description" content="A ${name} page for the Lighthouse bench">
<script>var until = Date.now() + ${busyMs}, x = 0; while (Date.now() < until) x += Math.sqrt(x + 1);</script></head>
<body><h1>${name} page</h1><p>${'Text to paint. '.repeat(60)}</p></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Under a name the browser's public-web proxy maps to the local server: it lets no loopback address through.
  const origin = 'http://bench.example';
  const lighthouse = new LighthousePageSpeedProvider({
    timeoutMs: 120_000,
    egress: { localSites: new Map([['bench.example', { host: '127.0.0.1', port: (server.address() as AddressInfo).port }]]) },
  });
  const times: number[] = [];
  try {
    for (const name of Object.keys(PAGES)) {
      const started = performance.now();
      const record = await lighthouse.measure(`${origin}/${name}`);
      const seconds = (performance.now() - started) / 1000;
      times.push(seconds);
      console.log(
        `${name.padEnd(6)}  ${seconds.toFixed(1)} s  performance ${record.performanceScore}  FCP ${record.firstContentfulPaint} ms  LCP ${record.largestContentfulPaint} ms  TBT ${record.totalBlockingTime} ms`,
      );
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const mean = times.reduce((sum, s) => sum + s, 0) / times.length;
  console.log(`lighthouse: ${mean.toFixed(1)} s per page on average (${times.length} pages, browser start and close included)`);
}
