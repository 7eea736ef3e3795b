/**
 * The records side of the API over real HTTP, against the real app in this process:
 *  (a) adding 3,500 keywords (the per-project maximum) in one POST /api/projects/keywords, on fresh projects;
 *  (b) GET /api/projects/:id of a project with 3,500 keywords: latency one request at a time, then throughput;
 *  (c) authenticated GET /api/projects against the same server's GET /health, same load: the ratio is
 *      what authentication (an account-stream read per request) and the workspace read cost.
 * Load comes from a worker thread (see support/load.ts). Records projectDetail and authGetVsHealth,
 * each over MIN_RUNS rounds. Takes about 40 s.
 */
import { performance } from 'node:perf_hooks';
import { startBenchApp } from './support/bench-app';
import { runLoad, LoadResult } from './support/load';
import { addKeywords, createProject, FULL_PROJECT_KEYWORDS } from './support/projects';
import { median, ms, perSecond, quantile, ratio, thousands } from './support/stats';
import type { BenchContext } from './benches';
import { MIN_RUNS, recordFigure, withPeakRss } from './support/results';

const FRESH_PROJECTS = 5;
const DETAIL_REQUESTS = 200;
const CONNECTIONS = 32;
/** Each figure is MIN_RUNS rounds of this long after a warm-up; the rounds give the median, min and max. */
const ROUND_SECONDS = 2;

export async function run(context: BenchContext): Promise<void> {
  const app = await startBenchApp();
  try {
    const { apiKey } = await app.openAccount();
    const auth = { authorization: `Bearer ${apiKey}` };

    // (a) One project per measurement: the first add to a project is the case that matters (an import).
    const addTimes: number[] = [];
    let projectId = '';
    for (let i = 0; i < FRESH_PROJECTS; i++) {
      projectId = await createProject(app, apiKey, `Bench shop ${i}`);
      const started = performance.now();
      await addKeywords(app, apiKey, projectId, FULL_PROJECT_KEYWORDS);
      addTimes.push(performance.now() - started);
    }
    console.log(`(a) POST /api/projects/keywords with ${thousands(FULL_PROJECT_KEYWORDS)} keywords, ${FRESH_PROJECTS} fresh projects:`);
    console.log(`    median ${ms(median(addTimes))}, all: ${addTimes.map((t) => t.toFixed(0)).join(', ')} ms`);

    // (b) The last project has its 3,500 keywords.
    if (context.wants('projectDetail')) {
      const detailUrl = `${app.url}/api/projects/${projectId}`;
      const sequential = await runLoad({ url: detailUrl, headers: auth, connections: 1, requests: DETAIL_REQUESTS, warmupRequests: 10 });
      assertClean('GET /api/projects/:id', sequential);
      const { value: rounds, peakRssMb } = await withPeakRss(() => loadRounds(detailUrl, auth, 'GET /api/projects/:id'));
      console.log(
        `(b) GET /api/projects/:id, ${thousands(FULL_PROJECT_KEYWORDS)} keywords (${thousands(sequential.bytes / sequential.requests)} bytes per answer):`,
      );
      console.log(
        `    one at a time, ${DETAIL_REQUESTS} requests: median ${ms(median(sequential.latencies))}, p95 ${ms(quantile(sequential.latencies, 0.95))}, ` +
          `${thousands(perSecond(sequential.requests, sequential.elapsedMs))} req/s`,
      );
      for (const round of rounds) console.log(`    ${describeLoad(round)}`);
      recordFigure('projectDetail', {
        apiMs: rounds.map((r) => median(r.latencies)),
        ops: rounds.map((r) => perSecond(r.requests, r.elapsedMs)),
        opsUnit: 'req/s',
        peakRssMb,
        note: `GET /api/projects/:id, ${FULL_PROJECT_KEYWORDS} keywords, ${CONNECTIONS} connections; apiMs is the median latency under that load`,
      });
    }

    // (c) Same connections, same duration, one after the other on the same server, round after round.
    if (context.wants('authGetVsHealth')) {
      const pairs: { list: LoadResult; health: LoadResult }[] = [];
      const { peakRssMb } = await withPeakRss(async () => {
        await runLoad({
          url: `${app.url}/api/projects`,
          headers: auth,
          connections: CONNECTIONS,
          requests: CONNECTIONS * 20,
          warmupRequests: CONNECTIONS,
        });
        await runLoad({ url: `${app.url}/health`, connections: CONNECTIONS, requests: CONNECTIONS * 20, warmupRequests: CONNECTIONS });
        for (let i = 0; i < MIN_RUNS; i++) {
          const list = await runLoad({
            url: `${app.url}/api/projects`,
            headers: auth,
            connections: CONNECTIONS,
            durationMs: ROUND_SECONDS * 1000,
          });
          assertClean('GET /api/projects', list);
          const health = await runLoad({ url: `${app.url}/health`, connections: CONNECTIONS, durationMs: ROUND_SECONDS * 1000 });
          assertClean('GET /health', health);
          pairs.push({ list, health });
        }
      });
      const rate = (r: LoadResult) => perSecond(r.requests, r.elapsedMs);
      console.log(
        `(c) GET /api/projects (authenticated, ${FRESH_PROJECTS} projects) vs GET /health, ${MIN_RUNS} rounds of ${ROUND_SECONDS} s each:`,
      );
      for (const { list, health } of pairs) {
        console.log(`    /api/projects: ${describeLoad(list)}`);
        console.log(`    /health:       ${describeLoad(health)}`);
        console.log(
          `    ratio: /api/projects serves ${((rate(list) / rate(health)) * 100).toFixed(0)}% of /health's req/s; ` +
            `it costs the server thread ${ratio(serverCost(list), serverCost(health))} the CPU of /health per request`,
        );
      }
      console.log(`    (load: ${CONNECTIONS} keep-alive connections from a worker thread on raw sockets; no wrk/autocannon installed)`);
      recordFigure('authGetVsHealth', {
        apiMs: pairs.map((p) => median(p.list.latencies)),
        ratio: pairs.map((p) => rate(p.list) / rate(p.health)),
        ops: pairs.map((p) => rate(p.list)),
        opsUnit: 'req/s',
        peakRssMb,
        // The server thread's own cost per request beside the req/s: what the route costs, less swayed by
        // how fast the shared machine ran during each round.
        note:
          'ratio = authenticated GET /api/projects req/s over GET /health req/s, each pair measured back to back; ' +
          `server thread CPU per request, medians: /api/projects ${median(pairs.map((p) => serverCost(p.list))).toFixed(3)} ms, ` +
          `/health ${median(pairs.map((p) => serverCost(p.health))).toFixed(3)} ms (the pairs' cost ratios ` +
          `${pairs.map((p) => (serverCost(p.health) / serverCost(p.list)).toFixed(2)).join(', ')})`,
      });
    }
  } finally {
    await app.close();
  }
}

/** MIN_RUNS load rounds of ROUND_SECONDS each on `url`, after one warm-up at the same concurrency. */
async function loadRounds(url: string, headers: Record<string, string>, what: string): Promise<LoadResult[]> {
  await runLoad({ url, headers, connections: CONNECTIONS, requests: CONNECTIONS * 5, warmupRequests: CONNECTIONS });
  const rounds: LoadResult[] = [];
  for (let i = 0; i < MIN_RUNS; i++) {
    const round = await runLoad({ url, headers, connections: CONNECTIONS, durationMs: ROUND_SECONDS * 1000 });
    assertClean(what, round);
    rounds.push(round);
  }
  return rounds;
}

function describeLoad(result: LoadResult): string {
  return (
    `${CONNECTIONS} connections for ${(result.elapsedMs / 1000).toFixed(1)} s: ${thousands(perSecond(result.requests, result.elapsedMs))} req/s, ` +
    `median ${ms(median(result.latencies))}, p95 ${ms(quantile(result.latencies, 0.95))}; ` +
    `server thread ${(result.serverUtilization * 100).toFixed(0)}% busy, ${result.serverBusyMsPerRequest.toFixed(3)} ms busy` +
    (result.serverCpuMsPerRequest === undefined ? '' : ` / ${result.serverCpuMsPerRequest.toFixed(3)} ms CPU`) +
    ' per request' +
    // The client's share of its core: near 100 % it, not the server, set the req/s.
    (result.clientCpuMs === undefined ? '' : `; client ${((result.clientCpuMs / result.elapsedMs) * 100).toFixed(0)}% of a core`)
  );
}

/** The server thread's CPU time per request where the platform gives it (its busy time also counts waits for a core that other processes held), else its busy time. */
function serverCost(result: LoadResult): number {
  return result.serverCpuMsPerRequest ?? result.serverBusyMsPerRequest;
}

/** Errors would make a fast, wrong figure: refuse to print one. */
function assertClean(what: string, result: LoadResult): void {
  if (result.errors > 0)
    throw new Error(`${what}: ${result.errors} of ${result.requests + result.errors} requests failed, first: ${result.firstError}`);
}
