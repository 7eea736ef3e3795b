import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Saved Google pages, gzipped, plus hand-made pages kept as plain `.html` so they can be reviewed;
 * see the README there for what each one is.
 */
export const SERP_FIXTURE_DIR = join(__dirname, '..', '..', '..', 'test-fixtures', 'serp');

/** The file names (`….html`) of every page: saved ones without their `.gz`, hand-made ones as they are. */
export function listSerpFixtures(): string[] {
  return readdirSync(SERP_FIXTURE_DIR)
    .filter((name) => name.endsWith('.html.gz') || name.endsWith('.html'))
    .map((name) => name.replace(/\.gz$/, ''))
    .sort();
}

/** The HTML of a page, by its file name (`….html`), gzipped or not. */
export function readSerpFixture(fileName: string): string {
  const gzipped = join(SERP_FIXTURE_DIR, `${fileName}.gz`);
  if (existsSync(gzipped)) return gunzipSync(readFileSync(gzipped)).toString('utf8');
  return readFileSync(join(SERP_FIXTURE_DIR, fileName), 'utf8');
}

/** The organic URLs in order from the `.expected-urls.txt` beside a page. */
export function readExpectedUrls(fileName: string): string[] {
  const listName = fileName.replace(/\.html$/, '.expected-urls.txt');
  return readFileSync(join(SERP_FIXTURE_DIR, listName), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
