/**
 * The real service, started in this process on an ephemeral loopback port with the real embedded
 * stores in temporary directories. A copy of the few lines of test/support/test-app.ts the benches
 * need: the build excludes test/, so bench code cannot import from it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp, RunningApp } from '../../apps/api/src/bootstrap';
import { AppConfig, loadConfig } from '@rank/platform/config/app-config';
import { ProjectionRunner } from '@rank/projector/projection-runner';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

export interface BenchAppDirs {
  dataDir: string;
  /** chDB's data directory. Kept apart from dataDir so a bench can say which is which. */
  chdbPath: string;
}

export interface BenchApp extends BenchAppDirs {
  url: string;
  running: RunningApp;
  /** Milliseconds from calling createApp to it resolving (the server listens from then on). */
  createMs: number;
  /** JSON request; throws on an unexpected status, so a broken setup fails loudly, not as a fast figure. */
  json<Body = any>(method: string, path: string, options?: { key?: string; body?: unknown; expect?: number | number[] }): Promise<Body>;
  openAccount(): Promise<{ accountId: string; apiKey: string }>;
  /** Resolves once the read models hold every event appended so far. */
  projectionsCaughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the app; unless `keepData`, removes its directories. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export function newBenchDirs(prefix: string): BenchAppDirs {
  const root = mkdtempSync(join(tmpdir(), `rank-tracker-bench-${prefix}-`));
  return { dataDir: join(root, 'data'), chdbPath: join(root, 'chdb') };
}

/** Removes what newBenchDirs made (both live under one temporary root). */
export function removeBenchDirs(dirs: BenchAppDirs): void {
  rmSync(join(dirs.dataDir, '..'), { recursive: true, force: true });
}

/** The configuration of a bench app on `dirs`: the embedded stores, no scheduler, no scraper; `env` adds to it (a fake provider's variables). */
export function benchConfig(dirs: BenchAppDirs, env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dirs.dataDir,
    CHDB_PATH: dirs.chdbPath,
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    // Never Google: nothing here should scrape, and a stray fetch must stay on this machine.
    GOOGLE_BASE_URL: 'http://127.0.0.1:9',
    // Nor a real site's page speed: new projects' home pages would be measured with Lighthouse.
    PAGESPEED_BASE_URL: 'http://127.0.0.1:9',
    // No scheduler or scraper: a cron firing mid-measurement would add work the figures do not describe.
    ROLES: 'api,projections',
    ...env,
  });
}

export async function startBenchApp(dirs: BenchAppDirs = newBenchDirs('app'), env: Record<string, string> = {}): Promise<BenchApp> {
  const config = benchConfig(dirs, env);
  const started = performance.now();
  const running = await createApp(config);
  const createMs = performance.now() - started;

  const json = async (method: string, path: string, options: { key?: string; body?: unknown; expect?: number | number[] } = {}) => {
    const headers: Record<string, string> = {};
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, running.url), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    const expected = options.expect ?? (method === 'POST' ? [200, 201] : [200]);
    if (!(Array.isArray(expected) ? expected : [expected]).includes(response.status)) {
      throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  };

  return {
    ...dirs,
    url: running.url,
    running,
    createMs,
    json,
    async openAccount() {
      const body = await json('POST', '/admin/accounts', { key: BENCH_ADMIN_TOKEN, body: { name: 'Bench agency' }, expect: 201 });
      return { accountId: body.account._id, apiKey: body.apiKey };
    },
    projectionsCaughtUp: (timeoutMs) => running.app.get(ProjectionRunner).waitUntilCaughtUp(timeoutMs),
    async close({ keepData = false } = {}) {
      await running.close();
      if (!keepData) removeBenchDirs(dirs);
    },
  };
}

/** Waits until GET /health answers 200; returns when it did. */
export async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(new URL('/health', url));
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`/health did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
