import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the fake Google received. */
export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  /** `start` as Google reads it: absent means 0. */
  start: number;
  /** When the request arrived (epoch ms), for pacing checks. */
  at: number;
  headers: IncomingHttpHeaders;
}

export type FakeReply =
  | { kind: 'page'; html: string; status?: number; headers?: Record<string, string> }
  /** Answer only after `ms` (or never, until the server closes): a slow or stuck Google. */
  | { kind: 'delay'; ms: number; then: FakeReply }
  /** Drop the connection without an answer. */
  | { kind: 'reset' };

export type FakeGoogleHandler = (request: SeenRequest) => FakeReply | Promise<FakeReply>;

/**
 * A local HTTP server on 127.0.0.1 that plays Google: tests decide what each request gets and
 * read back what was asked. Only `/search` requests are handed to the handler and logged; other
 * paths (scripts and styles the saved pages ask for) get a 404, or what `servePath` set, and are
 * counted apart; the browser's own request for a page's icon gets a 404 and is not counted.
 */
export class FakeGoogle {
  readonly searches: SeenRequest[] = [];
  otherRequests: string[] = [];
  private otherPaths = new Map<string, FakeReply>();
  private handler: FakeGoogleHandler = () => ({ kind: 'page', html: '<html><body>no handler</body></html>' });
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeGoogle> {
    const server = createServer();
    const fake = new FakeGoogle(server);
    server.on('request', (req, res) => void fake.answer(req.url ?? '/', req.headers, res));
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `start` values of the searches so far, in order. */
  get starts(): number[] {
    return this.searches.map((request) => request.start);
  }

  /** Sets what the next requests get and forgets the requests (and `servePath` pages) so far. */
  reset(handler: FakeGoogleHandler): void {
    this.handler = handler;
    this.searches.length = 0;
    this.otherRequests = [];
    this.otherPaths = new Map();
  }

  /** What a path other than `/search` gets (whatever the Host header), until the next `reset`. */
  servePath(path: string, reply: FakeReply): void {
    this.otherPaths.set(path, reply);
  }

  async close(): Promise<void> {
    this.timers.forEach((timer) => clearTimeout(timer));
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(rawUrl: string, headers: IncomingHttpHeaders, res: ServerResponse): Promise<void> {
    const url = new URL(rawUrl, 'http://fake.google');
    // Chromium asks for a page's icon on its own, whenever it gets round to it after the page loaded:
    // no request of the fetcher's, so not one to count (a test saw it arrive after its check ended).
    if (url.pathname === '/favicon.ico') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (url.pathname !== '/search') {
      this.otherRequests.push(url.pathname);
      const reply = this.otherPaths.get(url.pathname);
      if (reply) await this.send(reply, res);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const seen: SeenRequest = {
      path: url.pathname,
      query: url.searchParams,
      start: Number(url.searchParams.get('start') ?? '0'),
      at: Date.now(),
      headers,
    };
    this.searches.push(seen);
    await this.send(await this.handler(seen), res);
  }

  private async send(reply: FakeReply, res: ServerResponse): Promise<void> {
    switch (reply.kind) {
      case 'page':
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...reply.headers }).end(reply.html);
        return;
      case 'delay':
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            resolve();
          }, reply.ms);
          this.timers.add(timer);
        });
        if (!res.destroyed) await this.send(reply.then, res);
        return;
      case 'reset':
        res.socket?.destroy();
        return;
    }
  }
}

/** A page that is answered with the given status and a short body. */
export function statusReply(status: number): FakeReply {
  return { kind: 'page', status, html: `<html><body><h1>${status}</h1></body></html>` };
}
