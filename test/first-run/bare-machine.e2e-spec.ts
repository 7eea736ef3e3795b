import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HIDE_SYSTEM_BROWSERS_FOR_TESTS } from '@rank/serp/browser/chromium';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';

/**
 * The README's first run, as a newcomer does it: a fresh copy of the repository, `npm start`, and
 * the quick start over HTTP, on a machine whose system Chromium cannot run. The browser must then
 * be the one bundled in node_modules (@sparticuz/chromium), unpacked on first use. Google is a
 * local server answering every search with a saved result page where simplyrecipes.com is 5th.
 *
 * The system browser is hidden with an empty tmpfs over its directory in a private mount
 * namespace (`unshare -m` as root, `unshare -rm` otherwise); where neither is allowed, the chooser
 * is told to ignore system browsers through a test-only variable, and the test says so.
 */
const REPO = resolve(__dirname, '..', '..');
const ADMIN_TOKEN = 'first-run-admin-token-0123456789abcdef';
/** Where the usual system browsers keep their binaries: Debian's and Ubuntu's Chromium, Google Chrome. */
const SYSTEM_BROWSER_DIRS = ['/usr/lib/chromium', '/usr/lib/chromium-browser', '/opt/google/chrome'];
const KEYWORD = 'how to boil eggs';
const RANKING_URL = 'https://www.simplyrecipes.com/recipes/how_to_make_perfect_hard_boiled_eggs/';

jest.setTimeout(300_000);

/** How to start a command where the system browsers cannot run: a mount-namespace wrapper, or the test-only variable. */
function hideSystemBrowsers(): { wrap: (command: string[]) => string[]; env: Record<string, string>; how: string } {
  const dirs = SYSTEM_BROWSER_DIRS.filter((dir) => existsSync(dir));
  if (dirs.length === 0) return { wrap: (command) => command, env: {}, how: 'no system browser installed' };
  const flags = process.getuid?.() === 0 ? ['-m'] : ['-r', '-m'];
  // sh -c SCRIPT sh N DIR… COMMAND…: mounts an empty tmpfs over the N directories, then runs the command.
  const script = 'n=$1; shift; while [ "$n" -gt 0 ]; do mount -t tmpfs none "$1" || exit 97; shift; n=$((n - 1)); done; exec "$@"';
  const inNamespace = (command: string[]) => ['unshare', ...flags, 'sh', '-c', script, 'sh', String(dirs.length), ...dirs, ...command];
  const [probeCommand, ...probeArgs] = inNamespace(['true']);
  const probe = spawnSync(probeCommand!, probeArgs, { timeout: 10_000 });
  if (probe.status === 0)
    return { wrap: inNamespace, env: {}, how: `unshare ${flags.join(' ')} with an empty tmpfs over ${dirs.join(', ')}` };
  return {
    wrap: (command) => command,
    env: { [HIDE_SYSTEM_BROWSERS_FOR_TESTS]: '1' },
    how: `${HIDE_SYSTEM_BROWSERS_FOR_TESTS}=1 (unshare failed: ${probe.stderr?.toString().trim()})`,
  };
}

async function http(method: string, url: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined;
  return { status: response.status, text, json, headers: response.headers };
}

describe('First run on a machine without a browser: npm start and the README quick start', () => {
  const work = mkdtempSync(join(tmpdir(), 'rank-tracker-first-run-'));
  const clone = join(work, 'repo');
  let google: FakeGoogle;
  let service: ChildProcess | undefined;
  let output = '';
  const tail = () => output.slice(-4_000);

  /** Resolves with the first match of `pattern` in the service's output, or fails with what it printed. */
  const waitForOutput = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolvePromise, reject) => {
      const deadline = Date.now() + timeoutMs;
      const poll = () => {
        const match = output.match(pattern);
        if (match) return resolvePromise(match);
        if (service?.exitCode !== null || Date.now() > deadline) {
          return reject(new Error(`no ${pattern} in the service's output (exit ${service?.exitCode}); it printed:\n${tail()}`));
        }
        setTimeout(poll, 100);
      };
      poll();
    });

  beforeAll(async () => {
    google = await FakeGoogle.start();
    const page = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');
    google.reset(() => ({ kind: 'page', html: page }));

    // A fresh copy of what is committed, with the dependencies `npm install` put in the working repository.
    const cloned = spawnSync('git', ['clone', '--quiet', REPO, clone], { timeout: 60_000, encoding: 'utf8' });
    if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`);
    symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'), 'dir');
    // Its own temp directory: the bundled Chromium unpacks there, as on a machine that never ran it.
    mkdirSync(join(work, 'tmp'));
  });

  afterAll(async () => {
    if (service?.pid !== undefined) {
      // The whole process group: npm, the shell it starts, and the service, which closes its stores
      // after npm has gone; the data can be removed only once the group is empty.
      const group = -service.pid;
      const groupAlive = () => {
        try {
          process.kill(group, 0);
          return true;
        } catch {
          return false;
        }
      };
      const gone = async (ms: number) => {
        for (const deadline = Date.now() + ms; Date.now() < deadline;) {
          if (!groupAlive()) return true;
          await new Promise((r) => setTimeout(r, 100));
        }
        return !groupAlive();
      };
      if (groupAlive()) {
        process.kill(group, 'SIGTERM');
        if (!(await gone(20_000))) {
          process.kill(group, 'SIGKILL');
          await gone(5_000);
        }
      }
    }
    await google?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('starts with npm start, runs a check with the bundled Chromium, and answers the quick start', async () => {
    const hidden = hideSystemBrowsers();
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    for (const name of Object.keys(env))
      if (name.startsWith('CHROMIUM_') || name.startsWith('JEST') || name === 'NODE_ENV') delete env[name];
    Object.assign(env, hidden.env, {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      ADMIN_TOKEN,
      GOOGLE_BASE_URL: google.baseUrl,
      // The new project's home page would be measured by Lighthouse on the real site: keep the test on this machine.
      PAGESPEED_BASE_URL: 'http://127.0.0.1:9',
      TMPDIR: join(work, 'tmp'),
      LOG_LEVEL: 'log',
    });

    const startedAt = Date.now();
    const [command, ...args] = hidden.wrap(['npm', 'start']);
    const child = spawn(command!, args, { cwd: clone, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    service = child;
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const [, url] = await waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 180_000);
    const startSeconds = (Date.now() - startedAt) / 1000;
    // The chooser's start-up line: the system browser was passed over (or hidden) for the bundled one.
    expect(output).toMatch(/Browser: bundled @sparticuz\/chromium, unpacked on first use to /);
    expect(output).not.toMatch(/Browser: system browser/);

    // The quick start: an account with a balance, a project, a keyword, check now.
    const opened = await http('POST', `${url}/admin/accounts`, { token: ADMIN_TOKEN, body: { name: 'My agency', balance: 100 } });
    expect(opened.status).toBe(201);
    const key = opened.json.apiKey as string;
    const project = await http('POST', `${url}/api/projects`, { token: key, body: { name: 'Eggs', domain: 'simplyrecipes.com' } });
    expect(project.status).toBe(201);
    const projectId = project.json.project._id as string;
    const added = await http('POST', `${url}/api/projects/keywords`, {
      token: key,
      body: { projectId, keywords: [KEYWORD], geoCode: 'US', langCode: 'en' },
    });
    expect(added.status).toBe(200);
    const keywordId = added.json.project.keywords[0] as string;

    const checkAskedAt = Date.now();
    const scrape = await http('POST', `${url}/api/scrape/new-keywords`, { token: key, body: { projectId, keywordIds: [keywordId] } });
    expect(scrape.status).toBe(200);
    expect(scrape.json).toMatchObject({ success: true, status: 'processing', summary: { total: 1, accepted: 1, errors: 0 } });

    // keyword-updates until the check is settled: the bundled browser unpacks, starts and loads the page.
    type Update = { _id: string; status: string; position: { position: number; url: string }; failureReason?: string };
    let updates: Update[] = [];
    const deadline = Date.now() + 120_000;
    while (updates.length === 0) {
      if (Date.now() > deadline) throw new Error(`no check result within 120 s; the service printed:\n${tail()}`);
      await new Promise((r) => setTimeout(r, 500));
      const read = await http('GET', `${url}/api/projects/keyword-updates?projectId=${projectId}`, { token: key });
      expect(read.status).toBe(200);
      updates = read.json.data[keywordId]?.updates ?? [];
    }
    const checkSeconds = (Date.now() - checkAskedAt) / 1000;
    expect(updates).toHaveLength(1);
    if (updates[0]!.status !== 'success') throw new Error(`the check failed: ${JSON.stringify(updates[0])}\n${tail()}`);
    expect(updates[0]!.position).toMatchObject({ position: 5, url: RANKING_URL });
    expect(output).toMatch(/Browser started: 143\./);
    expect(google.searches.length).toBeGreaterThan(0);

    const history = await http('GET', `${url}/api/projects/position-history?keywordUpdateId=${updates[0]!._id}`, { token: key });
    expect(history.status).toBe(200);
    expect(history.json.data.resultList[4]).toMatchObject({ position: 5, domain: 'simplyrecipes.com', url: RANKING_URL });

    const csv = await http('GET', `${url}/api/projects/export?projectId=${projectId}&format=full`, { token: key });
    expect(csv.status).toBe(200);
    const [header, row] = csv.text.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toMatch(/^Keyword;SERP;Volume;URL;Change;\d{4}-\d{2}-\d{2}$/);
    expect(row).toBe(`${KEYWORD};5;;${RANKING_URL};;5`);

    process.stdout.write(
      `first run: system browser hidden by ${hidden.how}; npm start to listening ${startSeconds.toFixed(1)} s; ` +
        `first check (unpack, launch, load) ${checkSeconds.toFixed(1)} s; whole test ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
    );
  });
});
