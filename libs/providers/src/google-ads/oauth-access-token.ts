import { parsedWithoutSecrets, withoutSecrets } from '@rank/domain/secret-text';
import { asNumber, asObject } from '../shared/json-shape';
import { KeywordDataError } from '../keyword-data/keyword-data-error';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Google's token endpoint (GOOGLE_OAUTH_TOKEN_URL). */
  tokenUrl: string;
  timeoutMs: number;
}

/** Renew this long before the token's stated expiry, so a call never starts with a token about to lapse. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * Access tokens from a refresh token (OAuth 2.0 `grant_type=refresh_token`, form-encoded POST to
 * the token endpoint, answer `{access_token, expires_in, token_type}`), kept until shortly before
 * they expire; callers asking at once share one exchange.
 */
export class OAuthAccessToken {
  private cached: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly client: OAuthClient,
    private readonly provider: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `signal`: the caller stopped waiting. It stops waiting for the exchange at once, but the exchange
   * itself goes on (bounded by its own timeout): other callers may share it, and its token is kept.
   */
  async get(signal?: AbortSignal): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.token;
    this.pending ??= this.exchange().finally(() => (this.pending = undefined));
    return signal ? untilAborted(this.pending, signal, this.provider) : this.pending;
  }

  /** The API refused the token (revoked, expired early): the next call gets a fresh one. */
  forget(): void {
    this.cached = undefined;
  }

  private async exchange(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: this.client.clientId,
      client_secret: this.client.clientSecret,
      refresh_token: this.client.refreshToken,
    });
    let status: number;
    let text: string;
    try {
      const response = await fetch(this.client.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(this.client.timeoutMs),
      });
      status = response.status;
      // Its answer goes into error messages: an echo of the request must not carry the credentials.
      text = withoutSecrets(await response.text(), [this.client.clientSecret, this.client.refreshToken]);
    } catch (error) {
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new KeywordDataError(this.provider, 'timeout', `the OAuth token endpoint gave no answer within ${this.client.timeoutMs} ms`);
      const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
      throw new KeywordDataError(
        this.provider,
        'unreachable',
        `the OAuth token endpoint failed: ${typeof code === 'string' ? code : 'fetch failed'}`,
      );
    }
    let body: Record<string, unknown> | undefined;
    try {
      body = asObject(parsedWithoutSecrets(text, [this.client.clientSecret, this.client.refreshToken]));
    } catch {
      body = undefined;
    }
    if (status >= 400) {
      // `invalid_grant` means the refresh token was revoked or expired: a person has to issue a new one.
      const reason = typeof body?.error === 'string' ? body.error : 'no error code';
      throw new KeywordDataError(this.provider, 'http', `the OAuth token endpoint answered ${status} (${reason})`, status);
    }
    const token = body?.access_token;
    const expiresIn = asNumber(body?.expires_in);
    if (typeof token !== 'string' || token === '' || expiresIn === undefined)
      throw new KeywordDataError(this.provider, 'malformed', 'the OAuth token endpoint answered without access_token and expires_in');
    this.cached = { token, renewAt: this.now() + Math.max(0, expiresIn * 1_000 - EXPIRY_MARGIN_MS) };
    return token;
  }
}

/** `work`, or a timeout error as soon as `signal` aborts, whichever comes first; `work` is not cancelled. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, provider: string): Promise<T> {
  const cutOff = () => new KeywordDataError(provider, 'timeout', 'the OAuth token exchange was cut off: the caller stopped waiting');
  if (signal.aborted) return Promise.reject(cutOff());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cutOff());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
