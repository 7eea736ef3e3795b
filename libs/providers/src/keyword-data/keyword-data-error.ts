import { UpstreamError, type UpstreamFailureKind } from '../shared/upstream-error';

/**
 * The two failures the research endpoints tell apart (the clarifications' `error` values):
 * `upstream_error` when the provider answered, but with an error (HTTP error, task-level error)
 * or a body that is not its documented shape; `unavailable` when it could not be reached or took
 * too long.
 */
export type KeywordDataFailure = 'upstream_error' | 'unavailable';

export class KeywordDataError extends UpstreamError {
  readonly failure: KeywordDataFailure;

  constructor(provider: string, kind: UpstreamFailureKind, message: string, status?: number) {
    super(provider, kind, message, status);
    this.name = 'KeywordDataError';
    this.failure = kind === 'timeout' || kind === 'unreachable' ? 'unavailable' : 'upstream_error';
  }

  /** The same failure, as a keyword-data error (fetchJson throws plain UpstreamErrors). */
  static from(error: unknown, provider: string): KeywordDataError {
    if (error instanceof KeywordDataError) return error;
    if (error instanceof UpstreamError)
      return new KeywordDataError(error.provider, error.kind, error.message.replace(`${error.provider}: `, ''), error.status);
    return new KeywordDataError(provider, 'malformed', error instanceof Error ? error.message : String(error));
  }
}

/** The failure of any error a keyword-data or autocomplete call threw. */
export function keywordDataFailureOf(error: unknown): KeywordDataFailure {
  if (error instanceof KeywordDataError) return error.failure;
  if (error instanceof UpstreamError) return error.kind === 'timeout' || error.kind === 'unreachable' ? 'unavailable' : 'upstream_error';
  return 'upstream_error';
}
