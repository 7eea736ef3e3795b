import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', dataDir: '/srv/app/data', adminToken: undefined });
    expect(config.scraper.baseUrl).toBe('https://www.google.com');
    expect(config.clickhouse.database).toBe('rank_tracker');
    expect([...config.roles].sort()).toEqual(['api', 'projections', 'scheduler', 'scraper']);
    // serp-check answers within a minute: the MCP SDK client and many reverse proxies give up at 60 s.
    expect(config.serpCheckTimeoutMs).toBe(50_000);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        CLICKHOUSE_URL: 'ftp://x',
        ADMIN_TOKEN: 'short',
        ROLES: 'api,cook',
        EVENTSTORE_CONNECTION_STRING: 'http://x',
        GOOGLE_BASE_URL: 'not a url',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'CLICKHOUSE_URL', 'ADMIN_TOKEN', 'ROLES', 'EVENTSTORE_CONNECTION_STRING', 'GOOGLE_BASE_URL'])
      expect(problems).toContain(name);
  });

  it('reads the operations settings: LOG_FORMAT, METRICS_TOKEN, READY_MAX_LAG_*', () => {
    expect(loadConfig({}, '/srv/app')).toMatchObject({
      logFormat: 'auto',
      metricsToken: undefined,
      readyMaxLag: { events: 10_000, seconds: 300 },
    });
    expect(
      loadConfig({ LOG_FORMAT: 'json', METRICS_TOKEN: 'm'.repeat(16), READY_MAX_LAG_EVENTS: '5', READY_MAX_LAG_SECONDS: '7' }, '/srv/app'),
    ).toMatchObject({ logFormat: 'json', metricsToken: 'm'.repeat(16), readyMaxLag: { events: 5, seconds: 7 } });
    expect(() => loadConfig({ LOG_FORMAT: 'xml', METRICS_TOKEN: 'short', READY_MAX_LAG_EVENTS: '-1' })).toThrow(
      /LOG_FORMAT[\s\S]*METRICS_TOKEN[\s\S]*READY_MAX_LAG_EVENTS/,
    );
  });

  it('reads OPS_PORT, where the projector and scraper apps answer /health, /ready and /metrics, and names a bad one', () => {
    expect(loadConfig({}, '/srv/app').opsPort).toBeUndefined();
    expect(loadConfig({ OPS_PORT: '' }, '/srv/app').opsPort).toBeUndefined();
    expect(loadConfig({ OPS_PORT: '0' }, '/srv/app').opsPort).toBe(0);
    expect(loadConfig({ OPS_PORT: '9464' }, '/srv/app').opsPort).toBe(9464);
    expect(() => loadConfig({ OPS_PORT: '70000' })).toThrow('OPS_PORT must be a whole number from 0 to 65535 (got "70000")');
    // Written in digits: these were read as 1000 and 16.
    expect(() => loadConfig({ PORT: '1e3' })).toThrow('PORT must be a whole number from 0 to 65535 (got "1e3")');
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '0x10' })).toThrow(
      'HTTP_MAX_CONNECTIONS must be a whole number from 1 to 1000000 (got "0x10")',
    );
  });

  it('reads REDIS_URL, where the rate-limit counters are shared, and names it when it is not a redis URL', () => {
    expect(loadConfig({}, '/srv/app').redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://redis:6379/0' }, '/srv/app').redisUrl).toBe('redis://redis:6379/0');
    expect(() => loadConfig({ REDIS_URL: 'http://redis:6379' })).toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  /** The problems a start is refused with. */
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      return (error as ConfigError).problems;
    }
    throw new Error('the configuration was accepted');
  };

  it('names a URL it refuses without its password: a bad port or scheme must not print the credentials', () => {
    const refusal = (env: Record<string, string>) => problemsOf(env).join('\n');
    const redis = refusal({ REDIS_URL: 'redis://user:REDIS-PW-SECRET@127.0.0.1:abc' });
    expect(redis).toContain('REDIS_URL must be a redis:// or rediss:// URL (got "redis://***@127.0.0.1:abc")');
    const clickhouse = refusal({ CLICKHOUSE_URL: 'http://u:CH-PW-SECRET@127.0.0.1:99999' });
    expect(clickhouse).toContain('CLICKHOUSE_URL must be an http(s) URL (got "http://***@127.0.0.1:99999")');
    const provider = refusal({ PAGESPEED_BASE_URL: 'htp://u:PSI/PW-SECRET@127.0.0.1/x' });
    expect(provider).toContain('PAGESPEED_BASE_URL must be an http(s) URL (got "htp://***@127.0.0.1/x")');
    // A password whose % escape does not decode: the clients' URIError named no variable.
    const escaped = refusal({ REDIS_URL: 'redis://u:PW-SECRET%@127.0.0.1:6379', CLICKHOUSE_URL: 'http://u:PW-SECRET%@127.0.0.1:8123' });
    expect(escaped).toContain('REDIS_URL must be a redis:// or rediss:// URL (got "redis://***@127.0.0.1:6379")');
    expect(escaped).toContain('CLICKHOUSE_URL must be an http(s) URL (got "http://***@127.0.0.1:8123")');
    for (const message of [redis, clickhouse, provider, escaped]) expect(message).not.toMatch(/PW-SECRET/);
  });

  it('refuses a user and password in a provider URL, and never prints one however the URL is written', () => {
    const refusal = problemsOf;
    // Before: OPENAI_BASE_URL and DATAFORSEO_BASE_URL with a password were accepted, and fetch's
    // refusal quoted the password into the log, the events and keyword-suggestions' lastError.
    expect(refusal({ OPENAI_BASE_URL: 'http://user:URL-PW-SECRET@127.0.0.1:9/v1', OPENAI_MODEL: 'm' })).toEqual([
      'OPENAI_BASE_URL must not carry a user or password (got "http://***@127.0.0.1:9/v1"): a provider\'s key goes in its own variable',
    ]);
    // Read by the keyword providers and the SERP sources: one message.
    expect(
      refusal({
        DATAFORSEO_BASE_URL: 'http://u:URL-PW-SECRET@127.0.0.1:9',
        SERP_SOURCES: 'dataforseo',
        DATAFORSEO_LOGIN: 'l',
        DATAFORSEO_PASSWORD: 'p',
      }),
    ).toEqual([
      'DATAFORSEO_BASE_URL must not carry a user or password (got "http://***@127.0.0.1:9"): a provider\'s key goes in its own variable',
    ]);
    // Before, these printed the password as written.
    const printed = [
      ...refusal({ GOOGLE_BASE_URL: 'https://user:URL-PW-SECRET@www.google.com' }),
      ...refusal({ SERP_SOURCES: 'serpapi', SERPAPI_API_KEY: 'k'.repeat(20), SERPAPI_BASE_URL: 'ftp://user:URL-PW-SECRET@h' }),
      ...refusal({ CLICKHOUSE_URL: 'default:URL-PW-SECRET@127.0.0.1:9' }),
      ...refusal({ SCRAPER_PROXIES: 'user:URL-PW-SECRET@proxy.example:8080' }),
    ];
    expect(printed).toEqual([
      'GOOGLE_BASE_URL must be a plain http(s) origin such as https://www.google.com, got "https://***@www.google.com"',
      'SERPAPI_BASE_URL must be an http(s) URL (got "ftp://***@h")',
      'CLICKHOUSE_URL must be an http(s) URL (got "***@127.0.0.1:9")',
      expect.stringMatching(/^SCRAPER_PROXIES entry 1 \(\*\*\*@proxy.example:8080\): /),
    ]);
    // A proxy password whose % escape does not decode stopped the start with a URIError's stack.
    expect(refusal({ SCRAPER_PROXIES: 'http://user:Super%zzURL-PW-SECRET@127.0.0.1:8080' })).toEqual([
      'SCRAPER_PROXIES entry 1 (http://***@127.0.0.1:8080): the user or password has a percent escape that does not decode (write a literal % as %25)',
    ]);
    // GOOGLE_BASE_URL with a password and no user was taken (the password dropped without a word).
    expect(refusal({ GOOGLE_BASE_URL: 'http://:URL-PW-SECRET@127.0.0.1:9' })).toEqual([
      'GOOGLE_BASE_URL must be a plain http(s) origin such as https://www.google.com, got "http://***@127.0.0.1:9"',
    ]);
    // ClickHouse takes its user and password in the URL.
    expect(loadConfig({ CLICKHOUSE_URL: 'http://default:pw@127.0.0.1:8123', ROLES: 'api,projections' }).clickhouse.url).toBe(
      'http://default:pw@127.0.0.1:8123',
    );
  });

  it('refuses an api without projections on the embedded ClickHouse, which nothing else writes, and ROLES naming no role', () => {
    expect(() => loadConfig({ ROLES: 'api,scraper' })).toThrow(
      'ROLES has api without projections, so CLICKHOUSE_URL must name the ClickHouse server the projector writes',
    );
    expect([...loadConfig({ ROLES: 'api', CLICKHOUSE_URL: 'http://clickhouse:8123' }, '/srv/app').roles]).toEqual(['api']);
    expect([...loadConfig({ ROLES: 'scraper' }, '/srv/app').roles]).toEqual(['scraper']);
    expect(() => loadConfig({ ROLES: ',' })).toThrow('ROLES must name at least one of api, projections, scheduler, scraper');
  });

  it('reads MCP_ALLOWED_ORIGINS, the browser origins allowed to call /api/mcp, and names an entry that is not an origin', () => {
    expect(loadConfig({}, '/srv/app').mcpAllowedOrigins).toEqual([]);
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: 'https://agents.example.com, http://localhost:8080' }, '/srv/app').mcpAllowedOrigins).toEqual([
      'https://agents.example.com',
      'http://localhost:8080',
    ]);
    // The same origin written another way is taken as browsers send it (before, refused as "with a path").
    expect(
      loadConfig({ MCP_ALLOWED_ORIGINS: 'https://Agents.example.com:443, http://Tools.example.com/' }, '/srv/app').mcpAllowedOrigins,
    ).toEqual(['https://agents.example.com', 'http://tools.example.com']);
    for (const bad of [
      'agents.example.com',
      'ftp://agents.example.com',
      'https://agents.example.com/app',
      'https://agents.example.com?x=1',
    ])
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: bad })).toThrow(
        `MCP_ALLOWED_ORIGINS must list http(s) origins such as https://app.example.com, with no path, query or user (got "${bad}")`,
      );
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'https://u:ORIGIN-PW-SECRET@agents.example.com' })).toThrow(
      'MCP_ALLOWED_ORIGINS must list http(s) origins such as https://app.example.com, with no path, query or user (got "https://***@agents.example.com")',
    );
  });

  it('reads the keyword providers and names a half-configured one and a bad base URL', () => {
    const config = loadConfig({ DATAFORSEO_LOGIN: 'login', DATAFORSEO_PASSWORD: 'password', OPENAI_API_KEY: 'sk-test' }, '/srv/app');
    expect(config.keywordProviders.dataForSeo).toEqual({ login: 'login', password: 'password', baseUrl: 'https://api.dataforseo.com' });
    expect(config.keywordProviders.googleAds).toBeUndefined();
    expect(config.keywordProviders.llm?.model).toBe('gpt-4o-mini');
    let error: unknown;
    try {
      loadConfig({ GOOGLE_ADS_DEVELOPER_TOKEN: 'secret-token', DATAFORSEO_BASE_URL: 'ftp://x', SERP_SOURCES: 'browser' });
    } catch (e) {
      error = e;
    }
    const problems = (error as ConfigError).problems;
    expect(problems.join('\n')).toContain('GOOGLE_ADS_CLIENT_ID');
    expect(problems.join('\n')).not.toContain('secret-token');
    expect(problems.filter((problem) => problem.startsWith('DATAFORSEO_BASE_URL'))).toEqual([
      'DATAFORSEO_BASE_URL must be an http(s) URL (got "ftp://x")',
    ]);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', ADMIN_TOKEN: '  ' }).port).toBe(3000);
  });

  it('refuses a CHROMIUM_PATH that points at nothing, but only where a scraper runs', () => {
    expect(() => loadConfig({ CHROMIUM_PATH: '/nowhere/chromium' })).toThrow(
      'CHROMIUM_PATH is set to "/nowhere/chromium", but no file exists there',
    );
    expect(loadConfig({ CHROMIUM_PATH: '/nowhere/chromium', ROLES: 'api,projections' }).port).toBe(3000);
  });

  it('refuses a CHROMIUM_PATH that is a directory or a file that cannot be run (before, the first check failed instead)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chromium-path-'));
    const text = join(dir, 'chromium.txt');
    writeFileSync(text, 'not a browser', { mode: 0o644 });
    try {
      expect(() => loadConfig({ CHROMIUM_PATH: dir })).toThrow(
        `CHROMIUM_PATH is set to "${dir}", which is a directory, not the browser binary`,
      );
      expect(() => loadConfig({ CHROMIUM_PATH: text })).toThrow(`CHROMIUM_PATH is set to "${text}", which is not executable`);
      expect(loadConfig({ CHROMIUM_PATH: process.execPath }).port).toBe(3000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
