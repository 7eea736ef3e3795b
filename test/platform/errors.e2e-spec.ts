import { connect } from 'node:net';
import { Logger } from '@nestjs/common';
import { startTestApp, TestApp } from '../support/test-app';

describe('Errors on every route', () => {
  let app: TestApp;
  let apiKey: string;
  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey } = await app.createAccount());
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers an unknown route with 404 and a JSON message', async () => {
    const response = await app.request('GET', '/api/no-such-thing', { key: apiKey });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.body).toEqual({ success: false, message: 'No route GET /api/no-such-thing' });
  });

  it('answers a known path with an unsupported method with 405 and Allow', async () => {
    const response = await app.request('PUT', '/api/user/api-keys', { key: apiKey, body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('DELETE, GET, POST');
    expect(response.body.message).toMatch(/Method PUT is not supported on \/api\/user\/api-keys/);
    expect((await app.request('DELETE', '/health')).status).toBe(405);
  });

  it('answers 405 to a method a path does not serve though a parameter route beside it would take the path', async () => {
    // Before, GET /api/projects/keyword-ideas reached GET /api/projects/:id: 400 "id must be a 24-character hex id".
    for (const [method, path, allow] of [
      ['GET', '/api/projects/keyword-ideas', 'POST'],
      ['GET', '/api/projects/keywords', 'DELETE, POST'],
      ['PUT', '/api/projects/keywords', 'DELETE, POST'],
    ] as const) {
      const response = await app.request(method, path, { key: apiKey, ...(method === 'PUT' ? { body: {} } : {}) });
      expect({ path, method, status: response.status, allow: response.headers.get('allow'), message: response.body.message }).toEqual({
        path,
        method,
        status: 405,
        allow,
        message: `Method ${method} is not supported on ${path}; use ${allow}`,
      });
    }
    // The parameter route itself still answers its own requests.
    expect((await app.request('GET', '/api/projects/not-an-id', { key: apiKey })).body.message).toBe('id must be a 24-character hex id');
  });

  it('answers malformed JSON with 400 and a message, before anything is written', async () => {
    const response = await app.request('POST', '/api/user/api-keys', { key: apiKey, rawBody: '{"name": "x",' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message: expect.stringMatching(/not valid JSON/) });
    const listed = await app.request('GET', '/api/user/api-keys', { key: apiKey });
    expect(listed.body.apiKeys).toHaveLength(1);
  });

  it('answers a JSON content type with an empty body with 400', async () => {
    const response = await app.request('POST', '/api/user/api-keys', { key: apiKey, rawBody: '' });
    expect(response.status).toBe(400);
    expect(typeof response.body.message).toBe('string');
  });

  it('answers an unsupported content type with a 4xx JSON message', async () => {
    const response = await app.request('POST', '/api/user/api-keys', {
      key: apiKey,
      rawBody: 'name=x',
      headers: { 'content-type': 'text/csv' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ success: false, message: expect.stringMatching(/content-type/i) });
  });

  it('answers JSON sent as text/plain with 415, not with the fields it carries called missing', async () => {
    // Before: Fastify's text parser handed the route a string, answered "name must be a string; ...".
    const response = await app.request('POST', '/api/user/api-keys', {
      key: apiKey,
      rawBody: '{"name":"as text"}',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      success: false,
      message: 'Unsupported Content-Type "text/plain;charset=UTF-8": send application/json',
    });
    const listed = await app.request('GET', '/api/user/api-keys', { key: apiKey });
    expect(listed.body.apiKeys.map((k: { name: string }) => k.name)).not.toContain('as text');
  });

  it('shows no internals in a 500', async () => {
    const broken = await startTestApp();
    try {
      const { apiKey: key } = await broken.createAccount();
      // A table the key listing reads vanishes under the running app.
      await broken.running.stores.readStore.command('DROP TABLE api_key_usage');
      const response = await broken.request('GET', '/api/user/api-keys', { key });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, message: 'Internal server error' });
      expect(response.text).not.toMatch(/api_key_usage|UNKNOWN_TABLE|at /);
    } finally {
      await broken.close();
    }
  });

  it('logs nothing as an error when a client hangs up halfway through sending its body', async () => {
    // Before: its ECONNRESET was taken for ClickHouse being away, answered 500 and logged with its stack.
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      const { port } = new URL(app.url);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"x"`,
          );
          setTimeout(() => (socket.destroy(), resolve()), 300);
        });
        socket.on('error', () => undefined);
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});
