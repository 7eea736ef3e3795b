import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request a fake provider received. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  /** The request's headers (an API's credentials travel here, e.g. HTTP Basic). */
  headers: IncomingMessage['headers'];
}

/** What the fake answers: a JSON body, raw text (a malformed answer), a late answer, or a dropped connection. */
export type FakeAnswer =
  | { kind: 'json'; status?: number; body: unknown }
  | { kind: 'text'; status?: number; body: string; contentType?: string }
  | { kind: 'delay'; ms: number; then: FakeAnswer }
  | { kind: 'reset' };

export type FakeRoute = (request: SeenRequest) => FakeAnswer;

/** The failure modes every provider's fake offers, in the provider's own transport. */
export const FAILURES = {
  serverError: (status = 503): FakeAnswer => ({
    kind: 'json',
    status,
    body: { error: { code: status, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } },
  }),
  malformed: (): FakeAnswer => ({
    kind: 'text',
    status: 200,
    body: '{"lighthouseResult": {"categories": ',
    contentType: 'application/json',
  }),
  htmlPage: (status = 502): FakeAnswer => ({
    kind: 'text',
    status,
    body: '<html><body>Bad gateway</body></html>',
    contentType: 'text/html',
  }),
  reset: (): FakeAnswer => ({ kind: 'reset' }),
  /** Answers only after `ms`: longer than the client's timeout plays a stuck provider. */
  slow: (ms: number, then: FakeAnswer): FakeAnswer => ({ kind: 'delay', ms, then }),
} as const;

/**
 * A local HTTP server on 127.0.0.1 playing an outside JSON API: a route answers each request as the
 * provider documents it, `failWith` overrides every answer with a failure until cleared, and the
 * requests are kept for the test to read.
 */
export class FakeJsonApi {
  readonly requests: SeenRequest[] = [];
  private failure: FakeAnswer | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    private route: FakeRoute,
  ) {}

  static async start(route: FakeRoute): Promise<FakeJsonApi> {
    const server = createServer();
    const fake = new FakeJsonApi(server, route);
    server.on('request', (req, res) => void fake.handle(req, res));
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every request gets this until `failWith(undefined)`. */
  failWith(answer: FakeAnswer | undefined): void {
    this.failure = answer;
  }

  setRoute(route: FakeRoute): void {
    this.route = route;
  }

  async close(): Promise<void> {
    this.timers.forEach((timer) => clearTimeout(timer));
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = raw;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const request: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body, headers: req.headers };
    this.requests.push(request);
    this.send(res, this.failure ?? this.route(request));
  }

  private send(res: ServerResponse, answer: FakeAnswer): void {
    switch (answer.kind) {
      case 'json':
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(answer.body));
        return;
      case 'text':
        res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'text/plain' });
        res.end(answer.body);
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) this.send(res, answer.then);
        }, answer.ms);
        this.timers.add(timer);
        return;
      }
      case 'reset':
        res.socket?.destroy();
        return;
    }
  }
}
