/**
 * The import boundaries of ARCHITECTURE.md hold only while lint enforces them, and a lint rule that
 * silently stopped matching (a renamed folder, a config group that overrides another) would pass
 * every run. So each rule is proven to bite: a scratch file with a forbidden import is written where
 * the rule applies, the repository's own `eslint` (its real config, as `npm run lint` runs it) lints
 * it, and the expected rule must report it. Beside each, a permitted import in the same place must
 * pass, so the test also fails if a rule bites too much. All probes are linted by one ESLint run.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const ESLINT_BIN = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface Probe {
  /** Folder (from the repository root) the scratch file is written to. */
  folder: string;
  /** Each line is one import; `rule` is the rule that must report every line, or null when all pass. */
  lines: string[];
  rule: string | null;
}

/** Probes by name; the names are the test titles. */
const PROBES: Record<string, Probe> = {
  'the domain imports Nest': { folder: 'libs/domain/src', rule: 'rank/domain-imports-only-itself', lines: ["import '@nestjs/common';"] },
  'the domain imports a context': {
    folder: 'libs/domain/src',
    rule: 'rank/domain-imports-only-itself',
    lines: ["import '@rank/accounts/domain/account';", "import '../../platform/src/tokens';"],
  },
  'the domain imports itself and Node': {
    folder: 'libs/domain/src',
    rule: null,
    lines: ["import './object-id';", "import '@rank/domain/domain-error';", "import 'node:crypto';"],
  },

  'a library imports an app': {
    folder: 'libs/platform',
    rule: 'rank/lib-imports-no-app',
    lines: ["import '../../apps/api/src/main';", "import 'scraper/src/main';", "import '@rank/platform/../../../projections/src/main';"],
  },
  'a library imports libraries': {
    folder: 'libs/platform/src',
    rule: null,
    lines: ["import '@rank/event-store/event-store.port';", "import './tokens';"],
  },

  'the API imports another app': {
    folder: 'apps/api/src',
    rule: 'rank/app-imports-no-other-app',
    lines: ["import '../../admin-cli/src/main';", "import 'scraper/src/main';"],
  },
  'the projector imports the API': {
    folder: 'projections/src',
    rule: 'rank/app-imports-no-other-app',
    lines: ["import '../../apps/api/src/main';"],
  },
  'an app imports itself and libraries': {
    folder: 'apps/api/src',
    rule: null,
    lines: ["import './main';", "import '@rank/tracking/tracking.module';"],
  },

  'the scraper imports the read store': {
    folder: 'scraper/src',
    rule: 'rank/scraper-imports-no-read-store',
    lines: ["import '@rank/read-store/read-store.port';", "import '@clickhouse/client';", "import 'chdb';"],
  },
  'libs/serp imports the read store': {
    folder: 'libs/serp/src',
    rule: 'rank/scraper-imports-no-read-store',
    lines: ["import '@rank/read-store/read-store.port';"],
  },
  'the scraper imports the event store and the parser': {
    folder: 'scraper/src',
    rule: null,
    lines: ["import '@rank/event-store/event-store.port';", "import '@rank/serp/parser/google-links';"],
  },
  // The rule sees a module named in any syntax, not only in `import … from`.
  'the scraper names the read store in every syntax': {
    folder: 'scraper/src',
    rule: 'rank/scraper-imports-no-read-store',
    lines: [
      "import type { ReadStore } from '@rank/read-store/read-store.port';",
      "export * from '@rank/read-store/read-store.port';",
      "export type { ReadStore as Store } from '@rank/read-store/read-store.port';",
      "export const load = () => import('@rank/read-store/read-store.port');",
      "export type Port = typeof import('@rank/read-store/read-store.port');",
      "import port = require('@rank/read-store/read-store.port');",
      "jest.mock('@rank/read-store/read-store.port');",
    ],
  },

  "a context's domain imports Nest or a store": {
    folder: 'libs/projects/src/domain',
    rule: 'rank/pure-domain-imports-no-framework',
    lines: ["import '@nestjs/common';", "import '@rank/event-store/event-store.port';", "import '@rank/read-store/read-store.port';"],
  },
  "a context's domain imports the kernel": {
    folder: 'libs/projects/src/domain',
    rule: null,
    lines: ["import '@rank/domain/decider';", "import './workspace';"],
  },

  'an import climbs three folders': {
    folder: 'libs/platform/src/config',
    rule: 'rank/no-deep-relative-import',
    lines: ["import '../../../domain/src/object-id';", "import './../../../../libs/domain/src/object-id';"],
  },
  'an import climbs two folders': {
    folder: 'libs/platform/src/config',
    rule: null,
    lines: ["import '../tokens';", "import '../../src/tokens';"],
  },
};

interface LintMessage {
  ruleId: string | null;
  line: number;
  message: string;
}

/** Lint messages by probe name, from one ESLint run over every probe. */
const messagesByProbe = new Map<string, LintMessage[]>();

beforeAll(() => {
  // The pid keeps two runs of this spec (in two working trees or at once) off each other's files.
  const files = Object.entries(PROBES).map(([name, probe], index) => ({
    name,
    path: join(ROOT, probe.folder, `__lint_probe__${process.pid}_${index}.ts`),
    text: probe.lines.join('\n') + '\n',
  }));
  try {
    for (const file of files) writeFileSync(file.path, file.text);
    const run = spawnSync(process.execPath, [ESLINT_BIN, '--format', 'json', ...files.map((f) => relative(ROOT, f.path))], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    // 0: no errors, 1: lint errors; anything else (2) is ESLint itself failing, e.g. a broken config.
    if (run.status !== 0 && run.status !== 1) throw new Error(`eslint exited ${run.status}: ${run.stderr}`);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: LintMessage[] }[];
    for (const file of files) messagesByProbe.set(file.name, results.find((r) => r.filePath === file.path)?.messages ?? []);
  } finally {
    for (const file of files) rmSync(file.path, { force: true });
  }
}, 60_000);

describe('lint enforces the import boundaries', () => {
  const forbidden = Object.entries(PROBES).filter(([, probe]) => probe.rule !== null);
  const permitted = Object.entries(PROBES).filter(([, probe]) => probe.rule === null);

  it.each(forbidden)('%s: reported on every import', (name, probe) => {
    const messages = messagesByProbe.get(name)!;
    const reportedLines = messages.filter((m) => m.ruleId === probe.rule).map((m) => m.line);
    expect({ reportedLines, messages }).toMatchObject({ reportedLines: probe.lines.map((_, index) => index + 1) });
  });

  it.each(permitted)('%s: passes', (name) => {
    expect(messagesByProbe.get(name)).toEqual([]);
  });
});
