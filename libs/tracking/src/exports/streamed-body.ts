import { Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import { QueryAbandoned } from '@rank/read-store/read-gate';

const logger = new Logger('Exports');

/**
 * A reply body that pulls text chunks from a generator as the socket drains. The first chunk is taken
 * before the reply starts, so a failure in the first query (the usual place: ClickHouse down) is still
 * an ordinary JSON error response; a failure later can only cut the download short, so it is logged
 * here (the status line has long gone out).
 */
export async function streamedBody(chunks: AsyncGenerator<string>, what: string): Promise<Readable> {
  const first = await chunks.next();
  async function* all(): AsyncGenerator<string> {
    if (first.done) return;
    yield first.value;
    try {
      yield* chunks;
    } catch (error) {
      // A page not read because the client has gone is no failure of the export.
      if (!(error instanceof QueryAbandoned))
        logger.error(`${what} failed while streaming`, error instanceof Error ? error.stack : String(error));
      throw error;
    }
  }
  return Readable.from(all());
}
