import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSavedSerp, SAVED_SERP_DIR } from '../../fetcher/test-support/saved-serp';

/**
 * Saved Google pages, gzipped, plus hand-made pages kept as plain `.html` so they can be reviewed;
 * see the README there. One folder and one reader with the fetcher's tests.
 */
export const SERP_FIXTURE_DIR = SAVED_SERP_DIR;

/** The file names (`….html`) of every page: saved ones without their `.gz`, hand-made ones as they are. */
export function listSerpFixtures(): string[] {
  return readdirSync(SERP_FIXTURE_DIR)
    .filter((name) => name.endsWith('.html.gz') || name.endsWith('.html'))
    .map((name) => name.replace(/\.gz$/, ''))
    .sort();
}

/** The HTML of a page, by its file name (`….html`), gzipped or not. */
export const readSerpFixture = readSavedSerp;

/** The organic URLs in order from the `.expected-urls.txt` beside a page. */
export function readExpectedUrls(fileName: string): string[] {
  const listName = fileName.replace(/\.html$/, '.expected-urls.txt');
  return readFileSync(join(SERP_FIXTURE_DIR, listName), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
