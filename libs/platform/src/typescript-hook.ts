/**
 * Source text that teaches a new Node process or worker thread to require the repository's
 * TypeScript, for code that starts one while it runs from its sources (under jest): each `.ts`
 * file is compiled with @swc/core (jest's compiler, a dev dependency), decorators and their
 * metadata included as Nest needs, and tsconfig's aliases (`@rank/<lib>/<path>` is
 * `libs/<lib>/src/<path>`) resolve from `root`. Then it requires `entry`, a JavaScript expression
 * naming the entry point (`process.argv[1]`, or a quoted path). The built service never needs it:
 * dist/ is JavaScript.
 */
export function typescriptEntrySource(root: string, entry: string): string {
  return `
const swc = require('@swc/core');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = /^@rank\\/([^/]+)\\/(.*)$/.exec(request);
  return resolveFilename.call(this, alias ? path.join(${JSON.stringify(root)}, 'libs', alias[1], 'src', alias[2]) : request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename, swcrc: false, sourceMaps: false,
    jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(${entry});
`;
}
