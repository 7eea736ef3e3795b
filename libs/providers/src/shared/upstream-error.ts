/**
 * Why an outside data provider gave no answer. Callers treat every kind the same way (no data now,
 * nothing cached, retry later) but log and count them apart, so an operator can tell a wrong key
 * (`http` 401/403) from a provider that is down (`unreachable`, `timeout`, `http` 5xx), one that
 * changed its format (`malformed`), or a measured page that did not load (`page`).
 */
export type UpstreamFailureKind = 'timeout' | 'unreachable' | 'http' | 'malformed' | 'page';

export class UpstreamError extends Error {
  constructor(
    /** Which provider: `pagespeed-insights`, `lighthouse`, `crux-history`, `similarweb`. */
    readonly provider: string,
    readonly kind: UpstreamFailureKind,
    message: string,
    /** The HTTP status, for `http` failures. */
    readonly status?: number,
  ) {
    // Messages name the provider and the path, never the query: API keys travel in the query.
    super(`${provider}: ${message}`);
    this.name = 'UpstreamError';
  }
}
