import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The project's saved Google pages (gzipped) and hand-made ones (plain), kept with the repository; see the README there. */
const SAVED_SERP_DIR = join(__dirname, '..', '..', '..', 'test-fixtures', 'serp');

/**
 * The HTML of a page by its file name (`….html`), gzipped or not. `dir` is for code compiled under
 * dist/ (the bench), where this file's own directory holds no fixtures: it passes the repository's.
 */
export function readSavedSerp(fileName: string, dir = SAVED_SERP_DIR): string {
  const gzipped = join(dir, `${fileName}.gz`);
  if (existsSync(gzipped)) return gunzipSync(readFileSync(gzipped)).toString('utf8');
  return readFileSync(join(dir, fileName), 'utf8');
}
