import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AUTOCOMPLETE_PATH } from '../google-autocomplete.client';

export interface SeenAutocompleteRequest {
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

type Failure = 'block' | 'server-error' | 'malformed' | 'reset' | { delayMs: number };

/**
 * Google's `/complete/search?client=firefox` on 127.0.0.1: answers `[q, [phrases…], [], {}]` as
 * text/javascript in the charset it is set to (UTF-8, or ISO-8859-1, a legacy charset Google
 * still answers some locales in); a block is a 429 HTML page, as Google's
 * "unusual traffic" answer. The phrases are the ones set for the query, else four made from it.
 */
export class FakeGoogleAutocomplete {
  readonly requests: SeenAutocompleteRequest[] = [];
  readonly phrases = new Map<string, string[]>();
  charset = 'UTF-8';
  private failure: Failure | undefined;
  private readonly queued: Failure[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeGoogleAutocomplete> {
    const server = createServer();
    const fake = new FakeGoogleAutocomplete(server);
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname !== AUTOCOMPLETE_PATH) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>');
        return;
      }
      fake.requests.push({ query: url.searchParams, headers: req.headers });
      fake.answer(url.searchParams, res);
    });
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** As GOOGLE_BASE_URL takes it. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every request gets this until `failWith(undefined)`. */
  failWith(failure: Failure | undefined): void {
    this.failure = failure;
  }

  failNext(failure: Failure, times = 1): void {
    for (let i = 0; i < times; i++) this.queued.push(failure);
  }

  reset(): void {
    this.requests.length = 0;
    this.phrases.clear();
    this.charset = 'UTF-8';
    this.failure = undefined;
    this.queued.length = 0;
  }

  async close(): Promise<void> {
    this.timers.forEach((timer) => clearTimeout(timer));
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(query: URLSearchParams, res: ServerResponse): void {
    const failure = this.queued.shift() ?? this.failure;
    if (failure !== undefined) {
      if (failure === 'block')
        res.writeHead(429, { 'content-type': 'text/html' }).end('<html><body>Our systems have detected unusual traffic</body></html>');
      else if (failure === 'server-error') res.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
      else if (failure === 'malformed')
        res.writeHead(200, { 'content-type': 'text/javascript; charset=UTF-8' }).end('["q",{"not":"a list"}]');
      else if (failure === 'reset') res.socket?.destroy();
      else {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/javascript; charset=UTF-8' }).end('["q",[]]');
        }, failure.delayMs);
        this.timers.add(timer);
      }
      return;
    }
    if (query.get('client') !== 'firefox') {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<html>Bad Request</html>');
      return;
    }
    const q = query.get('q') ?? '';
    const phrases = this.phrases.get(q) ?? [q, `${q} near me`, `${q} price`, `${q} reviews`];
    const body = JSON.stringify([q, phrases, [], { 'google:suggesttype': phrases.map(() => 'QUERY') }]);
    const encoded = Buffer.from(new TextEncoderFor(this.charset).encode(body));
    res.writeHead(200, { 'content-type': `text/javascript; charset=${this.charset}` }).end(encoded);
  }
}

/** Node encodes only UTF-8 and Latin-1 natively; those two are what the fake speaks. */
class TextEncoderFor {
  constructor(private readonly charset: string) {}

  encode(text: string): Uint8Array {
    if (/^(utf-?8)$/i.test(this.charset)) return Buffer.from(text, 'utf8');
    if (/^(iso-8859-1|latin1|windows-1252)$/i.test(this.charset)) return Buffer.from(text, 'latin1');
    throw new Error(`the fake cannot encode ${this.charset}`);
  }
}

export function startGoogleAutocompleteFake(): Promise<FakeGoogleAutocomplete> {
  return FakeGoogleAutocomplete.start();
}
