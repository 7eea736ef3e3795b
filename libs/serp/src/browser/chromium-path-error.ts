import { accessSync, constants, statSync } from 'node:fs';

/**
 * `CHROMIUM_PATH` names no browser binary: a configuration error, reported at start.
 * Apart from chromium.ts so that the configuration check does not load Playwright in every process.
 */
export class ChromiumPathError extends Error {
  constructor(path: string, why = 'but no file exists there') {
    super(`CHROMIUM_PATH is set to "${path}", ${why}`);
    this.name = 'ChromiumPathError';
  }
}

/**
 * What makes `path` no browser binary, or undefined: missing, a directory (Debian's `/usr/lib/chromium`
 * is an easy slip for the binary inside it) or a file that cannot be run. Before, a directory or a
 * text file passed the start, and every check failed later as "browser unavailable".
 */
export function chromiumPathProblem(path: string): ChromiumPathError | undefined {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    return new ChromiumPathError(path);
  }
  if (!isFile) return new ChromiumPathError(path, 'which is a directory, not the browser binary (Debian: /usr/lib/chromium/chromium)');
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return new ChromiumPathError(path, 'which is not executable');
  }
  return undefined;
}
