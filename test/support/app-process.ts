import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repositoryPath } from '@rank/platform/repository-path';
import { typescriptEntrySource } from '@rank/platform/typescript-hook';

/**
 * The service in a child process of its own, for what only a real process can show: a crash
 * (SIGKILL) in the middle of work. TypeScript is compiled on the fly (typescript-hook.ts).
 */
const ROOT = repositoryPath();
const TYPESCRIPT_HOOK = typescriptEntrySource(ROOT, 'process.argv[1]');

/**
 * What a child takes of this process's environment before the test's own: TMPDIR too, so that what a
 * child leaves there (a browser's temp directory, when the child is killed) goes where the test run's
 * temp files go, not into /tmp for good.
 */
const INHERITED = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };

/** Runs a TypeScript entry point of the repository to its end; resolves with its exit code and output. */
export function runTypeScript(
  entry: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', TYPESCRIPT_HOOK, join(ROOT, entry), ...args], {
      cwd: ROOT,
      env: { ...INHERITED, ...env },
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
  /** The api's base URL; the projector's or a scraper's operations endpoint with OPS_PORT; else empty. */
  url: string;
  process: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Which entry point a child process runs, and the whole line that says it is ready (its end read too). */
const APPS = {
  api: { entry: 'apps/api/src/main.ts', ready: /listening on [^\n]*\n/ },
  projector: { entry: 'projections/src/main.ts', ready: /Projector started[^\n]*\n/ },
  scraper: { entry: 'scraper/src/main.ts', ready: /Scraper started[^\n]*\n/ },
} as const;

/** Where the ready line says the app serves HTTP: the api, or the operations endpoint of the others (OPS_PORT). */
const SERVED_AT = /(?:listening on|\/metrics on) (http:\/\/[^\s"]+)/;

/** The service (the api app in standalone mode, unless told otherwise) in a child process of its own. */
export async function startAppProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  app: keyof typeof APPS = 'api',
): Promise<AppProcess> {
  const { entry, ready } = APPS[app];
  const child = spawn(process.execPath, ['-e', TYPESCRIPT_HOOK, join(ROOT, entry)], {
    cwd: ROOT,
    // A new project's home page is measured in the background; without PAGESPEED_* that is Lighthouse
    // against the real site, so children get a refused local port unless a test sets one.
    env: {
      ...INHERITED,
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
        resolve(SERVED_AT.exec(match[0])?.[1] ?? '');
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
