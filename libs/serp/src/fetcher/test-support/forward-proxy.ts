import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ForwardProxyOptions {
  /** Written into `x-test-proxy` on forwarded requests, so the fake Google knows the way a request came. */
  name: string;
  /** When set, requests without these Basic credentials get 407. */
  credentials?: { username: string; password: string };
}

/**
 * A plain HTTP forward proxy on 127.0.0.1 for `http://` targets (what a browser sends to a proxy
 * for a non-TLS URL: `GET http://host/path`). Enough to show which proxy carried which request.
 */
export class ForwardProxy {
  /** Absolute URLs this proxy forwarded. */
  readonly forwarded: string[] = [];
  /** Requests refused with 407 for missing credentials. */
  challenged = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly options: ForwardProxyOptions,
  ) {}

  static async start(options: ForwardProxyOptions): Promise<ForwardProxy> {
    const server = createServer();
    const proxy = new ForwardProxy(server, options);
    server.on('request', (req, res) => {
      if (!proxy.authorised(req.headers['proxy-authorization'])) {
        proxy.challenged++;
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"' }).end();
        return;
      }
      const target = new URL(req.url ?? '');
      proxy.forwarded.push(target.toString());
      const headers: Record<string, string | string[] | undefined> = { ...req.headers, 'x-test-proxy': options.name };
      delete headers['proxy-authorization'];
      delete headers['proxy-connection'];
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    server.on('connection', (socket) => {
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `http://[user:pass@]127.0.0.1:port`, as it would appear in SCRAPER_PROXIES. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    const credentials = this.options.credentials;
    const auth = credentials ? `${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@` : '';
    return `http://${auth}127.0.0.1:${port}`;
  }

  /** Forwarded `/search` requests. */
  get searches(): number {
    return this.forwarded.filter((url) => new URL(url).pathname === '/search').length;
  }

  async close(): Promise<void> {
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private authorised(header: string | undefined): boolean {
    const credentials = this.options.credentials;
    if (!credentials) return true;
    const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    return header === expected;
  }
}
