/**
 * ESLint rules that keep the apps and libraries of ARCHITECTURE.md apart.
 *
 * Each module specifier is first resolved to what it names, so that a rule is about where an import
 * lands rather than how it is spelt: `../x`, `@rank/<lib>/x` (tsconfig paths) and `apps/…` (tsconfig
 * baseUrl) all become a path from the repository root, e.g. `libs/read-store/src/read-store.port`;
 * anything else is a package, e.g. `@nestjs/common`. Pattern matching on the raw string (the core
 * `no-restricted-imports`) cannot tell where `../../x` lands, and gives one option set per file, so
 * overlapping groups (libs/**, libs/domain/**) would silently replace each other's patterns; here
 * every boundary is its own rule, enabled for its own files.
 *
 * Every way a module is named counts: import/export … from, import(), import x = require(),
 * typeof import(), require(), and jest.mock()/requireActual() (a mock couples a test to a module as
 * much as an import does). Type-only imports count too: they couple the code all the same.
 */
import path from 'node:path';

/** The folders that tsconfig's baseUrl makes importable by bare name, as `apps/api/src/main`. */
const ROOT_FOLDERS = new Set(['apps', 'libs', 'projections', 'scraper', 'test', 'bench', 'tools']);
const ALIAS = /^@rank\/([^/]+)(?:\/(.*))?$/;
const JEST_MODULE_FUNCTIONS = new Set(['mock', 'doMock', 'unmock', 'requireActual', 'requireMock', 'createMockFromModule']);

/** Calls every visitor with the string literal that names a module, wherever the syntax puts one. */
function moduleSpecifierVisitors(visit) {
  const literal = (node) => {
    if (node && node.type === 'Literal' && typeof node.value === 'string') visit(node, node.value);
    if (node && node.type === 'TemplateLiteral' && node.expressions.length === 0) visit(node, node.quasis[0].value.cooked);
  };
  return {
    ImportDeclaration: (node) => literal(node.source),
    ExportNamedDeclaration: (node) => literal(node.source),
    ExportAllDeclaration: (node) => literal(node.source),
    ImportExpression: (node) => literal(node.source),
    TSExternalModuleReference: (node) => literal(node.expression),
    TSImportType: (node) => literal(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    CallExpression(node) {
      const callee = node.callee;
      const isRequire = callee.type === 'Identifier' && callee.name === 'require';
      const isJestModuleCall =
        callee.type === 'MemberExpression' &&
        callee.object.type === 'Identifier' &&
        callee.object.name === 'jest' &&
        callee.property.type === 'Identifier' &&
        JEST_MODULE_FUNCTIONS.has(callee.property.name);
      if (isRequire || isJestModuleCall) literal(node.arguments[0]);
    },
  };
}

function toPosix(p) {
  return p.split(path.sep).join('/');
}

/** What a specifier names: `{ file: 'libs/x/src/y' }` inside the repository, else `{ package: 'name/sub' }`. */
function resolveSpecifier(specifier, importingFile, root) {
  if (specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../')) {
    return { file: toPosix(path.relative(root, path.resolve(path.dirname(importingFile), specifier))) };
  }
  const alias = ALIAS.exec(specifier);
  // Normalised, so that `@rank/x/../../../apps/…` is seen to land in apps/.
  if (alias) return { file: path.posix.normalize(`libs/${alias[1]}/src/${alias[2] ?? ''}`) };
  if (ROOT_FOLDERS.has(specifier.split('/')[0])) return { file: path.posix.normalize(specifier) };
  return { package: specifier };
}

const forbiddenImportSchema = [
  {
    type: 'object',
    properties: {
      forbid: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            files: { type: 'string', description: 'regular expression on the imported path from the repository root' },
            packages: { type: 'string', description: 'regular expression on the imported package specifier' },
            message: { type: 'string' },
          },
          required: ['message'],
          additionalProperties: false,
        },
      },
    },
    required: ['forbid'],
    additionalProperties: false,
  },
];

/** One boundary: imports of the linted files must name nothing that one of `forbid` matches. */
function forbiddenImportRule(root, description) {
  return {
    meta: {
      type: 'problem',
      docs: { description },
      schema: forbiddenImportSchema,
      messages: { forbidden: "'{{specifier}}': {{message}}" },
    },
    create(context) {
      const forbid = context.options[0].forbid.map(({ files, packages, message }) => ({
        files: files === undefined ? undefined : new RegExp(files),
        packages: packages === undefined ? undefined : new RegExp(packages),
        message,
      }));
      return moduleSpecifierVisitors((node, specifier) => {
        const target = resolveSpecifier(specifier, context.filename, root);
        const broken = forbid.find((f) => (target.file !== undefined ? f.files?.test(target.file) : f.packages?.test(target.package)));
        if (broken) context.report({ node, messageId: 'forbidden', data: { specifier, message: broken.message } });
      });
    },
  };
}

const noDeepRelativeImport = {
  meta: {
    type: 'problem',
    docs: { description: 'relative imports climb at most `maxParents` folders; further away, the @rank/<lib>/… aliases say where' },
    schema: [{ type: 'object', properties: { maxParents: { type: 'integer', minimum: 0 } }, additionalProperties: false }],
    messages: { tooDeep: "'{{specifier}}' climbs {{parents}} folders (at most {{maxParents}}): import it through its @rank/<lib>/… alias" },
  },
  create(context) {
    const maxParents = context.options[0]?.maxParents ?? 2;
    return moduleSpecifierVisitors((node, specifier) => {
      if (!specifier.startsWith('.')) return;
      const parents = specifier.split('/').filter((segment) => segment === '..').length;
      if (parents > maxParents) context.report({ node, messageId: 'tooDeep', data: { specifier, parents, maxParents } });
    });
  },
};

/** The plugin, for a repository whose root is `root` (an absolute path). */
export function importBoundaries(root) {
  return {
    meta: { name: 'rank-import-boundaries' },
    rules: {
      'domain-imports-only-itself': forbiddenImportRule(root, 'the shared kernel (libs/domain) imports only itself and Node built-ins'),
      'lib-imports-no-app': forbiddenImportRule(root, 'libraries never import an app'),
      'app-imports-no-other-app': forbiddenImportRule(root, 'apps are entry points that compose libraries; no app imports another'),
      'scraper-imports-no-read-store': forbiddenImportRule(root, 'the scraper and libs/serp never touch the read store'),
      'service-thread-loads-no-playwright': forbiddenImportRule(root, "Playwright runs only in the browser's worker thread"),
      'pure-domain-imports-no-framework': forbiddenImportRule(root, "a context's domain/ folder imports neither Nest nor a store"),
      'no-deep-relative-import': noDeepRelativeImport,
    },
  };
}
