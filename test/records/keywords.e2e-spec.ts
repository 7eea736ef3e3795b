import { startTestApp, TestApp } from '../support/test-app';

describe('Keywords (POST/DELETE /api/projects/keywords)', () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey: key } = await app.createAccount());
  });
  afterAll(async () => {
    await app.close();
  });

  const newProject = async () =>
    (await app.request('POST', '/api/projects', { key, body: { name: 'K', domain: 'k.example' } })).body.project._id as string;
  const add = (projectId: string, keywords: string[], geoCode = 'US', langCode = 'en') =>
    app.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords, geoCode, langCode } });
  const keywordsOf = async (projectId: string) => (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.keywords;

  it('adds normalised keywords, dropping duplicates within the request and against the project', async () => {
    const id = await newProject();
    const first = await add(id, ['  Running   Shoes ', 'trail shoes']);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      message: 'Added 2 keywords',
      addedCount: 2,
      project: { _id: id, keywords: [expect.any(String), expect.any(String)] },
    });

    const second = await add(id, ['running shoes', 'RUNNING SHOES', 'boots', 'boots']);
    expect(second.body.addedCount).toBe(1);
    expect(second.body.project.keywords).toHaveLength(3);
    const third = await add(id, ['running shoes'], 'de', 'DE');
    expect(third.body.addedCount).toBe(1);
    expect(
      (await keywordsOf(id)).map((k: { keyword: string; geoCode: string; langCode: string }) => `${k.keyword}/${k.geoCode}/${k.langCode}`),
    ).toEqual(['running shoes/US/en', 'trail shoes/US/en', 'boots/US/en', 'running shoes/DE/de']);
  });

  it('takes a keyword typed composed or decomposed as one keyword, and finds it by either form', async () => {
    // Before: "étoile" as é and as e + U+0301 were two keywords, both booked, checked and charged.
    const id = await newProject();
    const added = await add(id, ['\u00e9toile', 'e\u0301toile', 'Cafe\u0301', 'caf\u00e9', '\u200bcafé\u200b']);
    expect(added.body.addedCount).toBe(2);
    expect((await keywordsOf(id)).map((k: { keyword: string }) => k.keyword)).toEqual(['\u00e9toile', 'caf\u00e9']);
    const found = await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId: id, search: 'E\u0301TOILE' } });
    expect(Object.values(found.body.data).map((entry) => (entry as { keyword: { value: string } }).keyword.value)).toEqual(['\u00e9toile']);
  });

  it.each([
    [{ projectId: undefined, keywords: ['a'], geoCode: 'US', langCode: 'en' }, /projectId/],
    [{ keywords: ['\u200b\u200d '], geoCode: 'US', langCode: 'en' }, /keywords.0 must not be empty/],
    [{ keywords: 'a', geoCode: 'US', langCode: 'en' }, /keywords must be an array/],
    [{ keywords: [1], geoCode: 'US', langCode: 'en' }, /each value in keywords must be a string/],
    [{ keywords: ['  '], geoCode: 'US', langCode: 'en' }, /keywords.0 must not be empty/],
    [{ keywords: ['a'], langCode: 'en' }, /geoCode/],
    [{ keywords: ['a'], geoCode: 'US' }, /langCode/],
    [{ keywords: ['a'], geoCode: 'XX', langCode: 'en' }, /geoCode must be an ISO 3166-1 alpha-2 country code/],
    [{ keywords: ['a'], geoCode: 'USA', langCode: 'en' }, /geoCode must be an ISO 3166-1 alpha-2 country code/],
    [{ keywords: ['a'], geoCode: 'US', langCode: 'xx' }, /langCode must be an ISO 639-1 language code/],
    [{ keywords: ['x'.repeat(201)], geoCode: 'US', langCode: 'en' }, /keywords.0 must be at most 200 characters/],
  ])('refuses %p with 400 naming the field', async (body, message) => {
    const id = await newProject();
    const response = await app.request('POST', '/api/projects/keywords', { key, body: { projectId: id, ...body } });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
    expect(await keywordsOf(id)).toEqual([]);
  });

  it('counts a keyword in characters, not UTF-16 units: 200 emoji are a keyword, 201 are not', async () => {
    const id = await newProject();
    const over = await add(id, ['🥚'.repeat(201)]);
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('keywords.0 must be at most 200 characters');
    expect((await add(id, ['🥚'.repeat(200)])).status).toBe(200);
    expect(await keywordsOf(id)).toEqual([expect.objectContaining({ keyword: '🥚'.repeat(200) })]);
  });

  it('fills a project to exactly 3,500 keywords, then refuses more with the exact body, adding nothing', async () => {
    const id = await newProject();
    const batch = (from: number, count: number) => Array.from({ length: count }, (_, i) => `keyword number ${from + i}`);
    expect((await add(id, batch(0, 3000))).body.addedCount).toBe(3000);
    const over = await add(id, batch(3000, 501));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'KEYWORDS_LIMIT_EXCEEDED', currentCount: 3000, maxAllowed: 3500, availableSlots: 500 });
    expect(typeof over.body.message).toBe('string');
    expect(await keywordsOf(id)).toHaveLength(3000);

    const exact = await add(id, [...batch(3000, 500), ...batch(0, 10)]);
    expect(exact.status).toBe(200);
    expect(exact.body.addedCount).toBe(500);
    const oneMore = await add(id, ['one more']);
    expect(oneMore.status).toBe(400);
    expect(oneMore.body).toMatchObject({ error: 'KEYWORDS_LIMIT_EXCEEDED', currentCount: 3500, maxAllowed: 3500, availableSlots: 0 });
    expect(oneMore.body.message).toBe(
      'This request would add 1 keyword but the project has room for 0 (at most 3500 per project); nothing was added',
    );
    const onlyDuplicates = await add(id, batch(0, 5));
    expect(onlyDuplicates.status).toBe(200);
    expect(onlyDuplicates.body.addedCount).toBe(0);
  });

  it('never loses a keyword nor passes the limit under many concurrent adds to one project', async () => {
    const id = await newProject();
    await add(
      id,
      Array.from({ length: 3400 }, (_, i) => `base ${i}`),
    );
    // 30 requests of 5 distinct keywords each race for the last 100 slots.
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, r) =>
        add(
          id,
          Array.from({ length: 5 }, (_, i) => `race ${r} ${i}`),
        ),
      ),
    );
    const accepted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 400);
    expect(accepted.length + refused.length).toBe(30);
    expect(accepted).toHaveLength(20);
    for (const r of refused) expect(r.body.error).toBe('KEYWORDS_LIMIT_EXCEEDED');
    const stored = await keywordsOf(id);
    expect(stored).toHaveLength(3500);
    const expected = new Set(accepted.flatMap((r) => r.body.project.keywords.slice(-5)));
    expect(expected.size).toBe(100);
  });

  it("removes keywords by id, counting only the project's own", async () => {
    const id = await newProject();
    const { body } = await add(id, ['a', 'b', 'c']);
    const [a, b] = body.project.keywords;
    const removed = await app.request('DELETE', '/api/projects/keywords', {
      key,
      body: { projectId: id, keywordIds: [a, b, 'f'.repeat(24)] },
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, removedCount: 2, project: { _id: id } });
    expect((await keywordsOf(id)).map((k: { keyword: string }) => k.keyword)).toEqual(['c']);
    const again = await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId: id, keywordIds: [a] } });
    expect(again.body.removedCount).toBe(0);
    const bad = await app.request('DELETE', '/api/projects/keywords', { key, body: { projectId: id, keywordIds: ['nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/keywordIds must be a 24-character hex id/);
  });
});
