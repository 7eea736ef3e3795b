import createClient from 'openapi-fetch';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';
import type { paths } from './rank-tracker-api';

const EGGS_PAGE = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');

/** The client generated from the document with default options drives a whole flow, typed end to end. */
describe('Typed client generated from the OpenAPI document (openapi-typescript + openapi-fetch)', () => {
  let google: FakeGoogle;
  let app: TestApp;
  beforeAll(async () => {
    google = await FakeGoogle.start();
    google.reset(() => ({ kind: 'page', html: EGGS_PAGE }));
    app = await startTestApp({ env: { ROLES: 'api,projections,scraper', GOOGLE_BASE_URL: google.baseUrl, SCRAPER_BLOCK_REST_MS: '1' } });
  });
  afterAll(async () => {
    await app.close();
    await google.close();
  }, 60_000);

  it('creates a project, adds keywords, triggers a check and reads the keyword updates', async () => {
    const { apiKey } = await app.createAccount({ balance: 5 });
    const client = createClient<paths>({ baseUrl: app.url, headers: { Authorization: `Bearer ${apiKey}` } });

    const created = await client.POST('/api/projects', { body: { name: 'Eggs', domain: 'simplyrecipes.com' } });
    expect(created.response.status).toBe(201);
    const projectId = created.data!.project._id;

    const added = await client.POST('/api/projects/keywords', {
      body: { projectId, keywords: ['how long to boil eggs'], geoCode: 'US', langCode: 'en' },
    });
    expect(added.data!.addedCount).toBe(1);
    const keywordIds = added.data!.project.keywords;

    const check = await client.POST('/api/scrape/new-keywords', { body: { projectId, keywordIds } });
    expect(check.data).toMatchObject({ success: true, status: 'processing', summary: { total: 1, accepted: 1 } });

    const read = () => client.GET('/api/projects/keyword-updates', { params: { query: { projectId } } });
    const updates = await waitFor(read, (answer) => (answer.data?.data[keywordIds[0]!]?.updates.length ?? 0) > 0, 60_000);
    const entry = updates.data!.data[keywordIds[0]!]!;
    expect(entry.keyword.value).toBe('how long to boil eggs');
    expect(entry.updates[0]!.position?.domain).toBe('simplyrecipes.com');
    expect(entry.updates[0]!.position?.position).toBeGreaterThan(0);

    const refused = await client.GET('/api/projects/keyword-updates', { params: { query: { projectId: 'not-an-id' } } });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.message).toMatch(/projectId/);

    // A field that may be null stays in the typed answer (a schema of type null alone dropped it: TS2339).
    const capacity = await client.GET('/api/user/capacity');
    const projectsLimit: number | null | undefined = capacity.data?.limits.projects;
    expect(projectsLimit).toBeNull();

    // The CSV is text, read as such (openapi-fetch parses JSON by default).
    const csv = await client.GET('/api/projects/export', { params: { query: { projectId } }, parseAs: 'text' });
    expect(csv.data).toMatch(/^Keyword;/);
    expect(csv.response.headers.get('content-disposition')).toMatch(/^attachment; filename="simplyrecipes\.com_full_/);
  }, 90_000);
});
