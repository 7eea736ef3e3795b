import { startTestApp, TestApp } from '../support/test-app';

describe('OpenAPI document, Swagger UI and health', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves /health without a key', async () => {
    const response = await app.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('serves an OpenAPI 3.1 document without a key, with the bearer scheme and the API-key endpoints', async () => {
    const response = await app.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.paths['/api/user/api-keys']).sort()).toEqual(['delete', 'get', 'post']);
    const post = doc.paths['/api/user/api-keys'].post;
    expect(post.requestBody.content['application/json'].schema.$ref).toMatch(/CreateApiKeyBody/);
    expect(doc.components.schemas.CreateApiKeyBody.properties.name.maxLength).toBe(100);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/admin'))).toBe(false);
  });

  it('serves Swagger UI', async () => {
    const response = await app.request('GET', '/api/docs');
    expect(response.status).toBe(200);
    expect(response.text).toMatch(/swagger-ui/i);
  });
});
