import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DataForSeoHttp } from '../dataforseo/dataforseo-http';
import { fetchJson } from './fetch-json';

/** A provider that quotes the whole request back in its error, as some do: the request line and its Authorization header. */
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const quoted = `${req.method} ${req.url} (${req.headers.authorization ?? 'no authorization'})`;
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status_code: 40100, status_message: `refused: ${quoted}`, error: { message: `refused: ${quoted}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('fetchJson keeps the secrets it is given out of what it hands back', () => {
  it('cuts them out of the answer before it is parsed', async () => {
    const url = new URL(`${origin}/search?api_key=key-1234567&q=eggs`);
    const { status, body } = await fetchJson({ provider: 'p', method: 'GET', url, timeoutMs: 2_000, secrets: ['key-1234567'] });
    expect(status).toBe(401);
    expect((body as { error: { message: string } }).error.message).toBe('refused: GET /search?api_key=[secret]&q=eggs (no authorization)');
  });

  it('cuts them out of an answer whose JSON escapes them (\\/ as PHP writes it, \\uXXXX as Python and Go write it)', async () => {
    // The verifying audit: Google refresh tokens start with "1//", and an echo writing "1\/\/" went through whole.
    const secret = '1//refresh-é-token&<x>';
    const escaped = JSON.stringify({ error: `echo ${secret}` })
      .replace(/\//g, '\\/')
      .replace(/[^\x20-\x7e]|[&<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const echo = createServer((_, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(escaped));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(`http://127.0.0.1:${(echo.address() as AddressInfo).port}/token`);
      expect(escaped).not.toContain(secret);
      const { body } = await fetchJson({ provider: 'p', method: 'POST', url, timeoutMs: 2_000, secrets: [secret] });
      expect(body).toEqual({ error: 'echo [secret]' });
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it('cuts them out of the message of an exchange that failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = new URL(`http://127.0.0.1:${port}/v1/token-in-path-9876543/data`);
    await expect(fetchJson({ provider: 'p', method: 'GET', url, timeoutMs: 2_000, secrets: ['token-in-path-9876543'] })).rejects.toThrow(
      'p: GET /v1/[secret]/data failed: ECONNREFUSED',
    );
  });

  it("keeps DataForSEO's password and Basic credentials out of its error", async () => {
    const http = new DataForSeoHttp(
      { login: 'me@agency.example', password: 'pa55word-xyz', baseUrl: origin },
      { attempts: 1, baseDelayMs: 1, timeoutMs: 2_000 },
    );
    const error = await http.postLiveTask('/v3/serp/google/organic/live/advanced', { keyword: 'eggs' }).catch((e: Error) => e);
    const credentials = Buffer.from('me@agency.example:pa55word-xyz').toString('base64');
    expect((error as Error).message).toContain('(Basic [secret])');
    for (const secret of ['pa55word-xyz', credentials]) expect((error as Error).message).not.toContain(secret);
  });
});

describe('fetchJson reads an answer only up to its size limit', () => {
  let endless: Server;
  let sent = 0;
  let url: URL;
  beforeAll(async () => {
    // A provider (or a wrong base URL) that never stops sending.
    endless = createServer((req, res) => {
      if (req.url === '/bom') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"ok":true}')]));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      res.write('{"items": [');
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(endless.address() as AddressInfo).port}/data`);
  });
  afterAll(() => {
    endless.closeAllConnections();
    return new Promise((resolve) => endless.close(resolve));
  });

  it('cuts off an answer past maxBytes with a malformed failure, having read little more than the limit', async () => {
    const failure = await fetchJson({ provider: 'p', method: 'GET', url, timeoutMs: 10_000, maxBytes: 2_000_000 }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ provider: 'p', kind: 'malformed' });
    expect((failure as Error).message).toBe('p: GET /data answered more than 2000000 bytes; the answer was not read');
    // Before, the whole answer was read into memory, whatever its size (60 MB in the audit).
    expect(sent).toBeLessThan(20_000_000);
  });

  it('reads a UTF-8 answer with a byte-order mark as JSON, as Response.text() did', async () => {
    const { body } = await fetchJson({ provider: 'p', method: 'GET', url: new URL('/bom', url), timeoutMs: 2_000 });
    expect(body).toEqual({ ok: true });
  });
});

describe('fetchJson against a provider that never answers', () => {
  let silent: Server;
  let silentOrigin: string;
  beforeAll(async () => {
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentOrigin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    silent.closeAllConnections();
    return new Promise((resolve) => silent.close(resolve));
  });

  it("times out when the caller's signal is given and garbage collections run meanwhile", async () => {
    // Before, the timeout signal combined with the caller's (AbortSignal.any) was collected with its
    // timer, and such a call waited for undici's 300 s: the background work always passes a stop signal.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const collecting = setInterval(collect, 50);
    const started = Date.now();
    try {
      const call = fetchJson({
        provider: 'p',
        method: 'GET',
        url: new URL(`${silentOrigin}/hang`),
        timeoutMs: 600,
        signal: new AbortController().signal,
      });
      await expect(call).rejects.toThrow('p: GET /hang gave no answer within 600 ms');
    } finally {
      clearInterval(collecting);
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 15_000);

  it('is cut off at once when the caller stops waiting, and says so', async () => {
    const stop = new AbortController();
    const call = fetchJson({ provider: 'p', method: 'GET', url: new URL(`${silentOrigin}/hang`), timeoutMs: 10_000, signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    await expect(call).rejects.toThrow('p: GET /hang was cut off: the caller stopped waiting');
  });
});
