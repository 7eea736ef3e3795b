import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * The service in a child process of its own, for what only a real process can show: a crash
 * (SIGKILL) in the middle of work. TypeScript is compiled on the fly with @swc/core, decorators
 * and their metadata included, as Nest needs.
 */
const TYPESCRIPT_HOOK = `
const swc = require('@swc/core');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
// tsconfig's path aliases: @rank/<lib>/<path> is libs/<lib>/src/<path>.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = /^@rank\\/([^/]+)\\/(.*)$/.exec(request);
  return resolveFilename.call(this, alias ? path.join(process.cwd(), 'libs', alias[1], 'src', alias[2]) : request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename, swcrc: false, sourceMaps: false,
    jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(process.argv[1]);
`;

/** Runs a TypeScript entry point of the repository to its end; resolves with its exit code and output. */
export function runTypeScript(
  entry: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = join(__dirname, '..', '..');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', TYPESCRIPT_HOOK, join(root, entry), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface AppProcess {
  /** The api's base URL; empty for the apps that serve no HTTP. */
  url: string;
  process: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Which entry point a child process runs, and the line that says it is ready. */
const APPS = {
  api: { entry: 'apps/api/src/main.ts', ready: /listening on (http:\/\/[^\s]+)/ },
  projector: { entry: 'projections/src/main.ts', ready: /Projector started/ },
  scraper: { entry: 'scraper/src/main.ts', ready: /Scraper started/ },
} as const;

/** The service (the api app in standalone mode, unless told otherwise) in a child process of its own. */
export async function startAppProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  app: keyof typeof APPS = 'api',
): Promise<AppProcess> {
  const root = join(__dirname, '..', '..');
  const { entry, ready } = APPS[app];
  const child = spawn(process.execPath, ['-e', TYPESCRIPT_HOOK, join(root, entry)], {
    cwd: root,
    // A new project's home page is measured in the background; without PAGESPEED_* that is Lighthouse
    // against the real site, so children get a refused local port unless a test sets one.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PAGESPEED_BASE_URL: 'http://127.0.0.1:9',
      SCRAPER_MIN_INTERVAL_MS: '0',
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // A child left running after a failed start keeps its pipes open in this process, and jest (in
    // band on two cores) then never exits: CI waited out its whole time limit on one such child.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the app did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const check = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] ?? '');
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    kill: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
