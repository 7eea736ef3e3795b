/**
 * The records side of the API over real HTTP, against the real app in this process:
 *  (a) adding 3,500 keywords (the per-project maximum) in one POST /api/projects/keywords, on fresh projects;
 *  (b) GET /api/projects/:id of a project with 3,500 keywords: latency one request at a time, then throughput;
 *  (c) authenticated GET /api/projects against the same server's GET /health, same load: the ratio is
 *      what authentication (an account-stream read per request) and the workspace read cost.
 * Load comes from a worker thread (see support/load.ts). Takes about 20 s.
 */
import { performance } from 'node:perf_hooks';
import { startBenchApp } from './support/bench-app';
import { runLoad, LoadResult } from './support/load';
import { addKeywords, createProject, FULL_PROJECT_KEYWORDS } from './support/projects';
import { median, ms, perSecond, quantile, ratio, thousands } from './support/stats';

const FRESH_PROJECTS = 5;
const DETAIL_REQUESTS = 200;
const CONNECTIONS = 32;
const LOAD_SECONDS = 5;

export async function run(): Promise<void> {
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
    const detailUrl = `${app.url}/api/projects/${projectId}`;
    const sequential = await runLoad({ url: detailUrl, headers: auth, connections: 1, requests: DETAIL_REQUESTS, warmupRequests: 10 });
    assertClean('GET /api/projects/:id', sequential);
    const detailLoad = await runLoad({ url: detailUrl, headers: auth, connections: CONNECTIONS, durationMs: LOAD_SECONDS * 1000, warmupRequests: CONNECTIONS });
    assertClean('GET /api/projects/:id', detailLoad);
    console.log(`(b) GET /api/projects/:id, ${thousands(FULL_PROJECT_KEYWORDS)} keywords (${thousands(sequential.bytes / sequential.requests)} bytes per answer):`);
    console.log(
      `    one at a time, ${DETAIL_REQUESTS} requests: median ${ms(median(sequential.latencies))}, p95 ${ms(quantile(sequential.latencies, 0.95))}, ` +
        `${thousands(perSecond(sequential.requests, sequential.elapsedMs))} req/s`,
    );
    console.log(`    ${describeLoad(detailLoad)}`);

    // (c) Same connections, same duration, one after the other on the same server.
    const list = await runLoad({ url: `${app.url}/api/projects`, headers: auth, connections: CONNECTIONS, durationMs: LOAD_SECONDS * 1000, warmupRequests: CONNECTIONS });
    assertClean('GET /api/projects', list);
    const health = await runLoad({ url: `${app.url}/health`, connections: CONNECTIONS, durationMs: LOAD_SECONDS * 1000, warmupRequests: CONNECTIONS });
    assertClean('GET /health', health);
    const listRate = perSecond(list.requests, list.elapsedMs);
    const healthRate = perSecond(health.requests, health.elapsedMs);
    console.log(`(c) GET /api/projects (authenticated, ${FRESH_PROJECTS} projects) vs GET /health:`);
    console.log(`    /api/projects: ${describeLoad(list)}`);
    console.log(`    /health:       ${describeLoad(health)}`);
    console.log(
      `    ratio: /api/projects serves ${((listRate / healthRate) * 100).toFixed(0)}% of /health's req/s; ` +
        `it costs the server thread ${ratio(list.serverBusyMsPerRequest, health.serverBusyMsPerRequest)} the time of /health per request`,
    );
    console.log(`    (load: ${CONNECTIONS} keep-alive connections from a worker thread, node:http; no wrk/autocannon installed)`);
  } finally {
    await app.close();
  }
}

function describeLoad(result: LoadResult): string {
  return (
    `${CONNECTIONS} connections for ${(result.elapsedMs / 1000).toFixed(1)} s: ${thousands(perSecond(result.requests, result.elapsedMs))} req/s, ` +
    `median ${ms(median(result.latencies))}, p95 ${ms(quantile(result.latencies, 0.95))}; ` +
    `server thread ${(result.serverUtilization * 100).toFixed(0)}% busy, ${result.serverBusyMsPerRequest.toFixed(3)} ms per request`
  );
}

/** Errors would make a fast, wrong figure: refuse to print one. */
function assertClean(what: string, result: LoadResult): void {
  if (result.errors > 0) throw new Error(`${what}: ${result.errors} of ${result.requests + result.errors} requests failed, first: ${result.firstError}`);
}
