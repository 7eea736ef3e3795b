/** Reads a stream's truncate-before (`$tb`) from its metadata; 0 when it has none. */
export type TruncateBeforeReader = (streamName: string) => Promise<number>;

const MAX_REMEMBERED_STREAMS = 10_000;

/**
 * EventStoreDB keeps a deleted stream's events in `$all` until the next scavenge, but the port
 * promises that deleted events leave the log at once. Soft delete works by setting the stream's
 * truncate-before: to the largest revision on delete, and to the first new revision when the stream
 * is written again. An event is visible when its revision is at or above that value.
 *
 * Truncate-before values are remembered per stream and forgotten when a `$metadata` event for the
 * stream passes by in the log (soft delete and re-creation both write one), so a log reader asks
 * the server once per stream rather than once per event.
 */
export class DeletedStreamsFilter {
  private readonly truncateBefore = new Map<string, number>();

  constructor(private readonly readTruncateBefore: TruncateBeforeReader) {}

  async isVisible(streamName: string, revision: number): Promise<boolean> {
    let truncateBefore = this.truncateBefore.get(streamName);
    if (truncateBefore === undefined) {
      truncateBefore = await this.readTruncateBefore(streamName);
      this.remember(streamName, truncateBefore);
    }
    return revision >= truncateBefore;
  }

  /** The stream's metadata changed (it was deleted or re-created): ask again next time. */
  forget(streamName: string): void {
    this.truncateBefore.delete(streamName);
  }

  private remember(streamName: string, truncateBefore: number): void {
    this.truncateBefore.set(streamName, truncateBefore);
    // Map iterates in insertion order, so the first key is the one remembered longest ago.
    if (this.truncateBefore.size > MAX_REMEMBERED_STREAMS) {
      this.truncateBefore.delete(this.truncateBefore.keys().next().value as string);
    }
  }
}
