import type { ExpectedRevision } from './event-store.port';

/** The stream's current revision: its last event's revision, or `no_stream` when it has no events. */
export type ActualRevision = number | 'no_stream';

export function isExpectedRevisionMet(expected: ExpectedRevision, actual: ActualRevision): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return actual === expected;
  }
}
