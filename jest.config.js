/** One jest config for the whole monorepo: unit tests sit beside the code, end-to-end tests in test/. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(ts|js)$': ['@swc/jest'] },
  // @fastify/static (Swagger UI) requires the ESM-only content-disposition 3; Node 20 loads it with
  // require(esm), jest's module loader does not, so jest compiles that one package to CommonJS.
  transformIgnorePatterns: ['^(?!.*/node_modules/content-disposition/).*/node_modules/'],
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/projections', '<rootDir>/scraper', '<rootDir>/test'],
  // The path aliases of tsconfig.json: @rank/<lib>/<path> is libs/<lib>/src/<path>.
  moduleNameMapper: { '^@rank/([^/]+)/(.*)$': '<rootDir>/libs/$1/src/$2' },
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  // On two cores jest runs every suite inside jest's own process (in band). One handle a suite left open
  // (a child process whose start had failed) kept jest from exiting after a finished run, and CI
  // waited out its whole time limit. Jest prints "Force exiting Jest" at every exit it forces, leak
  // or not; `npx jest --detectOpenHandles` is how to find one.
  forceExit: true,
  globalTeardown: '<rootDir>/test/support/remove-test-engines.js',
};
