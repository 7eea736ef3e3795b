import { Logger } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { TestApp } from '../support/test-app';
import { createProject, NOW, seed, serp, startReadsApp } from '../tracking/reads/reads-fixture';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire. */
  wire: Buffer;
}

/** A GET with node:http, which (unlike fetch) neither asks for nor undoes any compression by itself. */
function rawGet(app: TestApp, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return rawRequest(app, 'GET', path, headers);
}

function rawRequest(app: TestApp, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${app.url}${path}`, { method, headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, wire: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

describe('Compressed answers', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  const auth = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    app = await startReadsApp();
    key = (await app.createAccount()).apiKey;
    const created = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: ['red shoes', 'blue shoes', 'green boots'], geoCode: 'US', langCode: 'en' },
    ]);
    projectId = created.projectId;
    const checks = Object.values(created.ids).flatMap((keywordId, k) =>
      Array.from({ length: 20 }, (_, day) => ({
        projectId,
        keywordId,
        at: new Date(NOW.getTime() - day * 86_400_000 - 3_600_000).toISOString(),
        projectDomains: ['ours.com'],
        urls: serp({ [1 + ((day + k) % 9)]: 'https://ours.com/shoes' }, 10),
      })),
    );
    await seed(app, checks);
  }, 60_000);
  afterAll(() => app.close());

  const updates = () => `/api/projects/keyword-updates?projectId=${projectId}`;

  it('sends JSON above 1 KB as brotli when the client accepts it, the same text once decoded, and smaller', async () => {
    const plain = await rawGet(app, updates(), auth());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.wire.length).toBeGreaterThan(1024);

    const br = await rawGet(app, updates(), { ...auth(), 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.wire).toString('utf8')).toBe(plain.wire.toString('utf8'));
    expect(br.wire.length).toBeLessThan(plain.wire.length / 4);
  });

  it('uses gzip when that is all the client takes', async () => {
    const plain = await rawGet(app, updates(), auth());
    const gz = await rawGet(app, updates(), { ...auth(), 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.wire).toString('utf8')).toBe(plain.wire.toString('utf8'));
  });

  it('compresses the CSV export', async () => {
    const path = `/api/projects/export?projectId=${projectId}&format=full`;
    const plain = await rawGet(app, path, auth());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/csv/);
    const gz = await rawGet(app, path, { ...auth(), 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.wire).equals(plain.wire)).toBe(true);
  });

  it('compresses at brotli quality 2 and gzip level 5: the bytes zlib gives at those settings, not at its defaults', async () => {
    const plain = await rawGet(app, updates(), auth());
    const br = await rawGet(app, updates(), { ...auth(), 'accept-encoding': 'br' });
    const gz = await rawGet(app, updates(), { ...auth(), 'accept-encoding': 'gzip' });
    const brotliAt = (quality: number) => brotliCompressSync(plain.wire, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } });
    expect(br.wire.equals(brotliAt(2))).toBe(true);
    expect(br.wire.equals(brotliAt(4))).toBe(false);
    // gzip's header is the same whatever the level but for its XFL byte: compare what follows the header.
    const deflated = (level: number) => gzipSync(plain.wire, { level }).subarray(10);
    expect(gz.wire.subarray(10).equals(deflated(5))).toBe(true);
    expect(gz.wire.subarray(10).equals(deflated(6))).toBe(false);
  });

  it('compresses MCP answers too: a tool call gives the same JSON-RPC answer as gzip', async () => {
    // Before, the MCP transport wrote its answer on the raw socket, past Fastify's compression.
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'getKeywordUpdates', arguments: { projectId } },
    });
    const mcp = (encoding: Record<string, string>) =>
      rawRequest(
        app,
        'POST',
        '/api/mcp',
        { ...auth(), ...encoding, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        call,
      );
    const [plain, gz] = [await mcp({}), await mcp({ 'accept-encoding': 'gzip' })];
    expect([plain.status, gz.status]).toEqual([200, 200]);
    expect(plain.wire.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['x-content-type-options']).toBe('nosniff');
    expect(gz.wire.length).toBeLessThan(plain.wire.length / 2);
    const answer = JSON.parse(gunzipSync(gz.wire).toString('utf8'));
    expect(answer).toEqual(JSON.parse(plain.wire.toString('utf8')));
    expect(answer.result.structuredContent.data).toBeDefined();
  });

  it('takes a client that hangs up before its compressed answer for what it is, not for a failure of the service', async () => {
    // Before, 29 of 30 such MCP calls logged "POST /api/mcp failed" with a premature-close stack, as a 500.
    const failures = jest.spyOn(Logger.prototype, 'error');
    try {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'getKeywordUpdates', arguments: { projectId } },
      });
      for (let i = 0; i < 20; i++) {
        await new Promise<void>((resolve) => {
          const req = httpRequest(`${app.url}/api/mcp`, {
            method: 'POST',
            headers: {
              ...auth(),
              'accept-encoding': 'gzip',
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
          });
          req.on('error', () => resolve());
          req.end(body, () => setTimeout(() => (req.destroy(), resolve()), 2));
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(failures.mock.calls.map((call) => String(call[0]))).toEqual([]);
      expect((await rawGet(app, '/health', {})).status).toBe(200);
    } finally {
      failures.mockRestore();
    }
  });

  it('answers an MCP notification 202 without a body or a Content-Type, as the transport does', async () => {
    const notified = await rawRequest(
      app,
      'POST',
      '/api/mcp',
      { ...auth(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    expect({ status: notified.status, type: notified.headers['content-type'], bytes: notified.wire.length }).toEqual({
      status: 202,
      type: undefined,
      bytes: 0,
    });
  });

  it('leaves answers under 1 KB as they are', async () => {
    const small = await rawGet(app, '/health', { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.wire.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.wire.toString('utf8'))).toBeTruthy();
  });
});
