import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { type ChromiumBundle, unpackedFolder } from './bundled-chromium';
import { ChromiumPathError } from './chromium-path-error';

export { ChromiumPathError };

/**
 * Flags every launch gets, whatever the caller passes.
 * The background-networking, component-update and sync switches stop Chromium from calling Google's
 * own update/sync/field-trial hosts on start: on an offline box that fails noisily, and on a scraper
 * it is traffic we did not ask for. QUIC is off so that proxies (HTTP CONNECT) carry every request.
 * The sandbox is off because scrapers usually run as root (containers), where Chromium refuses to
 * start with it; /dev/shm is not used because a container's is 64 MB and a big page crashes the tab.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // Keeps navigator.webdriver false: Google treats an automation-flagged browser as a bot at once.
  '--disable-blink-features=AutomationControlled',
];

/** Where Debian's `chromium` package installs the browser. */
export const DEBIAN_CHROMIUM_PATH = '/usr/bin/chromium';

/** System browsers looked for after Debian's, by name on `PATH` (Ubuntu's and Google's packages). */
export const SYSTEM_CHROMIUM_NAMES: readonly string[] = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export const BUNDLED_CHROMIUM_PACKAGE = '@sparticuz/chromium';

/** What to do when no browser starts; part of every such message, so the operator reads the fix where the failure shows. */
export const NO_BROWSER_FIX = "install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chrome or Chromium binary";

/** Set to `1` by the first-run test only: the chooser then acts as if no system browser were installed. */
export const HIDE_SYSTEM_BROWSERS_FOR_TESTS = 'RANK_TRACKER_TEST_HIDE_SYSTEM_BROWSERS';

/** Where the browser comes from, in the order they are tried. */
export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'bundled';

export interface ChromiumChoice {
  source: ChromiumSource;
  /** The binary; for `bundled`, where it is unpacked on first launch. */
  path: string;
  /** What the browser says it is (`Chromium 156.0.8078.79`), when that was cheap to learn. */
  version?: string;
  /** System browsers passed over because they did not run, with why: the log says it. */
  skipped: string[];
}

/**
 * No browser could be started. Permanent for a check: trying again a moment later meets the same
 * machine, so a check that gets this fails at once with this message as its reason.
 */
export class BrowserUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserUnavailableError';
  }
}

/** How the chooser looks at the machine; injected by tests. */
export interface ChromiumProbes {
  fileExists(path: string): boolean;
  /** The first executable called `name` on `PATH`. */
  findOnPath(name: string): string | undefined;
  /** Runs `path --version`: the version line, or an error saying why it did not run. */
  version(path: string): { ok: true; version: string } | { ok: false; error: string };
  /** The bundled package's version and where it unpacks, or undefined if it is not installed. */
  bundled(): { packageVersion: string; unpackTo: string } | undefined;
}

/**
 * Which browser the scraper drives: `CHROMIUM_PATH` if set (it must exist), else a system Chrome or
 * Chromium that answers `--version` (a Debian wrapper script whose binary is gone does not), else the
 * Chromium bundled in node_modules by `@sparticuz/chromium`. Playwright's own managed Chromium is not
 * a choice: it needs a download that a bare or offline machine cannot do.
 */
export function chooseChromium(env: Readonly<Record<string, string | undefined>>, probes: ChromiumProbes = machineProbes): ChromiumChoice {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (!probes.fileExists(configured)) throw new ChromiumPathError(configured);
    const probed = probes.version(configured);
    // An explicit choice is used even if `--version` fails: some wrappers do not take it.
    return { source: 'CHROMIUM_PATH', path: configured, version: probed.ok ? probed.version : undefined, skipped: [] };
  }

  const skipped: string[] = [];
  const seen = new Set<string>();
  // Test-only: the first-run test's way to play a machine without a browser where it cannot hide
  // the system one in a mount namespace (no root, no user namespaces). Not for operators.
  const hideSystem = env[HIDE_SYSTEM_BROWSERS_FOR_TESTS] === '1';
  const candidates = hideSystem ? [] : [DEBIAN_CHROMIUM_PATH, ...SYSTEM_CHROMIUM_NAMES.map((name) => probes.findOnPath(name))];
  for (const path of candidates) {
    if (!path || seen.has(path) || !probes.fileExists(path)) continue;
    seen.add(path);
    const probed = probes.version(path);
    if (probed.ok) return { source: 'system', path, version: probed.version, skipped };
    skipped.push(`${path} does not run (${probed.error})`);
  }

  const bundled = probes.bundled();
  if (bundled) {
    const major = bundled.packageVersion.split('.')[0];
    return {
      source: 'bundled',
      path: bundled.unpackTo,
      version: `Chromium ${major}, ${BUNDLED_CHROMIUM_PACKAGE} ${bundled.packageVersion}`,
      skipped,
    };
  }
  // Nothing at all: the launch says so, with the fix, when a check needs the browser.
  return { source: 'bundled', path: join(tmpdir(), 'chromium'), skipped: [...skipped, `${BUNDLED_CHROMIUM_PACKAGE} is not installed`] };
}

/** The start-up log line: which browser, where, and which version. */
export function describeChromiumChoice(choice: ChromiumChoice): string {
  const what = {
    CHROMIUM_PATH: `CHROMIUM_PATH ${choice.path}`,
    system: `system browser ${choice.path}`,
    bundled: `bundled ${BUNDLED_CHROMIUM_PACKAGE}, unpacked on first use to ${choice.path}`,
  }[choice.source];
  const version = choice.version ? ` (${choice.version})` : '';
  const skipped = choice.skipped.length > 0 ? `; passed over: ${choice.skipped.join('; ')}` : '';
  return `Browser: ${what}${version}${skipped}`;
}

export interface ChromiumLaunchOptions {
  /** Wins over everything else. */
  executablePath?: string;
  /** A choice already made (and logged) at start; otherwise it is made now from `env`. */
  choice?: ChromiumChoice;
  /** Where `CHROMIUM_PATH` is read from; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Appended after `CHROMIUM_FLAGS` (tests add host-resolver rules that keep them offline). */
  extraArgs?: readonly string[];
  /** How long Chromium may take to start; default 30 s. */
  launchTimeoutMs?: number;
  /**
   * Where the bundled Chromium is unpacked, once per machine: the temp directory by default. A
   * BrowserThread gives its browser a temp directory of its own, removed with it, and passes the
   * machine's here so that each launch does not unpack 200 MB again.
   */
  unpackInto?: string;
  /** Chromium's TMPDIR, where it makes its own directory (its SingletonSocket): the launching thread's by default. */
  chromiumTempDir?: string;
}

const machineProbes: ChromiumProbes = {
  fileExists: existsSync,
  findOnPath(name) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (dir && existsSync(join(dir, name))) return join(dir, name);
    }
    return undefined;
  },
  version(path) {
    try {
      const out = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
      const line = out.split('\n').find((l) => /\d+\.\d+/.test(l));
      return line
        ? { ok: true, version: line.replace(/ built on .*$/, '').trim() }
        : { ok: false, error: 'no version in its --version output' };
    } catch (error) {
      const e = error as { status?: number | null; stderr?: string; message?: string };
      // The last stderr line is the shell's or the loader's reason (`…/chromium: not found`).
      const reason = (e.stderr ?? '').trim().split('\n').pop() || e.message || 'failed';
      return { ok: false, error: e.status != null ? `exit ${e.status}: ${reason}` : reason };
    }
  },
  bundled() {
    const bundle = bundledChromium();
    return bundle && { packageVersion: bundle.version, unpackTo: join(unpackedFolder(tmpdir(), bundle.version), 'chromium') };
  },
};

/** The bundled package's compressed browser, or undefined if the package is not installed. */
export function bundledChromium(): ChromiumBundle | undefined {
  let entry: string;
  try {
    entry = require.resolve(BUNDLED_CHROMIUM_PACKAGE);
  } catch {
    return undefined;
  }
  // Its package.json and bin folder are not exported; they sit two folders above the CommonJS entry (build/cjs/).
  const root = join(dirname(entry), '..', '..');
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // Unpacked under "unknown" then: still once per machine.
  }
  return { binDir: join(root, 'bin'), version };
}
