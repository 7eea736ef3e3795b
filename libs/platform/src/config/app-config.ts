import { isAbsolute, join, resolve } from 'node:path';
import { chromiumPathProblem } from '@rank/serp/browser/chromium-path-error';
import { SerpFetcherConfig, SerpFetcherConfigError, serpFetcherConfigFromEnv } from '@rank/serp/fetcher/serp-fetcher-config';
import { DomainDataProvidersConfig, domainDataProvidersConfigFromEnv } from '@rank/providers/domain-data-config';
import { decodedUserinfo, envReader } from '@rank/domain/env-reader';
import { KeywordProvidersConfig, keywordProvidersConfigFromEnv } from '@rank/providers/keyword-data/keyword-data-config';
import { SerpSourcesConfig, serpSourcesConfigFromEnv } from '@rank/serp/sources/serp-sources-config';
import { withoutUserinfo } from '@rank/domain/secret-text';
import { StartRefusal } from '../start-refusal';

/** Which parts of the system this process runs. Standalone runs them all in one process. */
export type Role = 'api' | 'projections' | 'scheduler' | 'scraper';
const ROLES: readonly Role[] = ['api', 'projections', 'scheduler', 'scraper'];

export interface AppConfig {
  port: number;
  host: string;
  /**
   * OPS_PORT: where the distributed projector and scraper apps answer /health, /ready and /metrics
   * (on HOST); unset, they serve no HTTP. The api serves those on PORT and ignores it.
   */
  opsPort: number | undefined;
  dataDir: string;
  /** Where the embedded ClickHouse (chDB) keeps its data; one path per process. */
  chdbPath: string;
  /** Enables the operator API under /admin when set. */
  adminToken: string | undefined;
  eventStoreConnectionString: string | undefined;
  clickhouse: { url: string | undefined; user: string | undefined; password: string | undefined; database: string };
  plansFile: string | undefined;
  roles: ReadonlySet<Role>;
  /** The scraper's page loading (GOOGLE_BASE_URL, timeouts, retries, proxies): `SCRAPER_*` variables. */
  scraper: SerpFetcherConfig;
  /** Checks one scraper process runs at once. */
  scraperChecksAtOnce: number;
  /** Where result pages come from, in failover order (SERP_SOURCES), and what each source needs. */
  serpSources: SerpSourcesConfig;
  /** The environment, for the parts that read their own variables (Chromium's path). */
  env: Env;
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  /** LOG_FORMAT: JSON lines, Nest's pretty lines, or `auto` (pretty on a terminal, JSON otherwise). */
  logFormat: 'json' | 'pretty' | 'auto';
  /** When set, GET /metrics wants `Authorization: Bearer <METRICS_TOKEN>`; unset, it is public. */
  metricsToken: string | undefined;
  /** /ready answers 503 when a projection is further behind the log than this (READY_MAX_LAG_EVENTS, READY_MAX_LAG_SECONDS). */
  readyMaxLag: { events: number; seconds: number };
  /** Budget of the aggregate-state cache, in MiB (AGGREGATE_CACHE_MB). */
  aggregateCacheMb: number;
  /** HTTP limits: the whole request must arrive within this (slow bodies are cut off), and at most this many connections. */
  http: { requestTimeoutMs: number; maxConnections: number };
  /** Page speed (PAGESPEED_*; local Lighthouse when unset), CrUX history (CRUX_*) and traffic (SIMILARWEB_*) providers. */
  domainData: DomainDataProvidersConfig;
  /** Keyword data (DATAFORSEO_* or GOOGLE_ADS_*, GOOGLE_OAUTH_TOKEN_URL) and the language model (OPENAI_*); undefined = not configured. */
  keywordProviders: KeywordProvidersConfig;
  /** REDIS_URL: where the per-account rate-limit counters live, shared by every api replica; unset, each process counts alone. */
  redisUrl: string | undefined;
  /**
   * SERP_CHECK_TIMEOUT_MS: how long serp-check waits for a scraper's first page before answering
   * without it. 50 s by default, so that the answer comes within the 60 s after which the MCP SDK's
   * client and common reverse proxies (nginx's proxy_read_timeout, load balancers' idle timeouts) give up.
   */
  serpCheckTimeoutMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM/SIGINT let the process close (checks under way finish) before it exits anyway. */
  shutdownTimeoutMs: number;
  /** MCP_ALLOWED_ORIGINS: the browser origins, besides loopback ones, whose pages may call /api/mcp. */
  mcpAllowedOrigins: readonly string[];
}

export class ConfigError extends StartRefusal {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads and checks every variable at once, so an operator sees all mistakes in one go, each message
 * naming the variable. Unset and empty mean the same: the default.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): AppConfig {
  const { problems, get, httpUrl } = envReader(env);

  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    // Digits only: Number() would take "1e3" as 1000 and "0x10" as 16.
    const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = get('HOST') ?? '127.0.0.1';
  const opsPort = get('OPS_PORT') === undefined ? undefined : integer('OPS_PORT', 0, 0, 65535);
  const dataDirRaw = get('DATA_DIR') ?? './data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const adminToken = get('ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 32) problems.push('ADMIN_TOKEN must be at least 32 characters long');

  const eventStoreConnectionString = get('EVENTSTORE_CONNECTION_STRING');
  if (
    eventStoreConnectionString !== undefined &&
    !/^(esdb|kurrentdb|kurrent|esdb\+discover|kurrentdb\+discover):\/\//.test(eventStoreConnectionString)
  ) {
    problems.push('EVENTSTORE_CONNECTION_STRING must start with esdb:// or kurrentdb:// (with +discover for a cluster)');
  }

  const database = get('CLICKHOUSE_DATABASE') ?? 'rank_tracker';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(database)) problems.push(`CLICKHOUSE_DATABASE must be a plain identifier (got "${database}")`);

  const rolesRaw = get('ROLES');
  const roles = new Set<Role>(ROLES);
  if (rolesRaw !== undefined) {
    roles.clear();
    for (const r of rolesRaw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if ((ROLES as readonly string[]).includes(r)) roles.add(r as Role);
      else problems.push(`ROLES may hold only ${ROLES.join(', ')} (got "${r}")`);
    }
    if (roles.size === 0 && problems.every((p) => !p.startsWith('ROLES')))
      problems.push(`ROLES must name at least one of ${ROLES.join(', ')}`);
  }
  // The embedded ClickHouse (chDB) is one process's own: an API that does not write its read models
  // would answer from tables nothing ever fills.
  if (roles.has('api') && !roles.has('projections') && get('CLICKHOUSE_URL') === undefined)
    problems.push(
      'ROLES has api without projections, so CLICKHOUSE_URL must name the ClickHouse server the projector writes: the embedded ClickHouse (chDB) is read only by the process that writes it',
    );

  // Only a scraper drives the browser; elsewhere the variable may be left over from a shared env file.
  const chromiumPath = get('CHROMIUM_PATH');
  const chromiumProblem = chromiumPath !== undefined && roles.has('scraper') ? chromiumPathProblem(chromiumPath) : undefined;
  if (chromiumProblem) problems.push(chromiumProblem.message);

  const logLevelRaw = get('LOG_LEVEL') ?? 'log';
  const logLevels = ['error', 'warn', 'log', 'debug'] as const;
  if (!(logLevels as readonly string[]).includes(logLevelRaw)) problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')}`);

  const logFormatRaw = get('LOG_FORMAT') ?? 'auto';
  const logFormats = ['json', 'pretty', 'auto'] as const;
  if (!(logFormats as readonly string[]).includes(logFormatRaw)) problems.push(`LOG_FORMAT must be one of ${logFormats.join(', ')}`);

  const metricsToken = get('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters long');
  const readyMaxLag = {
    events: integer('READY_MAX_LAG_EVENTS', 10_000, 0, 100_000),
    seconds: integer('READY_MAX_LAG_SECONDS', 300, 0, 86_400),
  };

  let scraper: SerpFetcherConfig | undefined;
  try {
    scraper = serpFetcherConfigFromEnv(env);
  } catch (error) {
    if (!(error instanceof SerpFetcherConfigError)) throw error;
    problems.push(...error.problems);
  }
  const scraperChecksAtOnce = integer('SCRAPER_CHECKS_AT_ONCE', 2, 1, 64);
  const serpSources = serpSourcesConfigFromEnv(env, problems);
  const aggregateCacheMb = integer('AGGREGATE_CACHE_MB', 64, 0, 65_536);
  const domainData = domainDataProvidersConfigFromEnv(env);
  problems.push(...domainData.problems);
  const keywordProviders = keywordProvidersConfigFromEnv(env);
  // DATAFORSEO_BASE_URL is read by the SERP sources too: one message is enough.
  problems.push(...keywordProviders.problems.filter((problem) => !problems.includes(problem)));
  const redisUrl = get('REDIS_URL');
  if (redisUrl !== undefined && !isRedisUrl(redisUrl))
    problems.push(`REDIS_URL must be a redis:// or rediss:// URL (got "${withoutUserinfo(redisUrl)}")`);
  // Kept as browsers send them (`https://app.example.com`): a host in capitals, a default port or a
  // trailing slash is the same origin written another way.
  const mcpAllowedOrigins: string[] = [];
  for (const entry of (get('MCP_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)) {
    const origin = originOf(entry);
    if (origin === null)
      problems.push(
        `MCP_ALLOWED_ORIGINS must list http(s) origins such as https://app.example.com, with no path, query or user (got "${withoutUserinfo(entry)}")`,
      );
    else mcpAllowedOrigins.push(origin);
  }
  const http = {
    requestTimeoutMs: integer('HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    maxConnections: integer('HTTP_MAX_CONNECTIONS', 1_024, 1, 1_000_000),
  };

  const config: AppConfig = {
    port,
    host,
    opsPort,
    dataDir,
    chdbPath: get('CHDB_PATH') ?? join(dataDir, 'clickhouse'),
    adminToken,
    eventStoreConnectionString,
    clickhouse: {
      url: httpUrl('CLICKHOUSE_URL', undefined, { credentials: true }),
      user: get('CLICKHOUSE_USER'),
      password: get('CLICKHOUSE_PASSWORD'),
      database,
    },
    plansFile: get('PLANS_FILE'),
    roles,
    scraper: scraper as SerpFetcherConfig,
    scraperChecksAtOnce,
    serpSources,
    env,
    logLevel: logLevelRaw as AppConfig['logLevel'],
    logFormat: logFormatRaw as AppConfig['logFormat'],
    metricsToken,
    readyMaxLag,
    aggregateCacheMb,
    http,
    domainData: domainData.config,
    keywordProviders: keywordProviders.config,
    redisUrl,
    serpCheckTimeoutMs: integer('SERP_CHECK_TIMEOUT_MS', 50_000, 100, 600_000),
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS', 20_000, 1_000, 600_000),
    mcpAllowedOrigins,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The origin an http(s) URL names (`scheme://host[:port]`, lowercased, default port dropped); null for anything else. */
/** The origin `text` names (scheme, host and a port other than the default), or null when it says more or less than one. */
function originOf(text: string): string | null {
  try {
    const url = new URL(text);
    const http = (url.protocol === 'http:' || url.protocol === 'https:') && /^https?:\/\//i.test(text);
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    return http && bare ? url.origin : null;
  } catch {
    return null;
  }
}

/** What ioredis can connect to: a URL it parses (it uses `new URL`, which throws on a bad port) with a redis scheme. */
function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    decodedUserinfo(url);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}
