import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the fake scraping API does with one request. */
export type ScrapingApiReply =
  /** Fetch the target URL (a local fake Google) and hand back its HTML and status, as these APIs do. */
  | { kind: 'forward' }
  /** The API's own error, in its own format (JSON), e.g. a bad key or credits used up. */
  | { kind: 'api-error'; status: number; body: unknown }
  /** A body that is not a page at all. */
  | { kind: 'text'; status: number; body: string }
  /** Answer after `ms` (longer than the client's timeout plays a stuck API). */
  | { kind: 'delay'; ms: number; then: ScrapingApiReply };

export interface ScrapingApiRequest {
  apiKey: string | null;
  /** The target URL, decoded from the `url` parameter. */
  target: string;
}

/**
 * A local stand-in for a raw-HTML scraping API as ScraperAPI and ScrapingBee document theirs:
 * `GET /?api_key=KEY&url=<URL-encoded target>` answers with the target page's HTML and the target's
 * status; a missing or wrong key is refused with 401 and a JSON error. Targets must be on 127.0.0.1.
 */
export class FakeScrapingApi {
  readonly requests: ScrapingApiRequest[] = [];
  reply: (request: ScrapingApiRequest) => ScrapingApiReply = () => ({ kind: 'forward' });
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly apiKey: string,
  ) {}

  static async start(apiKey = 'test-scraping-key'): Promise<FakeScrapingApi> {
    const server = createServer();
    const fake = new FakeScrapingApi(server, apiKey);
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request = { apiKey: url.searchParams.get('api_key'), target: url.searchParams.get('url') ?? '' };
      fake.requests.push(request);
      const send = async (reply: ScrapingApiReply): Promise<void> => {
        if (reply.kind === 'delay') {
          const timer = setTimeout(() => {
            fake.timers.delete(timer);
            void send(reply.then);
          }, reply.ms);
          fake.timers.add(timer);
          return;
        }
        if (reply.kind === 'api-error') {
          res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
          return;
        }
        if (reply.kind === 'text') {
          res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body);
          return;
        }
        try {
          const target = await fetch(request.target, { signal: AbortSignal.timeout(10_000) });
          res.writeHead(target.status, { 'content-type': 'text/html; charset=utf-8' }).end(await target.text());
        } catch (error) {
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: `could not fetch the target: ${String(error)}` }));
        }
      };
      if (request.apiKey !== fake.apiKey) void send({ kind: 'api-error', status: 401, body: { error: 'Invalid API key' } });
      else if (!request.target.startsWith('http://127.0.0.1:'))
        void send({ kind: 'api-error', status: 400, body: { error: 'test targets must be local' } });
      else void send(fake.reply(request));
    });
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** A `SERP_FETCH_URL_TEMPLATE` for this fake, ScraperAPI-style. */
  get template(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/?api_key=${this.apiKey}&url={url}`;
  }

  async close(): Promise<void> {
    this.timers.forEach((timer) => clearTimeout(timer));
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
