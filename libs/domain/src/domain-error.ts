/**
 * A rule of the domain said no. `kind` decides the HTTP status at the edge; `message` is shown to the
 * caller as is, so it is a sentence a person can act on; `details` are extra body fields the spec asks
 * for (e.g. `currentCount` for KEYWORDS_LIMIT_EXCEEDED).
 */
export type DomainErrorKind = 'invalid' | 'not-found' | 'conflict' | 'forbidden';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, details?: Record<string, unknown>) => new DomainError('invalid', message, details);
export const notFound = (message: string) => new DomainError('not-found', message);
export const conflict = (message: string) => new DomainError('conflict', message);

/** Compile-time proof that a switch covered every member of a union. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
