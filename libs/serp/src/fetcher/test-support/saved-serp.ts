import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { repositoryPath } from '@rank/platform/repository-path';

/**
 * The project's saved Google pages (gzipped) and hand-made ones (plain), kept with the repository; see
 * the README there. Found from the repository root, so that code compiled under dist/ (the benches),
 * where no fixture is copied, reads them as the tests do.
 */
export const SAVED_SERP_DIR = repositoryPath('libs', 'serp', 'test-fixtures', 'serp');

/** The HTML of a page by its file name (`….html`), gzipped or not. */
export function readSavedSerp(fileName: string): string {
  const gzipped = join(SAVED_SERP_DIR, `${fileName}.gz`);
  if (existsSync(gzipped)) return gunzipSync(readFileSync(gzipped)).toString('utf8');
  return readFileSync(join(SAVED_SERP_DIR, fileName), 'utf8');
}
