import { EventStoreDbDouble } from '@rank/event-store/eventstoredb/testing/eventstoredb-double';
import { FakeGoogle } from '@rank/serp/fetcher/test-support/fake-google';
import { readSavedSerp } from '@rank/serp/fetcher/test-support/saved-serp';
import { checkResultsOf } from '../support/seed-checks';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const EGGS_PAGE = readSavedSerp('fra50__persistent_browser_service__ai_overview.html');

/** A Google that takes a moment per page, so one scraper cannot take every check before the other starts. */
async function slowGoogle(): Promise<FakeGoogle> {
  const google = await FakeGoogle.start();
  google.reset(() => ({ kind: 'delay', ms: 300, then: { kind: 'page', html: EGGS_PAGE } }));
  return google;
}

describe('Distributed mode: an API and two scraper replicas on EventStoreDB (the wire-level double)', () => {
  const double = new EventStoreDbDouble();
  const googles: FakeGoogle[] = [];
  const apps: TestApp[] = [];

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    for (const google of googles) await google.close();
    await double.stop();
  });

  it('shares one work order between the scrapers through the persistent subscription: each check runs once, all are stored', async () => {
    const { connectionString } = await double.start();
    const api = await startTestApp({ env: { EVENTSTORE_CONNECTION_STRING: connectionString, ROLES: 'api,projections' } });
    apps.push(api);
    for (let i = 0; i < 2; i++) {
      const google = await slowGoogle();
      googles.push(google);
      apps.push(await startTestApp({ env: { EVENTSTORE_CONNECTION_STRING: connectionString, ROLES: 'scraper', GOOGLE_BASE_URL: google.baseUrl, SCRAPER_CHECKS_AT_ONCE: '1' } }));
    }
    const { apiKey: key } = await api.createAccount({ balance: 20 });
    const projectId = (await api.request('POST', '/api/projects', { key, body: { name: 'Eggs', domain: 'simplyrecipes.com' } })).body.project._id as string;
    const keywords = ['eggs 1', 'eggs 2', 'eggs 3', 'eggs 4', 'eggs 5', 'eggs 6'];
    const added = await api.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords, geoCode: 'US', langCode: 'en' } });

    const scrape = await api.request('POST', '/api/scrape/new-keywords', { key, body: { projectId, keywordIds: added.body.project.keywords } });
    expect(scrape.status).toBe(200);
    const results = await waitFor(() => checkResultsOf(api.running.stores.eventStore, projectId), (events) => events.length >= 6, 60_000);

    expect(results.map((e) => e.type)).toEqual(Array(6).fill('CheckCompleted'));
    // A check may read more than one page; what matters is which scraper ran which keyword.
    const ranBy = googles.map((google) => new Set(google.searches.map((s) => s.query.get('q'))));
    expect(ranBy[0]!.size).toBeGreaterThan(0);
    expect(ranBy[1]!.size).toBeGreaterThan(0);
    expect([...ranBy[0]!, ...ranBy[1]!].sort()).toEqual(keywords);
  }, 90_000);
});
