import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** Saved Google pages, gzipped; see the README there for what each one is. */
export const SERP_FIXTURE_DIR = join(__dirname, '..', '..', '..', 'test-fixtures', 'serp');

/** The original file names (`….html`) of every saved page. */
export function listSerpFixtures(): string[] {
  return readdirSync(SERP_FIXTURE_DIR)
    .filter((name) => name.endsWith('.html.gz'))
    .map((name) => name.slice(0, -'.gz'.length))
    .sort();
}

/** The HTML of a saved page, by its original file name (`….html`). */
export function readSerpFixture(fileName: string): string {
  return gunzipSync(readFileSync(join(SERP_FIXTURE_DIR, `${fileName}.gz`))).toString('utf8');
}

/** The organic URLs in order from the `.expected-urls.txt` beside a page. */
export function readExpectedUrls(fileName: string): string[] {
  const listName = fileName.replace(/\.html$/, '.expected-urls.txt');
  return readFileSync(join(SERP_FIXTURE_DIR, listName), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
