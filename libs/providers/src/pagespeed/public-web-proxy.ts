import { lookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, isIP, type AddressInfo, type Socket } from 'node:net';
import { isPublicAddress } from './public-address';

/** Where a host's connections go: a checked address, or a site a test maps the host to. */
interface Target {
  host: string;
  port: number;
}

export interface PublicWebProxyOptions {
  /** Looks a host name up; DNS by default. */
  resolve?: (hostname: string) => Promise<string[]>;
  /**
   * Host names served by local test sites (`site.example` → `127.0.0.1:4100`), taken as they are.
   * Tests only: the service never sets it.
   */
  localSites?: ReadonlyMap<string, Target>;
}

/**
 * The only way out of Lighthouse's Chromium: an HTTP proxy on 127.0.0.1 that connects only to
 * public internet addresses. The domain checks refuse IP addresses and private names up front, but
 * the page Lighthouse loads decides where the browser goes next: a redirect, a subresource or a
 * script's fetch to 169.254.169.254 or a service on the service's own network would be a request
 * forgery. The proxy looks each host up itself and connects to the address it checked, so neither a
 * redirect nor a public name resolving to a private address gets through. HTTPS goes through as a
 * CONNECT tunnel (the browser still checks the certificate end to end).
 */
export class PublicWebProxy {
  /** The hosts refused for a non-public address, in order (for the error when the page could not load). */
  readonly refused: string[] = [];
  /** The browser's connections to the proxy and the proxy's to the sites: all cut when it closes. */
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly options: PublicWebProxyOptions,
  ) {}

  static async start(options: PublicWebProxyOptions = {}): Promise<PublicWebProxy> {
    const server = createServer();
    const proxy = new PublicWebProxy(server, options);
    server.on('request', (req, res) => void proxy.forward(req, res));
    server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => void proxy.tunnel(req, socket, head));
    // A WebSocket over plain HTTP asks for an upgrade; the pages we measure have no need of one.
    server.on('upgrade', (_req, socket: Socket) => socket.destroy());
    server.on('connection', (socket: Socket) => proxy.track(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The browser's `--proxy-server` value. */
  get address(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** A plain-HTTP request, which a browser sends a proxy with the whole URL. */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return refuse(res, 400, 'a proxy request names the whole URL');
    }
    if (url.protocol !== 'http:') return refuse(res, 400, `${url.protocol} is not proxied`);
    const target = await this.targetOf(url.hostname, Number(url.port || 80));
    if (!target) return refuse(res, 403, `${url.hostname} is not a public internet address`);
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      { host: target.host, port: target.port, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : refuse(res, 502, `${url.hostname} could not be reached`)));
    upstream.on('socket', (socket) => this.track(socket));
    // A page's long-lived request (a stream, a long poll) ends with the browser's side of it.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  /** A CONNECT tunnel (HTTPS): opened only to a checked address. */
  private async tunnel(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const authority = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    const target = authority ? await this.targetOf(authority[1] as string, Number(authority[2])) : undefined;
    if (!target) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(target.port, target.host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    this.track(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  }

  /** Where to connect for `hostname`, or undefined when it is (or resolves to) no public address. */
  private async targetOf(hostname: string, port: number): Promise<Target | undefined> {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const local = this.options.localSites?.get(host);
    if (local) return local;
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await (this.options.resolve ?? resolveAll)(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0 || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
    // Every address must be public: a name with a private one among them could be answered with it next.
    if (!addresses.every(isPublicAddress)) {
      this.refused.push(host);
      return undefined;
    }
    return { host: addressToTry(addresses) as string, port };
  }
}

/** IPv4 first: one address is tried (the one checked), and many servers have no IPv6 route out. */
export function addressToTry(addresses: readonly string[]): string | undefined {
  return [...addresses].sort((a, b) => isIP(a) - isIP(b))[0];
}

async function resolveAll(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true })).map((entry) => entry.address);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(message);
}
