import type { Egress } from './egress-pool';

/*
 * What the fetcher needs of a page loader, and nothing that loads Playwright: the service's thread
 * imports this, and Chromium runs in a worker thread (ChromiumPageLoader, browser/browser-thread.ts).
 */

export interface PageLoadRequest {
  url: string;
  egress: Egress;
  userAgent: string;
  /** BCP 47 locale the page's JavaScript sees (`Intl`, `navigator.language`), e.g. `de-AT`. */
  locale: string;
  /** Accept-Language list without q-values, e.g. `de-AT,de`. */
  acceptLanguage: string;
  /** IANA time zone the page's clock shows, e.g. `Europe/Vienna`; absent: the machine's own. */
  timeZone?: string;
}

export type PageLoadResult =
  /** The server answered and the document became readable; `status` may still be an error. */
  | { kind: 'loaded'; status: number; html: string; finalUrl: string }
  /**
   * Nothing readable within the navigation timeout. Worth retrying. `stalled`: the browser itself
   * did not answer (opening or closing a page, or well past the navigation's deadline), so it may hang.
   */
  | { kind: 'timeout'; detail: string; stalled?: boolean }
  /** Connection refused or reset, DNS, proxy failure, page crash… Worth retrying. */
  | { kind: 'load-error'; detail: string }
  /**
   * The browser is gone; retrying on it is pointless. `backAt` (epoch ms): none is launched before
   * then, since the last ones kept going away before loading a page (RelaunchingBrowser).
   */
  | { kind: 'browser-closed'; detail: string; backAt?: number };

/**
 * A cookie every new browser context starts with: the fields of Playwright's `addCookies` that we
 * use, declared here so that the service's thread never names Playwright (tsc checks that they fit).
 */
export interface ContextCookie {
  name: string;
  value: string;
  /** Either `url`, or `domain` and `path`. */
  url?: string;
  domain?: string;
  path?: string;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** Loads one URL and returns the document as the browser rendered it. */
export interface PageLoader {
  load(request: PageLoadRequest): Promise<PageLoadResult>;
  close(): Promise<void>;
}

/** `navigator.platform` consistent with the user agent; a mismatch is an easy bot signal. */
export function navigatorPlatform(userAgent: string): string {
  if (/Windows/.test(userAgent)) return 'Win32';
  if (/Macintosh|Mac OS X/.test(userAgent)) return 'MacIntel';
  if (/Android/.test(userAgent)) return 'Linux armv8l';
  return 'Linux x86_64';
}

/**
 * The user agent of this browser as a regular desktop Chrome: same major version (so it matches the
 * engine's real behaviour), reduced version format, no "HeadlessChrome" marker.
 */
export function desktopUserAgent(browserVersion: string, platform: NodeJS.Platform = process.platform): string {
  const major = browserVersion.split('.')[0];
  const system =
    platform === 'win32'
      ? 'Windows NT 10.0; Win64; x64'
      : platform === 'darwin'
        ? 'Macintosh; Intel Mac OS X 10_15_7'
        : 'X11; Linux x86_64';
  return `Mozilla/5.0 (${system}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}
