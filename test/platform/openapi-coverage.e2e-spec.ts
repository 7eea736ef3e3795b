import { startTestApp, TestApp } from '../support/test-app';

/** Every endpoint built so far, as the spec names it: each must be in the generated OpenAPI document. */
const ENDPOINTS: [string, string][] = [
  ['get', '/api/projects'],
  ['post', '/api/projects'],
  ['put', '/api/projects'],
  ['delete', '/api/projects'],
  ['get', '/api/projects/{id}'],
  ['get', '/api/projects/folders'],
  ['post', '/api/projects/folders'],
  ['put', '/api/projects/folders'],
  ['delete', '/api/projects/folders'],
  ['post', '/api/projects/keywords'],
  ['delete', '/api/projects/keywords'],
  ['post', '/api/scrape/new-keywords'],
  ['get', '/api/projects/keyword-updates'],
  ['get', '/api/projects/position-history'],
  ['get', '/api/projects/competitor-positions'],
  ['get', '/api/projects/pages'],
  ['get', '/api/projects/notes'],
  ['post', '/api/projects/notes'],
  ['delete', '/api/projects/notes'],
  ['get', '/api/user/capacity'],
  ['get', '/api/projects/export'],
  ['get', '/api/projects/export-agent'],
  ['get', '/api/user/api-keys'],
  ['post', '/api/user/api-keys'],
  ['delete', '/api/user/api-keys'],
];

describe('OpenAPI document covers every endpoint', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each(ENDPOINTS)('%s %s is documented with a response shape', async (method, path) => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const operation = doc.paths[path]?.[method];
    expect(operation).toBeDefined();
    const responses = Object.values(operation.responses ?? {}) as { content?: Record<string, { schema?: unknown }> }[];
    expect(responses.some((r) => Object.values(r.content ?? {}).some((c) => c.schema !== undefined))).toBe(true);
    if (['post', 'put'].includes(method)) expect(operation.requestBody?.content?.['application/json']?.schema).toBeDefined();
  });

  it('documents query parameters of the reads', async () => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const names = (path: string) => (doc.paths[path].get.parameters as { name: string }[]).map((p) => p.name);
    expect(names('/api/projects/keyword-updates')).toEqual(
      expect.arrayContaining(['projectId', 'startDate', 'endDate', 'aggregation', 'search', 'geoCode', 'langCode', 'sortBy', 'sortOrder']),
    );
    expect(names('/api/projects/competitor-positions')).toEqual(
      expect.arrayContaining(['projectId', 'competitorDomain', 'startDate', 'endDate']),
    );
  });
});
