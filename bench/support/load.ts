/**
 * HTTP load from a worker thread: `connections` loops, each sending its next request as soon as the
 * previous answer's body is read, for a fixed time or a fixed number of requests.
 *
 * Why a worker and not loops on the main thread: the app runs on the main thread, so client code
 * there would take its CPU and the figure would be half client. In a worker (the machine has 2
 * cores) the client has its own core and isolate. No wrk or autocannon is installed, and the
 * benches must not install anything, hence this, on raw sockets (load-worker.ts) to keep the client
 * cheaper than the cheapest route it measures.
 *
 * Each result says what limited it: how busy the app's thread was, and the CPU time per request of
 * the app's thread and of the client's. A server thread well below 100 % busy while the client's is
 * near its core means the client, not the route, set the req/s.
 */
import { join } from 'node:path';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { threadCpuMs } from './thread-cpu';

/** What the worker tells the main thread: it is about to measure (and waits for a reply), then its result. */
export type WorkerReport =
  | { type: 'measuring' }
  | { type: 'result'; result: Omit<LoadResult, 'serverUtilization' | 'serverBusyMsPerRequest' | 'serverCpuMsPerRequest'> };

export interface LoadSpec {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Stop after this long (ms)... */
  durationMs?: number;
  /** ...or after this many requests in all. */
  requests?: number;
  /** Requests sent (and not counted) before measuring, to warm the JIT and the caches. */
  warmupRequests?: number;
  /** Status every answer must have; others count as errors. */
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** First error seen, if any, for the report. */
  firstError?: string;
  elapsedMs: number;
  /** Per-request latency (ms), one per counted request. */
  latencies: number[];
  bytes: number;
  /**
   * Share of the measured time the main thread (the app's event loop: routing, guards, JSON,
   * SQLite reads) was busy, 0..1. Near 1 the server is saturated; well below it the client or
   * ClickHouse threads are the limit, and req/s understates the server.
   */
  serverUtilization: number;
  /** Main-thread busy time per request (ms): the server's own cost, whatever the client's speed, but counting waits for a core. */
  serverBusyMsPerRequest: number;
  /** Main-thread CPU time per request (ms), on Linux: the server's own CPU cost, without the waits. */
  serverCpuMsPerRequest?: number;
  /** The client thread's CPU time over the measured time (ms), on Linux. */
  clientCpuMs?: number;
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.durationMs === undefined && spec.requests === undefined) throw new Error('runLoad needs durationMs or requests');
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'load-worker.js'), { workerData: spec });
    let settled = false;
    let fromMeasuring: EventLoopUtilization | undefined;
    let cpuFromMeasuring: number | undefined;
    worker.on('message', (message: WorkerReport) => {
      if (message.type === 'measuring') {
        fromMeasuring = performance.eventLoopUtilization();
        cpuFromMeasuring = threadCpuMs();
        worker.postMessage('go');
        return;
      }
      settled = true;
      const busy = performance.eventLoopUtilization(fromMeasuring);
      const cpuNow = threadCpuMs();
      const { result } = message;
      const requests = Math.max(1, result.requests);
      resolve({
        ...result,
        serverUtilization: busy.utilization,
        serverBusyMsPerRequest: busy.active / requests,
        serverCpuMsPerRequest: cpuNow !== undefined && cpuFromMeasuring !== undefined ? (cpuNow - cpuFromMeasuring) / requests : undefined,
      });
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`load worker exited with code ${code} before reporting`));
    });
  });
}
