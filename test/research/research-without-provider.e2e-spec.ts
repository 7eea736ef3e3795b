import { FakeGoogleAutocomplete, startGoogleAutocompleteFake } from '@rank/providers/autocomplete/testing/fake-google-autocomplete';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { VolumesReader } from '@rank/research/volumes.reader';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * No keyword-data provider configured: every research endpoint still answers the spec's "no data"
 * shape (null volumes, empty ideas with service_unavailable, success false for research), never a 500.
 * Google Autocomplete (GOOGLE_BASE_URL) is a port nothing listens on, so the free fallback fails too.
 */
describe('Keyword research without a provider', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let keywordId: string;

  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey: key } = await app.createAccount());
    const created = await app.request('POST', '/api/projects', { key, body: { name: 'Shoes', domain: 'shoes.example' } });
    projectId = created.body.project._id;
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['running shoes'], geoCode: 'US', langCode: 'en' },
    });
    keywordId = (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.keywords[0]._id;
  });
  afterAll(() => app.close());

  it('shows no volumes: empty bulk, null single, null avgMonthlySearches, an empty CSV Volume', async () => {
    expect((await app.request('GET', '/api/projects/keyword-volumes', { key, query: { projectId } })).body).toEqual({
      success: true,
      data: {},
    });
    expect((await app.request('GET', '/api/projects/keyword-volumes', { key, query: { projectId, keywordId } })).body).toEqual({
      success: true,
      data: null,
    });
    const detail = await app.request('GET', `/api/projects/${projectId}`, { key });
    expect(detail.body.project.keywords[0].avgMonthlySearches).toBeNull();
    const updates = await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId } });
    expect(updates.body.data[keywordId].keyword.avgMonthlySearches).toBeNull();
    const csv = await app.request('GET', '/api/projects/export', { key, query: { projectId } });
    expect(csv.text.split('\r\n')[1]).toBe('running shoes;;;;');
  });

  it('leaves the never-fetched keywords to the monthly sweep (a provider configured later fetches them)', async () => {
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    const stale = await app.running.app.get(VolumesReader).staleTracked(new Date(), 100);
    expect(stale).toEqual([{ geoCode: 'US', langCode: 'en', keyword: 'running shoes' }]);
  });

  it('answers keyword-ideas with no ideas and service_unavailable', async () => {
    const response = await app.request('POST', '/api/projects/keyword-ideas', { key, body: { projectId } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, ideas: [], error: 'service_unavailable' });
  });

  it('answers keyword-research with success false and a message naming the missing configuration', async () => {
    const response = await app.request('POST', '/api/tools/keyword-research', { key, body: { keyword: 'running shoes' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: false, message: expect.stringContaining('DATAFORSEO_LOGIN') });
  });

  it("refuses a keywordId that is not the project's (404) and malformed ids (400 naming the field)", async () => {
    expect(
      (await app.request('GET', '/api/projects/keyword-volumes', { key, query: { projectId, keywordId: 'a'.repeat(24) } })).status,
    ).toBe(404);
    const bad = await app.request('GET', '/api/projects/keyword-volumes', { key, query: { projectId, keywordId: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/keywordId/);
    const missing = await app.request('GET', '/api/projects/keyword-volumes', { key });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/projectId/);
  });
});

/** Autocomplete alone (GOOGLE_BASE_URL, played by the fake Google autocomplete): ideas with null figures. */
describe('Keyword ideas from autocomplete alone', () => {
  let app: TestApp;
  let google: FakeGoogleAutocomplete;

  beforeAll(async () => {
    google = await startGoogleAutocompleteFake();
    google.phrases.set('running shoes', ['running shoes', 'Running Shoes for Women', 'running shoes sale']);
    app = await startTestApp({ env: { GOOGLE_BASE_URL: google.url } });
  });
  afterAll(async () => {
    await app.close();
    await google.close();
  });

  it("completes the project's keywords, leaving tracked ones out", async () => {
    const { apiKey: key } = await app.createAccount();
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Shoes', domain: 'shoes.example' } })).body.project
      ._id;
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['running shoes'], geoCode: 'US', langCode: 'en' },
    });
    // The project's keyword suggestions ask autocomplete too, in the background: let them finish first.
    await waitFor(
      () => app.request('GET', '/api/projects/keyword-suggestions', { key, query: { projectId } }),
      (r) => r.body.ready === true,
    );
    google.requests.length = 0;
    const response = await app.request('POST', '/api/projects/keyword-ideas', { key, body: { projectId, geo: 'us', lang: 'EN' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      ideas: [
        { keyword: 'running shoes for women', avgMonthlySearches: null, competition: null },
        { keyword: 'running shoes sale', avgMonthlySearches: null, competition: null },
      ],
    });
    expect(google.requests.map((r) => [r.query.get('q'), r.query.get('hl'), r.query.get('gl'), r.query.get('client')])).toEqual([
      ['running shoes', 'en', 'US', 'firefox'],
    ]);
  });

  it('answers service_unavailable when autocomplete fails too', async () => {
    const { apiKey: key } = await app.createAccount();
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Boots', domain: 'boots.example' } })).body.project
      ._id;
    google.failWith('server-error');
    try {
      const response = await app.request('POST', '/api/projects/keyword-ideas', { key, body: { projectId } });
      expect(response.body).toEqual({ success: true, ideas: [], error: 'service_unavailable' });
    } finally {
      google.failWith(undefined);
    }
  });
});
