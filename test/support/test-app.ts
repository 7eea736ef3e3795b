import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createApp, RunningApp } from '../../apps/api/src/bootstrap';
import { AppConfig, loadConfig } from '@rank/platform/config/app-config';
import type { Clock } from '@rank/platform/tokens';
import { processChdbPath } from './chdb-path';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface HttpResponse<Body = any> {
  status: number;
  body: Body;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** A raw body, sent as is (for malformed JSON). */
  rawBody?: string;
  query?: Record<string, string | string[] | number | undefined>;
  headers?: Record<string, string>;
}

export interface TestApp {
  url: string;
  running: RunningApp;
  dataDir: string;
  request<Body = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<Body>>;
  /** Opens an account through the operator API; returns its id and first key. */
  createAccount(body?: Record<string, unknown>): Promise<{ accountId: string; apiKey: string }>;
  admin<Body = any>(method: string, path: string, body?: unknown): Promise<HttpResponse<Body>>;
  /**
   * Stops the app, drops its ClickHouse database, and removes its data directory when this helper made
   * it (a directory passed in is the test's to remove). `keepData` keeps both, for a restart on the
   * same data: a database left behind stays in this process's chDB engine, which loads every table
   * again each time it starts.
   */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * The real service, on an ephemeral loopback port, with the real embedded stores: its own SQLite
 * file, and its own ClickHouse database inside this process's one chDB engine.
 */
export async function startTestApp(
  options: { env?: Record<string, string>; clock?: Clock; dataDir?: string; database?: string } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'rank-tracker-test-'));
  const database = options.database ?? `t_${randomBytes(6).toString('hex')}`;
  // A start that fails (tests of bad configuration do that on purpose) leaves no data directory behind.
  const dropOwnDataDir = () => {
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let running: RunningApp;
  try {
    running = await createApp(configFor(dataDir, database, options.env), { clock: options.clock });
  } catch (error) {
    dropOwnDataDir();
    throw error;
  }

  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<HttpResponse> => {
    const url = new URL(path, running.url);
    for (const [name, value] of Object.entries(opts.query ?? {})) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
    }
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let payload: string | undefined;
    if (opts.rawBody !== undefined) payload = opts.rawBody;
    else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
    if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
    return { status: response.status, body, text, headers: response.headers };
  };

  const admin = (method: string, path: string, body?: unknown) => request(method, path, { key: TEST_ADMIN_TOKEN, body });

  return {
    url: running.url,
    running,
    dataDir,
    request,
    admin,
    async createAccount(body = {}) {
      const response = await admin('POST', '/admin/accounts', body);
      if (response.status !== 201) throw new Error(`could not open an account: ${response.status} ${response.text}`);
      return { accountId: response.body.account._id, apiKey: response.body.apiKey };
    },
    async close({ keepData = false } = {}) {
      await running.close({
        beforeStoresClose: async (stores) => {
          if (!keepData) await stores.readStore.command(`DROP DATABASE IF EXISTS ${database}`);
        },
      });
      if (!keepData) dropOwnDataDir();
    },
  };
}

function configFor(dataDir: string, database: string, env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CHDB_PATH: processChdbPath(),
    CLICKHOUSE_DATABASE: database,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    GOOGLE_BASE_URL: 'http://127.0.0.1:9',
    // Page speed measures a new project's home page in the background; without PAGESPEED_* that is a
    // Lighthouse run against the real site. Tests stay on this machine: a refused local port instead.
    PAGESPEED_BASE_URL: 'http://127.0.0.1:9',
    // The scheduler and the scraper stay off unless a test turns them on: a cron firing in the middle
    // of an unrelated test would add checks it does not expect.
    ROLES: 'api,projections',
    // Pacing (a few seconds between requests to Google by default) only where a test asks for it.
    SCRAPER_MIN_INTERVAL_MS: '0',
    ...env,
  });
}
