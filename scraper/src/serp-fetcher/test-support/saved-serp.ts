import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The project's saved Google pages (gzipped, kept with the repository; see the README there). */
const SAVED_SERP_DIR = join(__dirname, '..', '..', '..', 'test-fixtures', 'serp');

/** The HTML of a saved page by its original name (`….html`). */
export function readSavedSerp(fileName: string): string {
  return gunzipSync(readFileSync(join(SAVED_SERP_DIR, `${fileName}.gz`))).toString('utf8');
}
