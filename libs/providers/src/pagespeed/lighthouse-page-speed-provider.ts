import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { BrowserThread } from '@rank/serp/browser/browser-thread';
import type { ChromiumChoice } from '@rank/serp/browser/chromium';
import { UpstreamError } from '../shared/upstream-error';
import { LIGHTHOUSE_CATEGORIES, labDataFromLighthouseResult } from './lab-data';
import { LIGHTHOUSE_RUNNER_SOURCE } from './lighthouse-runner-source';
import type { PageSpeedMeasurement, PageSpeedProvider } from './page-speed-provider';
import { PublicWebProxy, type PublicWebProxyOptions } from './public-web-proxy';

export const LIGHTHOUSE_PROVIDER = 'lighthouse';

const LAB_AUDITS = ['largest-contentful-paint', 'first-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift'];

export interface LighthouseOptions {
  /** The browser the scraper chose at start; chosen from `env` now when absent. */
  chromium?: ChromiumChoice;
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra Chromium switches (tests pin host resolution with them). */
  extraChromiumArgs?: readonly string[];
  /** A whole run: browser start, page load, audits. 90 s by default. */
  timeoutMs?: number;
  /** How the browser's only way out, the public-web proxy, finds hosts (tests map names to local sites). */
  egress?: PublicWebProxyOptions;
}

/**
 * Page speed without any account: Lighthouse 12 in the scraper's Chromium, mobile form factor with
 * simulated throttling, as PageSpeed Insights runs it. Lab data only (no CrUX field data).
 * Runs go one at a time: two at once on a small machine would slow each other and skew the scores.
 */
export class LighthousePageSpeedProvider implements PageSpeedProvider {
  readonly source = 'lighthouse' as const;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: LighthouseOptions = {}) {}

  measure(url: string, signal?: AbortSignal): Promise<PageSpeedMeasurement> {
    const run = this.queue.then(() => {
      if (signal?.aborted) throw cutOff();
      return this.measureNow(url, signal);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async measureNow(url: string, signal: AbortSignal | undefined): Promise<PageSpeedMeasurement> {
    const timeoutMs = this.options.timeoutMs ?? 90_000;
    const deadline = Date.now() + timeoutMs;
    const [port, proxy] = await Promise.all([freePort(), PublicWebProxy.start(this.options.egress)]);
    try {
      let browser;
      try {
        // In a thread of its own, as the scraper's: Playwright in the service's thread slows every request.
        browser = await BrowserThread.launch({
          choice: this.options.chromium,
          env: this.options.env,
          extraArgs: [
            // Lighthouse drives the browser over the DevTools port, beside Playwright's pipe.
            `--remote-debugging-port=${port}`,
            '--remote-debugging-address=127.0.0.1',
            // Every request of the page, loopback included, goes through the proxy that lets only public addresses through.
            `--proxy-server=${proxy.address}`,
            '--proxy-bypass-list=<-loopback>',
            // WebRTC's UDP would go around the proxy (STUN to any address); without a UDP-capable proxy it is off.
            '--webrtc-ip-handling-policy=disable_non_proxied_udp',
            ...(this.options.extraChromiumArgs ?? []),
          ],
          launchTimeoutMs: Math.min(30_000, timeoutMs),
        });
      } catch (error) {
        throw new UpstreamError(LIGHTHOUSE_PROVIDER, 'unreachable', error instanceof Error ? error.message : String(error));
      }
      try {
        if (signal?.aborted) throw cutOff();
        const lhr = await runLighthouse({ url, port, timeoutMs: Math.max(1_000, deadline - Date.now()), signal });
        return {
          url,
          source: 'lighthouse',
          ...labDataFromLighthouseResult(LIGHTHOUSE_PROVIDER, lhr),
          cruxFieldData: null,
          cruxScore: null,
        };
      } catch (error) {
        if (!(error instanceof UpstreamError) || proxy.refused.length === 0) throw error;
        const hosts = [...new Set(proxy.refused)].slice(0, 3).join(', ');
        const reason = error.message.replace(`${LIGHTHOUSE_PROVIDER}: `, '');
        throw new UpstreamError(LIGHTHOUSE_PROVIDER, error.kind, `${reason}; the page led to ${hosts}, not on the public internet`);
      } finally {
        await browser.close().catch(() => undefined);
      }
    } finally {
      await proxy.close();
    }
  }
}

interface RunInput {
  url: string;
  port: number;
  timeoutMs: number;
  /** Aborts the run (the service stopping): the Lighthouse process is killed. */
  signal: AbortSignal | undefined;
}

const cutOff = () => new UpstreamError(LIGHTHOUSE_PROVIDER, 'timeout', 'the run was cut off: the service is stopping');

/** Runs the Lighthouse child process against the browser on `port`; answers the result it printed. */
function runLighthouse({ url, port, timeoutMs, signal }: RunInput): Promise<unknown> {
  const input = {
    lighthousePath: require.resolve('lighthouse'),
    url,
    port,
    categories: LIGHTHOUSE_CATEGORIES,
    audits: LAB_AUDITS,
    // Lighthouse's own page-load limit, inside ours, so that a slow page ends as its error, not a kill.
    maxWaitForLoadMs: Math.max(1_000, Math.min(45_000, timeoutMs - 15_000)),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', LIGHTHOUSE_RUNNER_SOURCE, JSON.stringify(input)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    // Only the tail is kept: it holds the error when Lighthouse throws.
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2_000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new UpstreamError(LIGHTHOUSE_PROVIDER, 'timeout', `the run took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    const abort = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(cutOff());
    };
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new UpstreamError(LIGHTHOUSE_PROVIDER, 'unreachable', `could not start the Lighthouse process: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && line !== '') {
        try {
          resolve(JSON.parse(line));
          return;
        } catch {
          // Falls through to the error below.
        }
      }
      const reason = lighthouseErrorOf(stderr);
      reject(new UpstreamError(LIGHTHOUSE_PROVIDER, 'page', `Lighthouse failed (exit ${code})${reason ? `: ${reason}` : ''}`));
    });
  });
}

/** The last meaningful line Lighthouse printed before failing (its LighthouseError code is in it). */
function lighthouseErrorOf(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('at '));
  return (lines.find((line) => /Error/.test(line)) ?? lines.pop() ?? '').slice(0, 300);
}

/** A port free on 127.0.0.1 right now, for Chromium's DevTools server. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
