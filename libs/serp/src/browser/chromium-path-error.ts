/**
 * `CHROMIUM_PATH` names a file that is not there: a configuration error, reported at start.
 * Apart from chromium.ts so that the configuration check does not load Playwright in every process.
 */
export class ChromiumPathError extends Error {
  constructor(path: string) {
    super(`CHROMIUM_PATH is set to "${path}", but no file exists there`);
    this.name = 'ChromiumPathError';
  }
}
