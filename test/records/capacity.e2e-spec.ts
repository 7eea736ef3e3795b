import { startTestApp, TestApp } from '../support/test-app';

describe('Capacity (GET /api/user/capacity)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("reports tokens booked by every project's frequency and depth, counts and the spec's limits", async () => {
    const { apiKey: key } = await app.createAccount({ plan: 'starter', trial: true });
    const project = async (body: Record<string, unknown>, keywords: number) => {
      const id = (await app.request('POST', '/api/projects', { key, body: { name: 'p', domain: 'p.example', ...body } })).body.project._id;
      if (keywords > 0) {
        await app.request('POST', '/api/projects/keywords', {
          key,
          body: { projectId: id, keywords: Array.from({ length: keywords }, (_, i) => `kw ${i}`), geoCode: 'US', langCode: 'en' },
        });
      }
      return id;
    };
    await project({}, 10); // daily: 10 x 30 = 300
    await project({ serpTop: 100, updateFrequency: 'weekly' }, 5); // 5 x 4 x 2 = 40
    await project({ updateFrequency: 'custom', customUpdateDays: [1, 3, 5] }, 2); // 2 x 12 = 24
    await project({ updateFrequency: 'every3days' }, 1); // 10
    await project({ updateFrequency: 'biweekly', serpTop: 100 }, 3); // 3 x 2 x 2 = 12
    await app.request('POST', '/api/user/api-keys', { key, body: { name: 'second' } });

    const response = await app.request('GET', '/api/user/capacity', { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      total: 30_000,
      booked: 386,
      available: 30_000 - 386,
      projects: 5,
      keywords: 21,
      isTrial: true,
      plan: 'starter',
      limits: {
        keywordsPerProject: 3500,
        projects: null,
        apiKeys: { limit: 5, used: 2 },
        competitorsPerRequest: 50,
        rateLimits: {
          serpCheck: { perMinute: 10, windowSeconds: 60, remaining: 10 },
          trafficCheck: { perMinute: 20, windowSeconds: 60, remaining: 20 },
          keywordResearch: { perMinute: 15, perHour: 150, remaining: 15 },
          domainReads: { perMinute: 60, perHour: 600, remaining: 60 },
          newDomainsPerDay: {
            limit: 400,
            used: 0,
            remaining: 400,
            resetsInSeconds: null,
            appliesTo: [
              '/api/tools/traffic-check',
              '/api/projects/webtraffic',
              '/api/projects/pagespeed',
              '/api/projects/crux-history',
              '/api/projects/competitors-filtered',
            ],
          },
        },
      },
    });
  });

  it('reads limits live: a plan change shows on the next call', async () => {
    const { accountId, apiKey: key } = await app.createAccount({ plan: 'pro' });
    expect((await app.request('GET', '/api/user/capacity', { key })).body.total).toBe(150_000);
    await app.admin('PATCH', `/admin/accounts/${accountId}`, { plan: 'agency' });
    const after = await app.request('GET', '/api/user/capacity', { key });
    expect(after.body).toMatchObject({ total: 1_000_000, plan: 'agency', booked: 0, available: 1_000_000, projects: 0, keywords: 0 });
  });
});
