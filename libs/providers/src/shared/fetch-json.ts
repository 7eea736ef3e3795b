import { parsedWithoutSecrets, withoutSecrets } from '@rank/domain/secret-text';
import { UpstreamError } from './upstream-error';

export interface JsonRequest {
  /** Provider name for errors and logs. */
  provider: string;
  method: 'GET' | 'POST';
  url: URL;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** The caller stopped waiting: the exchange is cut off at once, like one that timed out. */
  signal?: AbortSignal;
  /**
   * The request's secrets (its key, password, tokens): cut out of the answer before it is parsed, and
   * out of this exchange's errors, so that an answer quoting the request back puts none of them in
   * a failure reason, an event or a log.
   */
  secrets?: readonly (string | undefined)[];
  /** The largest answer read (MAX_ANSWER_BYTES). */
  maxBytes?: number;
}

/**
 * The largest answer read: far above any documented answer of our providers (a PageSpeed Insights
 * report is 1-2 MB, 1,000 DataForSEO keyword ideas a few MB), and small enough that a provider, or a
 * wrong base URL, sending without end cannot fill the service's memory.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface JsonResponse {
  status: number;
  /** The parsed body; `undefined` when the body was empty. */
  body: unknown;
}

/**
 * One HTTP exchange with a JSON API. Network failures, timeouts and bodies that are not JSON become
 * an `UpstreamError`; any status is handed back, since what a 404 means differs per provider.
 * The timeout covers the whole exchange, body included, so a server that trickles its answer is cut off.
 */
export async function fetchJson(request: JsonRequest): Promise<JsonResponse> {
  const secrets = request.secrets ?? [];
  const where = withoutSecrets(`${request.method} ${request.url.pathname}`, secrets);
  let response: Response;
  let text: string;
  const exchange = cutOffAfter(request.timeoutMs, request.signal);
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      signal: exchange.signal,
    });
    text = withoutSecrets(await textUpTo(response, request.maxBytes ?? MAX_ANSWER_BYTES), secrets);
  } catch (error) {
    if (error instanceof AnswerTooLarge)
      throw new UpstreamError(
        request.provider,
        'malformed',
        `${where} answered more than ${error.maxBytes} bytes; the answer was not read`,
      );
    if (request.signal?.aborted) throw new UpstreamError(request.provider, 'timeout', `${where} was cut off: the caller stopped waiting`);
    if (isTimeout(error)) throw new UpstreamError(request.provider, 'timeout', `${where} gave no answer within ${request.timeoutMs} ms`);
    throw new UpstreamError(request.provider, 'unreachable', `${where} failed: ${withoutSecrets(causeOf(error), secrets)}`);
  } finally {
    exchange.done();
  }
  if (text.trim() === '') return { status: response.status, body: undefined };
  try {
    // The text was cut already; a JSON escape of a secret (`\/`, `\u00e9`) is plain text only once parsed.
    return { status: response.status, body: parsedWithoutSecrets(text, secrets) };
  } catch {
    // A proxy's HTML error page is the usual culprit; its status says more than the body.
    if (response.status >= 400)
      throw new UpstreamError(request.provider, 'http', `${where} answered ${response.status} without JSON`, response.status);
    throw new UpstreamError(request.provider, 'malformed', `${where} answered ${response.status} with a body that is not JSON`);
  }
}

/**
 * A signal that aborts after `timeoutMs`, or when `caller` does. Not `AbortSignal.any([AbortSignal.timeout(ms),
 * caller])`: on Node 20 the timeout signal inside it is collected with its timer when a garbage
 * collection runs while the exchange waits, and the exchange then hung until undici's own 300 s
 * (Similarweb's 20 s, PageSpeed Insights' 60 s, DataForSEO's tries of 30 s: each about 5 minutes
 * in the idle audit). `done` clears the timer and the listener.
 */
function cutOffAfter(timeoutMs: number, caller: AbortSignal | undefined): { signal: AbortSignal; done: () => void } {
  const cut = new AbortController();
  const timer = setTimeout(() => cut.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  const callerGone = () => cut.abort(caller!.reason);
  if (caller?.aborted) callerGone();
  else caller?.addEventListener('abort', callerGone, { once: true });
  return {
    signal: cut.signal,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', callerGone);
    },
  };
}

class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

/** The body as UTF-8 text, read only up to `maxBytes`: past it the exchange is cut off. */
async function textUpTo(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  // As Response.text(): UTF-8, a byte-order mark dropped.
  return Buffer.concat(chunks, size)
    .toString('utf8')
    .replace(/^\ufeff/, '');
}

// By shape, not instanceof: fetch's errors come from Node's own realm, which is not the caller's under jest.
function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** undici wraps the socket error (`ECONNRESET`, `ECONNREFUSED`) in a generic "fetch failed". */
function causeOf(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return typeof message === 'string' ? message : String(error);
}

/** A short excerpt of an error body from the provider, for the error message (never the request). */
export function upstreamMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message.slice(0, 200);
  }
  return undefined;
}
