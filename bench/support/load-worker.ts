/**
 * The client side of load.ts, run in a worker thread. Reports one LoadResult and exits.
 *
 * node:http with a keep-alive agent rather than fetch: fetch costs about twice the CPU per request,
 * and on 2 cores the client must stay cheaper than the server or it, not the server, is measured.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadResult, LoadSpec } from './load';

async function main(spec: LoadSpec): Promise<Omit<LoadResult, 'serverUtilization' | 'serverBusyMsPerRequest'>> {
  const expectStatus = spec.expectStatus ?? 200;
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const target = new URL(spec.url);

  const once = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(target, { agent, headers: spec.headers }, (res) => {
        let bytes = 0;
        const head: Buffer[] = [];
        // Reading the whole body is part of the request: an answer is not served until it is sent.
        res.on('data', (chunk: Buffer) => {
          if (bytes < 300) head.push(chunk);
          bytes += chunk.length;
        });
        res.on('end', () => {
          if (res.statusCode === expectStatus) resolve(bytes);
          else reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(head).toString('utf8', 0, 300)}`));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  // Warm-up, with the same concurrency so the connections are already open when measuring.
  let warmups = spec.warmupRequests ?? 0;
  await Promise.all(
    Array.from({ length: Math.min(spec.connections, Math.max(warmups, 0)) }, async () => {
      while (warmups-- > 0) await once();
    }),
  );

  parentPort!.postMessage({ type: 'measuring' });
  const result: Omit<LoadResult, 'serverUtilization' | 'serverBusyMsPerRequest'> = {
    requests: 0,
    errors: 0,
    elapsedMs: 0,
    latencies: [],
    bytes: 0,
  };
  const started = performance.now();
  const deadline = spec.durationMs === undefined ? Infinity : started + spec.durationMs;
  let remaining = spec.requests ?? Infinity;
  const loop = async () => {
    while (performance.now() < deadline && remaining-- > 0) {
      const sent = performance.now();
      try {
        result.bytes += await once();
        result.latencies.push(performance.now() - sent);
        result.requests++;
      } catch (error) {
        result.errors++;
        result.firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, loop));
  result.elapsedMs = performance.now() - started;
  agent.destroy();
  return result;
}

main(workerData as LoadSpec).then(
  (result) => parentPort!.postMessage({ type: 'result', result }),
  (error: unknown) => {
    throw error;
  },
);
