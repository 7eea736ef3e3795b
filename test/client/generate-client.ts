import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/** Where the typed client's types live, committed, so a change of the API shows as a diff. */
export const CLIENT_TYPES_PATH = 'test/client/rank-tracker-api.ts';

/**
 * The types of a document as `npx openapi-typescript openapi.json -o rank-tracker-api.ts` writes them
 * (default options), run as its CLI: the package is ES modules that jest's loader does not take.
 */
export async function generateClientTypes(document: unknown): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    // The package's exports map `*.js` to `*.mjs`, so its bin is found beside package.json.
    const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
    await promisify(execFile)(process.execPath, [cli, 'openapi.json', '-o', 'types.ts'], {
      cwd: dir,
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
    return readFileSync(join(dir, 'types.ts'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
