import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { addressToTry, PublicWebProxy } from './public-web-proxy';

/** The proxy in front of Lighthouse's browser, spoken to as a browser does (absolute URLs, CONNECT). */
describe('PublicWebProxy', () => {
  let site: Server;
  let proxy: PublicWebProxy;
  const seen: string[] = [];
  /** Streams the site is serving now. */
  let streams = 0;
  const sitePort = () => (site.address() as AddressInfo).port;
  const proxyPort = () => Number(new URL(proxy.address).port);

  beforeAll(async () => {
    site = createServer((req, res) => {
      seen.push(`${req.headers.host} ${req.url}`);
      if (req.url === '/stream') {
        // A page's stream that never ends (EventSource, a long poll).
        streams++;
        res.on('close', () => streams--);
        return void res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: first\n\n');
      }
      res.end('hello');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const addresses: Record<string, string[]> = { 'mixed.example': ['93.184.215.14', '10.0.0.7'], 'inside.example': ['192.168.0.10'] };
    proxy = await PublicWebProxy.start({
      localSites: new Map([['site.example', { host: '127.0.0.1', port: sitePort() }]]),
      resolve: (host) => Promise.resolve(addresses[host] ?? []),
    });
  });
  afterAll(async () => {
    await proxy.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    proxy.refused.length = 0;
  });

  const get = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: proxyPort(), path: url, headers: { host: new URL(url).host } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  const tunnel = (authority: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(proxyPort(), '127.0.0.1', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
      socket.once('data', (chunk) => {
        resolve(chunk.toString().split('\r\n')[0] as string);
        socket.destroy();
      });
    });

  it('forwards a plain request to a site it may reach, keeping its Host', async () => {
    expect(await get('http://site.example/page?x=1')).toEqual({ status: 200, body: 'hello' });
    expect(seen).toEqual(['site.example /page?x=1']);
  });

  it.each([
    ['a loopback address', (port: number) => `http://127.0.0.1:${port}/`, '127.0.0.1'],
    ['a name resolving to a private address', () => 'http://inside.example/', 'inside.example'],
    ['a name with a private address among public ones', () => 'http://mixed.example/', 'mixed.example'],
    ['an IPv6 loopback', (port: number) => `http://[::1]:${port}/`, '::1'],
  ])('refuses %s with 403 and connects nowhere', async (_, url, host) => {
    const answer = await get(url(sitePort()));
    expect(answer.status).toBe(403);
    expect(seen).toEqual([]);
    expect(proxy.refused).toEqual([host]);
  });

  it('tunnels HTTPS only to a site it may reach', async () => {
    expect(await tunnel(`site.example:443`)).toBe('HTTP/1.1 200 Connection Established');
    expect(await tunnel(`127.0.0.1:${sitePort()}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(await tunnel('inside.example:443')).toBe('HTTP/1.1 403 Forbidden');
    expect(proxy.refused).toEqual(['127.0.0.1', 'inside.example']);
  });

  it("ends a site's stream when the browser's side ends, and every connection when it closes", async () => {
    const own = await PublicWebProxy.start({ localSites: new Map([['site.example', { host: '127.0.0.1', port: sitePort() }]]) });
    const open = (via: PublicWebProxy) =>
      new Promise<ReturnType<typeof request>>((resolve) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: Number(new URL(via.address).port),
            path: 'http://site.example/stream',
            headers: { host: 'site.example' },
          },
          (res) => res.once('data', () => resolve(req)),
        );
        req.on('error', () => undefined);
        req.end();
      });
    const settled = () => new Promise((resolve) => setTimeout(resolve, 200));
    const browserSide = await open(own);
    await open(own);
    expect(streams).toBe(2);
    browserSide.destroy();
    await settled();
    expect(streams).toBe(1);
    // Before, the proxy's requests to the site outlived it (3 still open 20 s after close()).
    await own.close();
    await settled();
    expect(streams).toBe(0);
  });

  it('answers a name that does not resolve without listing it as refused', async () => {
    expect((await get('http://nowhere.example/')).status).toBe(403);
    expect(proxy.refused).toEqual([]);
  });

  it("tries a name's IPv4 address before its IPv6 one", () => {
    expect(addressToTry(['2606:2800:21f:cb07:6820:80da:af6b:8b2c', '93.184.215.14'])).toBe('93.184.215.14');
    expect(addressToTry(['2606:2800:21f:cb07:6820:80da:af6b:8b2c'])).toBe('2606:2800:21f:cb07:6820:80da:af6b:8b2c');
  });
});
