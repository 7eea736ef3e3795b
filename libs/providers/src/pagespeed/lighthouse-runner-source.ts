/**
 * The program a Lighthouse run executes in its own Node process. Lighthouse 12 is an ES module;
 * a child process loads it the same way under the compiled app and under jest (whose CommonJS
 * sandbox cannot import it), keeps its memory and global state out of the service, and can be
 * killed outright when a run hangs. It is kept as source text, passed with `--input-type=module
 * -e`, so the build does not need to copy a non-TypeScript file.
 *
 * Input (JSON in argv[1]): the Lighthouse entry path, the page, the DevTools port, the categories.
 * Output (stdout, one JSON line): the parts of the result we read, in the shape PageSpeed Insights
 * also uses (`categories.*.score`, `audits.*.numericValue`, `runtimeError`).
 */
export const LIGHTHOUSE_RUNNER_SOURCE = `
import { pathToFileURL } from 'node:url';
const input = JSON.parse(process.argv[1]);
const { default: lighthouse } = await import(pathToFileURL(input.lighthousePath).href);
const flags = {
  port: input.port,
  output: 'json',
  logLevel: 'error',
  onlyCategories: input.categories,
  formFactor: 'mobile',
  screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
  throttlingMethod: 'simulate',
  maxWaitForLoad: input.maxWaitForLoadMs,
};
const result = await lighthouse(input.url, flags);
const lhr = result && result.lhr;
if (!lhr) {
  process.stdout.write(JSON.stringify({ runtimeError: { code: 'NO_RESULT', message: 'Lighthouse returned nothing' } }) + '\\n');
} else {
  const categories = {};
  for (const [id, category] of Object.entries(lhr.categories || {})) categories[id] = { score: category.score };
  const audits = {};
  for (const id of input.audits) if (lhr.audits && lhr.audits[id]) audits[id] = { numericValue: lhr.audits[id].numericValue };
  process.stdout.write(JSON.stringify({ finalUrl: lhr.finalDisplayedUrl, runtimeError: lhr.runtimeError, categories, audits }) + '\\n');
}
// Lighthouse leaves a socket to the browser open; the parent closes the browser.
process.exit(0);
`;
