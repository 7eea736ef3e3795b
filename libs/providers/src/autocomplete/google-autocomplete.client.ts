import { TextDecoder } from 'node:util';
import { ProxyAgent, Socks5ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { EgressPool, type Egress } from '@rank/serp/fetcher/egress-pool';
import type { ProxyConfig } from '@rank/serp/fetcher/serp-fetcher-config';
import { asArray } from '../shared/json-shape';
import { withRetry } from '../shared/retry';
import { KeywordDataError } from '../keyword-data/keyword-data-error';
import type { AutocompleteProvider, AutocompleteQuery } from './autocomplete.port';

const PROVIDER = 'google-autocomplete';
export const AUTOCOMPLETE_PATH = '/complete/search';

export interface GoogleAutocompleteOptions {
  /** GOOGLE_BASE_URL: the origin the scraper reads Google from. */
  baseUrl: string;
  /** The scraper's SCRAPER_PROXIES, used in turn; none means the direct connection. */
  proxies: readonly ProxyConfig[];
  /** SCRAPER_BLOCK_REST_MS: how long a way out is left alone after Google refused it. */
  blockRestMs: number;
  /** Per try (default 5 s): suggestions are a nicety, never worth a long wait. */
  timeoutMs?: number;
  /** Tries in all, each through the next way out (default 2). */
  attempts?: number;
  userAgent?: string;
  now?: () => number;
}

const DEFAULT_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/**
 * Google's autocomplete as Firefox's search bar asks it: `GET /complete/search?client=firefox`,
 * answered with a JSON array whose second element lists the phrases. Plain HTTP, no browser,
 * through the scraper's proxies in turn (HTTP and SOCKS5; those in the asked country when some are
 * said to be, as for result pages) with the scraper's rule for blocks: a way out Google answered
 * 429 or 403 rests for SCRAPER_BLOCK_REST_MS. The rests are kept per
 * process: the api and the projector each keep their own.
 */
export class GoogleAutocomplete implements AutocompleteProvider {
  private readonly pool: EgressPool;
  private readonly dispatchers = new Map<string, Dispatcher>();
  private readonly timeoutMs: number;
  private readonly attempts: number;

  constructor(private readonly options: GoogleAutocompleteOptions) {
    this.pool = new EgressPool(options.proxies, options.blockRestMs, options.now ?? Date.now);
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.attempts = options.attempts ?? 2;
  }

  async complete(query: AutocompleteQuery): Promise<string[]> {
    const url = new URL(`${this.options.baseUrl}${AUTOCOMPLETE_PATH}`);
    url.search = new URLSearchParams({
      client: 'firefox',
      q: query.q,
      hl: query.hl.toLowerCase(),
      gl: query.gl.toUpperCase(),
      ie: 'utf-8',
      oe: 'utf-8',
    }).toString();
    return withRetry({ attempts: this.attempts, baseDelayMs: 100, timeoutMs: this.timeoutMs }, async (timeoutMs) => {
      const egress = this.pool.next(query.gl);
      if (!egress) throw new KeywordDataError(PROVIDER, 'unreachable', 'every way out to Google is resting after a block');
      return this.ask(url, egress, timeoutMs);
    });
  }

  /** Closes the proxy connections. */
  async close(): Promise<void> {
    await Promise.all([...this.dispatchers.values()].map((dispatcher) => dispatcher.close()));
    this.dispatchers.clear();
  }

  private async ask(url: URL, egress: Egress, timeoutMs: number): Promise<string[]> {
    let status: number;
    let contentType: string;
    let bytes: ArrayBuffer;
    try {
      const response = await undiciFetch(url, {
        headers: { accept: 'application/json, text/javascript, */*', 'user-agent': this.options.userAgent ?? DEFAULT_USER_AGENT },
        dispatcher: this.dispatcher(egress),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      contentType = response.headers.get('content-type') ?? '';
      bytes = await response.arrayBuffer();
    } catch (error) {
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new KeywordDataError(PROVIDER, 'timeout', `${AUTOCOMPLETE_PATH} via ${egress.label} gave no answer within ${timeoutMs} ms`);
      const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
      throw new KeywordDataError(
        PROVIDER,
        'unreachable',
        `${AUTOCOMPLETE_PATH} via ${egress.label} failed: ${typeof code === 'string' ? code : 'fetch failed'}`,
      );
    }
    if (status === 429 || status === 403) {
      // Google's "unusual traffic" answer: asking again from there only lengthens the block.
      this.pool.rest(egress);
      throw new KeywordDataError(PROVIDER, 'http', `${AUTOCOMPLETE_PATH} via ${egress.label} was refused (${status}); it rests`, 429);
    }
    if (status >= 400) throw new KeywordDataError(PROVIDER, 'http', `${AUTOCOMPLETE_PATH} via ${egress.label} answered ${status}`, status);
    return phrasesOf(decode(bytes, contentType));
  }

  private dispatcher(egress: Egress): Dispatcher | undefined {
    const proxy = egress.proxy;
    if (!proxy) return undefined;
    let dispatcher = this.dispatchers.get(egress.id);
    if (!dispatcher) {
      const credentials = proxy.username ? { username: proxy.username, password: proxy.password ?? '' } : undefined;
      dispatcher = proxy.server.startsWith('socks5:')
        ? new Socks5ProxyAgent(proxy.server, credentials ?? {})
        : new ProxyAgent({
            uri: proxy.server,
            // Plain-http targets (a local GOOGLE_BASE_URL) go as absolute-URI requests; https is tunnelled with CONNECT.
            proxyTunnel: false,
            ...(credentials ? { token: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` } : {}),
          });
      this.dispatchers.set(egress.id, dispatcher);
    }
    return dispatcher;
  }
}

/**
 * The answer's bytes as text in the charset its Content-Type names. Google may answer in a legacy
 * charset (ISO-8859-1, Shift_JIS, …) despite `oe=utf-8`; decoding those as UTF-8 would garble
 * every accented phrase.
 */
export function decode(bytes: ArrayBuffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new KeywordDataError(PROVIDER, 'malformed', `${AUTOCOMPLETE_PATH} answered in an unknown charset "${charset.slice(0, 40)}"`);
  }
  return decoder.decode(bytes);
}

/** `[query, [phrase, …], …]`: the phrases, trimmed, without empties and repeats. */
function phrasesOf(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new KeywordDataError(PROVIDER, 'malformed', `${AUTOCOMPLETE_PATH} answered a body that is not JSON`);
  }
  const phrases = asArray(asArray(body)?.[1]);
  if (!phrases || phrases.some((phrase) => typeof phrase !== 'string'))
    throw new KeywordDataError(PROVIDER, 'malformed', `${AUTOCOMPLETE_PATH} answered without a list of phrases as its second element`);
  return [...new Set((phrases as string[]).map((phrase) => phrase.trim()).filter((phrase) => phrase !== ''))];
}
