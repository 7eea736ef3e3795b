import { OpenApiConformance } from '../support/openapi-conformance';
import { HttpResponse, RequestOptions, startTestApp, TestApp } from '../support/test-app';
import { createProject, NOW, seed, serp, share } from '../tracking/reads/reads-fixture';

/**
 * The served OpenAPI document against the real answers: one walk through the API (a project with
 * keywords and checks, its reads and exports, folders, notes, keys, capacity, and the usual errors),
 * every answer checked against the schema the document gives its status, with no undocumented field.
 * The domain-data answers are checked the same way in test/domains (they need the providers' fakes).
 */
describe('Answers match the OpenAPI document', () => {
  let app: TestApp;
  let conformance: OpenApiConformance;
  let key: string;
  const problems: string[] = [];

  /** A call to the operation `documentPath` (as the document writes it) at `url`; its answer is checked. */
  const call = async (method: string, documentPath: string, options: RequestOptions & { url?: string } = {}): Promise<HttpResponse> => {
    const response = await app.request(method, options.url ?? documentPath, { key, ...options });
    problems.push(...conformance.problems(method, documentPath, response));
    return response;
  };

  beforeAll(async () => {
    // The reads' fixed clock; no scraper, and a live SERP check that gives up at once (serp: [], a miss is no failure).
    app = await startTestApp({ clock: { now: () => NOW }, env: { ROLES: 'api,projections', SERP_CHECK_TIMEOUT_MS: '300' } });
    conformance = await OpenApiConformance.of(app);
    // Credits for the on-demand checks.
    key = (await app.createAccount({ balance: 100 })).apiKey;
  });
  afterAll(() => app.close());

  it('answers the projects, keywords, checks and their reads as documented', async () => {
    const settings = { domain: 'ours.com', aliases: ['ours.net'] };
    const folder = await call('POST', '/api/projects/folders', { body: { name: 'Clients' } });
    expect(folder.status).toBe(201);
    const { projectId, ids } = await createProject(app, key, { ...settings, folder: folder.body.folder._id }, [
      { keywords: ['espresso', 'latte'], geoCode: 'US', langCode: 'en' },
      { keywords: ['espresso'], geoCode: 'DE', langCode: 'de' },
    ]);
    const [, latest] = await seed(app, [
      {
        projectId,
        keywordId: ids.espresso!,
        at: '2026-03-16T09:00:00.000Z',
        projectDomains: ['ours.com'],
        urls: serp({ 3: 'https://ours.com/espresso', 5: 'https://rival.com/a' }),
      },
      {
        projectId,
        keywordId: ids.espresso!,
        at: '2026-03-18T09:00:00.000Z',
        projectDomains: ['ours.com'],
        urls: serp({ 2: 'https://ours.com/espresso', 7: 'https://rival.com/a' }),
        aiOverviewUrls: ['https://ours.com/espresso', 'https://rival.com/a'],
      },
      { projectId, keywordId: ids.latte!, at: '2026-03-18T10:00:00.000Z', failedReason: 'Blocked by Google (captcha)' },
    ]);
    await share(app, key, projectId, settings);

    expect((await call('GET', '/api/projects')).status).toBe(200);
    expect((await call('GET', '/api/projects/{id}', { url: `/api/projects/${projectId}` })).status).toBe(200);
    expect((await call('GET', '/api/projects/{id}', { url: `/api/projects/${projectId}`, key: null })).status).toBe(200);
    const updated = await call('PUT', '/api/projects', {
      body: { _id: projectId, name: 'Reads', ...settings, shared: true, competitors: ['rival.com'], serpTop: 100, updateTime: 7 },
    });
    expect(updated.status).toBe(200);
    expect(
      (await call('POST', '/api/projects/keywords', { body: { projectId, keywords: ['mocha'], geoCode: 'US', langCode: 'en' } })).status,
    ).toBe(200);
    expect((await call('POST', '/api/scrape/new-keywords', { body: { projectId, keywordIds: [ids.espresso, ids.espresso] } })).status).toBe(
      200,
    );

    const window = { projectId, startDate: '2026-03-01', endDate: '2026-03-20' };
    expect((await call('GET', '/api/projects/keyword-updates', { query: window })).status).toBe(200);
    expect((await call('GET', '/api/projects/keyword-updates', { query: { ...window, aggregation: 'weekly' } })).status).toBe(200);
    expect((await call('GET', '/api/projects/position-history', { query: { keywordUpdateId: latest! } })).status).toBe(200);
    expect((await call('GET', '/api/projects/competitor-positions', { query: { ...window, competitorDomain: 'rival.com' } })).status).toBe(
      200,
    );
    expect((await call('GET', '/api/projects/pages', { query: { projectId } })).status).toBe(200);
    expect((await call('GET', '/api/projects/pages-pagespeed', { query: { projectId } })).status).toBe(200);
    expect((await call('GET', '/api/projects/keyword-volumes', { query: { projectId } })).status).toBe(200);
    expect((await call('GET', '/api/projects/keyword-suggestions', { query: { projectId } })).status).toBe(200);
    expect((await call('GET', '/api/projects/export', { query: window })).status).toBe(200);
    expect((await call('GET', '/api/projects/export-agent', { query: { projectId } })).status).toBe(200);

    const note = await call('POST', '/api/projects/notes', {
      body: { projectId, date: '2026-03-17', text: 'New title tags', color: 'info' },
    });
    expect(note.status).toBe(201);
    expect((await call('GET', '/api/projects/notes', { query: { projectId } })).status).toBe(200);
    expect((await call('DELETE', '/api/projects/notes', { body: { noteId: note.body.data._id } })).status).toBe(200);

    expect((await call('DELETE', '/api/projects/keywords', { body: { projectId, keywordIds: [ids.latte] } })).status).toBe(200);
    expect((await call('GET', '/api/user/capacity')).status).toBe(200);
    expect((await call('POST', '/api/tools/serp-check', { body: { keyword: 'espresso', geo: 'US', lang: 'en' } })).status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('answers folders, keys and deletions as documented', async () => {
    const folder = await call('POST', '/api/projects/folders', { body: { name: 'Agency' } });
    const folderId = folder.body.folder._id;
    expect((await call('GET', '/api/projects/folders')).status).toBe(200);
    expect(
      (await call('PUT', '/api/projects/folders', { url: `/api/projects/folders?id=${folderId}`, body: { name: 'Agency 2' } })).status,
    ).toBe(200);
    expect((await call('DELETE', '/api/projects/folders', { url: `/api/projects/folders?id=${folderId}` })).status).toBe(200);

    const created = await call('POST', '/api/user/api-keys', { body: { name: 'CI' } });
    expect(created.status).toBe(201);
    expect((await call('GET', '/api/user/api-keys')).status).toBe(200);
    expect((await call('DELETE', '/api/user/api-keys', { body: { id: created.body.apiKey._id } })).status).toBe(200);

    const project = await call('POST', '/api/projects', { body: { name: 'Short-lived', domain: 'short.example' } });
    expect(project.status).toBe(201);
    expect((await call('DELETE', '/api/projects', { body: { _id: project.body.project._id } })).status).toBe(200);
    expect((await call('GET', '/health', { key: null })).status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('answers the errors in the documented error shape', async () => {
    const missing = '6740a1b2c3d4e5f601234567';
    expect((await call('GET', '/api/projects', { key: null })).status).toBe(401);
    expect((await call('GET', '/api/projects', { key: 'rt_not-a-key' })).status).toBe(401);
    expect((await call('GET', '/api/projects/keyword-updates', { query: {} })).status).toBe(400);
    expect((await call('GET', '/api/projects/{id}', { url: `/api/projects/${missing}` })).status).toBe(404);
    expect((await call('POST', '/api/projects', { body: { name: 'x' } })).status).toBe(400);
    await call('POST', '/api/projects/folders', { body: { name: 'Twice' } });
    expect((await call('POST', '/api/projects/folders', { body: { name: 'Twice' } })).status).toBe(409);
    expect((await call('DELETE', '/api/projects/notes', { body: { noteId: missing } })).status).toBe(404);
    const csv = { rawBody: 'name\nCI', headers: { 'content-type': 'text/csv' } };
    expect((await call('POST', '/api/user/api-keys', csv)).status).toBe(415);
    const huge = { body: { projectId: missing, date: '2026-03-17', text: 'x'.repeat(6 * 1024 * 1024) } };
    expect((await call('POST', '/api/projects/notes', huge)).status).toBe(413);
    // Refusals every operation can meet, documented on each (before, only where the operation had parameters or a body).
    expect((await call('GET', '/api/projects', { url: '/api/projects?x=%FF' })).status).toBe(400);
    expect((await call('GET', '/api/user/capacity', { headers: { 'x-padding': 'p'.repeat(20_000) } })).status).toBe(431);
    const text = { query: { id: missing }, rawBody: 'x', headers: { 'content-type': 'text/plain' } };
    expect((await call('DELETE', '/api/projects/folders', text)).status).toBe(415);
    expect(problems).toEqual([]);
  });

  it('covered every operation of the document', () => {
    const covered = new Set([...conformance.coverage].map((answer) => answer.split(' ').slice(0, 2).join(' ')));
    // The domain reads and the research tools need the providers' fakes: checked beside them (test/domains, test/research).
    const elsewhere = [
      'POST /api/tools/traffic-check',
      'GET /api/projects/webtraffic',
      'GET /api/projects/pagespeed',
      'GET /api/projects/crux-history',
      'GET /api/projects/competitors-filtered',
      'POST /api/projects/keyword-ideas',
      'POST /api/tools/keyword-research',
    ];
    expect(conformance.operations.filter((operation) => !covered.has(operation) && !elsewhere.includes(operation))).toEqual([]);
  });
});
