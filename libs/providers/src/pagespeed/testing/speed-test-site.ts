import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Pages on 127.0.0.1 whose speed is known in advance, for real Lighthouse runs: `/fast` is a small
 * static page; `/slow` waits for a render-blocking script that arrives late and then keeps the main
 * thread busy, so its paint comes late and its blocking time is long; `/broken` answers 500;
 * `/redirect?to=<url>` redirects there; `/webrtc?to=<host:port>` asks a STUN server there; `/hang`
 * never answers (`hung` counts its requests).
 */
export class SpeedTestSite {
  /** Requests of `/hang` so far. */
  hung = 0;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<SpeedTestSite> {
    let site: SpeedTestSite | undefined;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/hang') {
        site!.hung += 1;
        return;
      }
      const send = (status: number, type: string, body: string) => {
        res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(body);
      };
      if (path === '/fast') return send(200, 'text/html; charset=utf-8', page('Fast page', ''));
      if (path === '/slow') return send(200, 'text/html; charset=utf-8', page('Slow page', '<script src="/blocking.js"></script>'));
      if (path === '/blocking.js') {
        // Late, then two seconds of busy main thread before the first paint can happen.
        setTimeout(() => send(200, 'application/javascript', BUSY_SCRIPT), 1_500);
        return;
      }
      if (path === '/broken') return send(500, 'text/plain', 'internal error');
      if (path === '/webrtc') {
        // Asks a STUN server at `to` (host:port) for its address: UDP that no HTTP proxy carries.
        const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '';
        const script = `(async () => { const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:${to}' }] }); pc.createDataChannel('d'); await pc.setLocalDescription(await pc.createOffer()); })();`;
        return send(200, 'text/html; charset=utf-8', page('WebRTC page', `<script>${script}</script>`));
      }
      if (path === '/redirect') {
        // Sends the browser wherever `to` says: a public page's way into the service's own network.
        res.writeHead(302, { location: new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/' });
        return res.end();
      }
      send(404, 'text/plain', 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = new SpeedTestSite(server);
    return site;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const BUSY_SCRIPT = `
(function () {
  var until = Date.now() + 2000, x = 0;
  while (Date.now() < until) { x += Math.sqrt(x + 1); }
  window.__busy = x;
})();
`;

function page(title: string, head: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${title} for the page-speed tests"><title>${title}</title>${head}</head>
<body><main><h1>${title}</h1><p>${'Some text to paint. '.repeat(40)}</p></main></body></html>`;
}
