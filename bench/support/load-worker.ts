/**
 * The client side of load.ts, run in a worker thread. Reports one LoadResult and exits.
 *
 * Raw keep-alive sockets, not node:http: each connection writes the same request bytes, encoded
 * once, and reads each answer only as far as its framing (status, Content-Length or chunks; see
 * http-response-reader.ts). node:http's client built a request object, header objects and a stream
 * per request, about as much CPU as the server spent on /health, so at 30,000 req/s the client and not
 * the server was the limit of the cheap routes and the ratios between routes were understated.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { HttpResponseReader, type ReadResponse } from './http-response-reader';
import type { LoadSpec, WorkerReport } from './load';
import { threadCpuMs } from './thread-cpu';

type Measured = Extract<WorkerReport, { type: 'result' }>['result'];

/** The request as bytes on the wire: GET, HTTP/1.1 (keep-alive by default), Host, the spec's headers. */
function encodeRequest(target: URL, headers: Record<string, string> = {}): Buffer {
  const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(name + value)) throw new Error(`header ${name} holds a line break`);
    lines.push(`${name}: ${value}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/**
 * One keep-alive connection sending the request again each time an answer is complete, while
 * `next()` says so. A socket that fails or closes with a request in flight counts one error and is
 * replaced; the loop goes on, as a client's pool would.
 */
class LoadConnection {
  private socket: Socket | undefined;
  private closed = false;
  private sentAt = 0;
  private inFlight = false;
  private onIdle: (() => void) | undefined;
  private next: () => boolean = () => false;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly request: Buffer,
    private readonly expectStatus: number,
    private readonly record: (latencyMs: number, response: ReadResponse | Error) => void,
  ) {
    // Opened now, so that connecting is not part of the first measured request.
    this.socket = this.open();
  }

  /** Sends requests while `next()` says so; resolves when the last answer is in. */
  run(next: () => boolean): Promise<void> {
    this.next = next;
    return new Promise((resolve) => {
      this.onIdle = resolve;
      this.sendOrStop();
    });
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
  }

  private open(): Socket {
    const socket = connect(this.target);
    socket.setNoDelay(true);
    const reader = new HttpResponseReader(
      (response) => this.answered(response),
      (status) => status !== this.expectStatus,
    );
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.feed(chunk);
      } catch (error) {
        this.lost(socket, error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.on('error', (error) => this.lost(socket, error));
    socket.on('close', () => this.lost(socket, new Error('connection closed by the server')));
    return socket;
  }

  private answered(response: ReadResponse): void {
    this.inFlight = false;
    this.record(performance.now() - this.sentAt, response);
    this.sendOrStop();
  }

  /** The socket is done for; the next request opens another. Late events of an old socket are ignored. */
  private lost(socket: Socket, error: Error): void {
    if (socket !== this.socket || this.closed) return;
    this.socket = undefined;
    socket.destroy();
    if (!this.inFlight) return;
    this.inFlight = false;
    this.record(performance.now() - this.sentAt, error);
    this.sendOrStop();
  }

  private sendOrStop(): void {
    if (this.next()) {
      this.socket ??= this.open();
      this.inFlight = true;
      this.sentAt = performance.now();
      this.socket.write(this.request);
      return;
    }
    const idle = this.onIdle;
    this.onIdle = undefined;
    idle?.();
  }
}

async function main(spec: LoadSpec): Promise<Measured> {
  const expectStatus = spec.expectStatus ?? 200;
  const target = new URL(spec.url);
  if (target.protocol !== 'http:') throw new Error(`the load client speaks plain HTTP only, not ${target.protocol}`);
  const request = encodeRequest(target, spec.headers);

  let measuring = false;
  let warmupFailure: string | undefined;
  const result: Measured = { requests: 0, errors: 0, elapsedMs: 0, latencies: [], bytes: 0 };
  const record = (latencyMs: number, response: ReadResponse | Error) => {
    const failure =
      response instanceof Error
        ? String(response)
        : response.status !== expectStatus
          ? `Error: HTTP ${response.status}: ${response.bodyStart?.toString('utf8') ?? ''}`
          : undefined;
    if (!measuring) {
      // A warm-up answer is not counted, but a failing route must not pass the warm-up unnoticed.
      warmupFailure ??= failure;
      return;
    }
    if (failure !== undefined) {
      result.errors++;
      result.firstError ??= failure;
      return;
    }
    result.latencies.push(latencyMs);
    result.bytes += (response as ReadResponse).bodyBytes;
    result.requests++;
  };
  const endpoint = { host: target.hostname, port: Number(target.port || 80) };
  const connections = Array.from({ length: spec.connections }, () => new LoadConnection(endpoint, request, expectStatus, record));

  // Warm-up, with the same concurrency so the connections are already open when measuring.
  let warmups = spec.warmupRequests ?? 0;
  await Promise.all(connections.map((connection) => connection.run(() => warmups-- > 0)));
  if (warmupFailure !== undefined) throw new Error(`warm-up request failed: ${warmupFailure}`);

  // The main thread notes its clocks when told, then says go: nothing is sent in between.
  await new Promise<void>((resolve) => {
    parentPort!.once('message', () => resolve());
    parentPort!.postMessage({ type: 'measuring' } satisfies WorkerReport);
  });
  measuring = true;
  const clientCpuAtStart = threadCpuMs();
  const started = performance.now();
  const deadline = spec.durationMs === undefined ? Infinity : started + spec.durationMs;
  let remaining = spec.requests ?? Infinity;
  await Promise.all(connections.map((connection) => connection.run(() => remaining-- > 0 && performance.now() < deadline)));
  result.elapsedMs = performance.now() - started;
  const clientCpuAtEnd = threadCpuMs();
  if (clientCpuAtStart !== undefined && clientCpuAtEnd !== undefined) result.clientCpuMs = clientCpuAtEnd - clientCpuAtStart;
  for (const connection of connections) connection.close();
  return result;
}

main(workerData as LoadSpec).then(
  (result) => parentPort!.postMessage({ type: 'result', result } satisfies WorkerReport),
  (error: unknown) => {
    throw error;
  },
);
