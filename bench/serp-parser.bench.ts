/**
 * Parse speed of the SERP parser over every saved Google page in libs/serp/test-fixtures/serp/.
 * Run it from a bench runner that calls `run()`; it prints pages/s and ms per page, overall and for
 * the slowest page, after a warm-up round (the first parse of a page includes JIT compilation).
 */
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseSerpPage } from '@rank/serp/parser/parse-serp-page';
import { readSavedSerp, SAVED_SERP_DIR as FIXTURE_DIR } from '@rank/serp/fetcher/test-support/saved-serp';
/** Enough rounds for a stable figure while the whole run stays within a few seconds. */
const MEASURED_ROUNDS = 5;

export async function run(): Promise<void> {
  const pages = readdirSync(FIXTURE_DIR)
    .filter((name) => name.endsWith('.html.gz'))
    .sort()
    .map((name) => ({ name, html: readSavedSerp(name.replace(/\.gz$/, '')) }));
  if (pages.length === 0) throw new Error(`no fixture pages in ${FIXTURE_DIR}`);
  const totalMegabytes = pages.reduce((sum, page) => sum + page.html.length, 0) / 1e6;

  for (const page of pages) parseSerpPage(page.html); // warm-up

  const millisecondsPerPage = new Map<string, number>();
  const started = performance.now();
  for (let round = 0; round < MEASURED_ROUNDS; round++) {
    for (const page of pages) {
      const pageStarted = performance.now();
      parseSerpPage(page.html);
      const elapsed = performance.now() - pageStarted;
      millisecondsPerPage.set(page.name, (millisecondsPerPage.get(page.name) ?? 0) + elapsed / MEASURED_ROUNDS);
    }
  }
  const elapsedMs = performance.now() - started;
  const parses = pages.length * MEASURED_ROUNDS;
  const [slowestName, slowestMs] = [...millisecondsPerPage.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];

  console.log(`serp-parser: ${pages.length} pages (${totalMegabytes.toFixed(1)} MB), ${MEASURED_ROUNDS} rounds`);
  console.log(`  ${(parses / (elapsedMs / 1000)).toFixed(1)} pages/s, ${(elapsedMs / parses).toFixed(1)} ms per page on average`);
  console.log(`  ${((totalMegabytes * MEASURED_ROUNDS) / (elapsedMs / 1000)).toFixed(1)} MB/s`);
  console.log(`  slowest: ${slowestName} ${slowestMs.toFixed(1)} ms`);
}

// Runnable on its own too, e.g. through a TypeScript loader: `node -r <ts-register> bench/serp-parser.bench.ts`.
if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
