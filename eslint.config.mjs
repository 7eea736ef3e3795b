// Lint checks what the compiler cannot: the import boundaries of ARCHITECTURE.md, and a lean set of
// correctness rules. It parses without type information (no parserOptions.project), so the whole
// repository lints in seconds; `tsc --noEmit` already does the type checking. Formatting is
// Prettier's (`npm run format`); eslint-config-prettier, last, turns off every rule it would fight.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { importBoundaries } from './tools/eslint/import-boundaries.mjs';

const rank = importBoundaries(import.meta.dirname);

/** The runnable apps, each a folder that no other app (nor any library) may import from. */
const APP_FOLDERS = ['apps/api', 'apps/admin-cli', 'projections', 'scraper'];
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (folders) => `^(${folders.map(escapeRegExp).join('|')})(/|$)`;

/**
 * Playwright and the modules that load it. Its client turns on a hook for every promise of the thread
 * it runs in, so the service reaches Chromium only through BrowserThread (libs/serp/src/browser).
 */
const PLAYWRIGHT_MESSAGE =
  "Playwright runs only in the browser's worker thread (libs/serp/src/browser/browser-thread.ts): in the service's thread it slows every request";
const PLAYWRIGHT = [
  { packages: '^playwright(-core)?(/|$)', message: PLAYWRIGHT_MESSAGE },
  {
    files: '^libs/serp/src/(browser/chromium-launch|fetcher/chromium-page-loader|fetcher/browser-context-pool)$',
    message: PLAYWRIGHT_MESSAGE,
  },
];

/** The read store and its ClickHouse drivers. */
const READ_STORE = [
  { files: '^libs/read-store(/|$)', message: "the read store is the projector's and the API's, not the scraper's" },
  { packages: '^(@clickhouse/|chdb(/|$))', message: 'ClickHouse is reached only through libs/read-store, which the scraper never uses' },
];

export default defineConfig([
  globalIgnores(['dist/', 'coverage/', 'data/']),

  {
    files: ['**/*.{ts,js,mjs,cjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      // Refusing or escaping control characters is what the input checks and the CSV export are for.
      'no-control-regex': 'off',
      // `_name` marks a value kept on purpose; `{ dropped, ...rest }` drops fields by destructuring.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A variable read by a closure declared before its one assignment (a timer the callback clears).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // google-protobuf ships its well-known types without typings, so the gRPC double requires them.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^google-protobuf/'] }],
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and benchmarks read the API's JSON bodies untyped (`body: any`): the assertions are the types.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // The boundaries. Every rule resolves what an import names (relative path, @rank alias or package).
  {
    plugins: { rank },
    rules: { 'rank/no-deep-relative-import': ['error', { maxParents: 2 }] },
  },
  {
    files: ['libs/domain/**'],
    rules: {
      'rank/domain-imports-only-itself': [
        'error',
        {
          forbid: [
            { files: '^(?!libs/domain(/|$))', message: 'the shared kernel (libs/domain) imports only itself' },
            { packages: '^(?!node:)', message: 'the shared kernel (libs/domain) imports only itself and Node built-ins (node:…)' },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/**'],
    rules: {
      'rank/lib-imports-no-app': ['error', { forbid: [{ files: anyOf(APP_FOLDERS), message: 'a library never imports an app' }] }],
    },
  },
  ...APP_FOLDERS.map((app) => ({
    files: [`${app}/**`],
    rules: {
      'rank/app-imports-no-other-app': [
        'error',
        {
          forbid: [
            {
              files: anyOf(APP_FOLDERS.filter((other) => other !== app)),
              message: 'no app imports another: what both need belongs in a library under libs/',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['scraper/**', 'libs/serp/**'],
    rules: { 'rank/scraper-imports-no-read-store': ['error', { forbid: READ_STORE }] },
  },
  {
    files: ['apps/**', 'libs/**', 'projections/**', 'scraper/**'],
    // The browser's thread itself, the boundary that names its options, and the tests that drive Chromium directly.
    ignores: [
      'libs/serp/src/browser/{browser-thread,browser-thread-entry,chromium-launch}.ts',
      'libs/serp/src/fetcher/{chromium-page-loader,browser-context-pool}.ts',
      '**/*.spec.ts',
      '**/testing/**',
      '**/test-support/**',
    ],
    rules: { 'rank/service-thread-loads-no-playwright': ['error', { forbid: PLAYWRIGHT }] },
  },
  {
    files: ['libs/*/src/domain/**'],
    rules: {
      'rank/pure-domain-imports-no-framework': [
        'error',
        {
          forbid: [
            { packages: '^@nestjs/', message: 'a domain/ folder is plain TypeScript: Nest belongs to the use cases around it' },
            {
              files: '^libs/(event-store|read-store)(/|$)',
              message: 'a domain/ folder decides; the repositories around it talk to the stores',
            },
            {
              packages: '^(@clickhouse/|chdb(/|$)|better-sqlite3(/|$)|@eventstore/)',
              message: 'a domain/ folder never reaches a store driver',
            },
          ],
        },
      ],
    },
  },

  prettier,
]);
