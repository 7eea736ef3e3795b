import fastifyCompress from '@fastify/compress';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { constants } from 'node:zlib';

/**
 * Brotli quality 2 and gzip level 5, not the plugin's 4 and zlib's 6. Measured on the bench's big
 * answers (2026-11-27, 5 rounds each, one after the other in one process): a 28 MiB keyword-updates
 * answer takes brotli 111 ms at quality 2 against 318 ms at 4, for 2.17 MiB against 2.09; a 48 MiB
 * one 206 against 377 ms for 3.91 against 3.89 MiB; gzip level 5 takes 155 against 219 ms for 2.34
 * against 2.29 MiB. The higher levels save 0-9 % of the bytes for up to three times the CPU, on a
 * 2-core machine that also runs the reads, and the compressing adds to the answer's time.
 */
const COMPRESSION = {
  brotliQuality: 2,
  gzipLevel: 5,
} as const;

/**
 * Brotli then gzip for JSON and CSV of 1 KB and more, when the client accepts it; request bodies are
 * left as they were. Registered before the routes exist, so its onRoute hook sees them all.
 */
export async function compressAnswers(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    globalDecompression: false,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } },
    zlibOptions: { level: COMPRESSION.gzipLevel },
  });
}
