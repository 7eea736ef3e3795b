import { startTestApp, TestApp } from '../support/test-app';

describe('Projects (GET/POST/PUT/DELETE /api/projects, GET /api/projects/:id)', () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey: key } = await app.createAccount());
  });
  afterAll(async () => {
    await app.close();
  });

  const create = (body: Record<string, unknown>, apiKey = key) => app.request('POST', '/api/projects', { key: apiKey, body });

  it('creates a project with the defaults, normalising the domain and aliases, ignoring competitors', async () => {
    const response = await create({
      name: 'Shop',
      domain: 'https://WWW.Shop.Example/path',
      aliases: 'shop.example.org,\nhttps://www.shop.example.net/x, shop.example.org',
      competitors: ['rival.com'],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      message: 'Project created',
      project: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'Shop',
        domain: 'shop.example',
        aliases: ['shop.example.org', 'shop.example.net'],
        competitors: [],
        folder: null,
        icon: '',
        shared: false,
        updateFrequency: 'daily',
        customUpdateDays: [],
        updateTime: 12,
        updateTimezone: 'UTC',
        serpTop: 50,
        createdDate: expect.any(String),
      },
    });
    expect(new Date(response.body.project.createdDate).toISOString()).toBe(response.body.project.createdDate);
  });

  it("lists the account's projects and shows one with its keywords (POST then GET shows the change at once)", async () => {
    const created = await create({
      name: 'Listed',
      domain: 'listed.example',
      serpTop: 100,
      updateFrequency: 'custom',
      customUpdateDays: [5, 1, 1],
      updateTime: 7,
      // Zone names match without case, and are kept as the zone database spells them (before: as typed).
      updateTimezone: 'europe/BERLIN',
      icon: 'https://listed.example/icon.png',
      shared: true,
    });
    const id = created.body.project._id;
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId: id, keywords: ['Running  Shoes '], geoCode: 'us', langCode: 'EN' },
    });

    const list = await app.request('GET', '/api/projects', { key });
    expect(list.status).toBe(200);
    expect(list.body.success).toBe(true);
    expect(list.body.projects.find((p: { _id: string }) => p._id === id)).toEqual(created.body.project);
    expect(created.body.project).toMatchObject({
      serpTop: 100,
      updateFrequency: 'custom',
      customUpdateDays: [1, 5],
      updateTime: 7,
      updateTimezone: 'Europe/Berlin',
      shared: true,
    });

    const detail = await app.request('GET', `/api/projects/${id}`, { key });
    expect(detail.status).toBe(200);
    expect(detail.body.project).toEqual({
      ...created.body.project,
      keywords: [{ _id: expect.any(String), keyword: 'running shoes', geoCode: 'US', langCode: 'en', avgMonthlySearches: null }],
      // Not checked yet: no last check day.
      lastCheckDay: null,
    });
  });

  it.each([
    [{ domain: 'x.com' }, /name/],
    [{ name: 'x' }, /domain/],
    [{ name: '', domain: 'x.com' }, /name should not be empty/],
    [{ name: 'x', domain: 'not a domain' }, /domain must be a domain name/],
    [{ name: 'x', domain: `${'a'.repeat(100)}.com` }, /domain must be a domain name/],
    [{ name: 'x', domain: 'x.com', updateFrequency: 'hourly' }, /updateFrequency must be one of/],
    [{ name: 'x', domain: 'x.com', updateFrequency: 'custom' }, /customUpdateDays is required when updateFrequency is custom/],
    [{ name: 'x', domain: 'x.com', updateFrequency: 'custom', customUpdateDays: [7] }, /customUpdateDays must not be greater than 6/],
    [{ name: 'x', domain: 'x.com', updateTime: 24 }, /updateTime must not be greater than 23/],
    [{ name: 'x', domain: 'x.com', updateTime: '12' }, /updateTime must be an integer/],
    [{ name: 'x', domain: 'x.com', updateTimezone: 'Mars/Olympus' }, /updateTimezone must be an IANA time zone/],
    [{ name: 'x', domain: 'x.com', serpTop: 30 }, /serpTop must be one of/],
    [{ name: 'x', domain: 'x.com', shared: 'yes' }, /shared must be a boolean/],
    [{ name: 'x', domain: 'x.com', aliases: 'ok.com, bad alias' }, /aliases must be a domain name/],
    [{ name: 'x', domain: 'x.com', folder: 'abc' }, /folder must be a 24-character hex id/],
  ])('refuses %p with 400 naming the field', async (body, message) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('answers 404 for a folder that does not exist, and creates nothing', async () => {
    const before = (await app.request('GET', '/api/projects', { key })).body.projects.length;
    const response = await create({ name: 'x', domain: 'x.com', folder: 'f'.repeat(24) });
    expect(response.status).toBe(404);
    expect((await app.request('GET', '/api/projects', { key })).body.projects).toHaveLength(before);
  });

  describe('update', () => {
    it('requires _id, name and domain', async () => {
      const { body } = await create({ name: 'Upd', domain: 'upd.example' });
      for (const partial of [
        { name: 'a', domain: 'a.com' },
        { _id: body.project._id, domain: 'a.com' },
        { _id: body.project._id, name: 'a' },
      ]) {
        const response = await app.request('PUT', '/api/projects', { key, body: partial });
        expect(response.status).toBe(400);
        expect(response.body.message).toMatch(/_id|name|domain/);
      }
    });

    it('sets competitors (normalised, without duplicates or the project domain), keeps unsent settings, moves folders', async () => {
      const folder = await app.request('POST', '/api/projects/folders', { key, body: { name: `Upd folder ${Date.now()}` } });
      const { body } = await create({ name: 'Upd2', domain: 'upd2.example', serpTop: 100, folder: folder.body.folder._id, shared: true });
      const id = body.project._id;
      const updated = await app.request('PUT', '/api/projects', {
        key,
        body: {
          _id: id,
          name: 'Renamed',
          domain: 'UPD2.example',
          competitors: ['https://www.Rival.com/', 'rival.com', 'other.org', 'upd2.example'],
        },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ success: true, message: 'Project updated' });
      expect(updated.body.project).toMatchObject({
        name: 'Renamed',
        domain: 'upd2.example',
        competitors: ['rival.com', 'other.org'],
        serpTop: 100,
        shared: true,
        folder: folder.body.folder._id,
      });

      const unfiled = await app.request('PUT', '/api/projects', {
        key,
        body: { _id: id, name: 'Renamed', domain: 'upd2.example', folder: '' },
      });
      expect(unfiled.body.project).toMatchObject({ folder: null, competitors: ['rival.com', 'other.org'] });
      const detail = await app.request('GET', `/api/projects/${id}`, { key });
      expect(detail.body.project).toMatchObject({ name: 'Renamed', folder: null, competitors: ['rival.com', 'other.org'] });
    });

    it('refuses a bad competitor with 400', async () => {
      const { body } = await create({ name: 'Upd3', domain: 'upd3.example' });
      const response = await app.request('PUT', '/api/projects', {
        key,
        body: { _id: body.project._id, name: 'a', domain: 'upd3.example', competitors: ['not a domain'] },
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/competitors must be a domain name/);
    });
  });

  it('keeps a time zone as the zone database spells it today, not by the older name Node knows it by', async () => {
    // Before, Asia/Kathmandu came back as Asia/Katmandu and Europe/Kyiv as Europe/Kiev (ICU's old names).
    for (const [sent, kept] of [
      ['Asia/Kathmandu', 'Asia/Kathmandu'],
      ['Europe/Kyiv', 'Europe/Kyiv'],
      ['Asia/Katmandu', 'Asia/Katmandu'],
      // Other names of the database, as written (before the first version of this fix: "Est5edt", "Us/Eastern").
      ['EST5EDT', 'EST5EDT'],
      ['US/Eastern', 'US/Eastern'],
      ['America/Argentina/ComodRivadavia', 'America/Argentina/ComodRivadavia'],
      // Case is corrected where ICU spells the name the same; an all-lower-case other name takes ICU's.
      ['america/port-au-prince', 'America/Port-au-Prince'],
      ['us/eastern', 'America/New_York'],
    ]) {
      const created = await app.request('POST', '/api/projects', {
        key,
        body: { name: `Zone ${sent}`, domain: 'zone.example', updateTimezone: sent },
      });
      const shown = await app.request('GET', `/api/projects/${created.body.project._id}`, { key });
      expect({ sent, kept: shown.body.project.updateTimezone }).toEqual({ sent, kept });
    }
  });

  it('deletes a project and answers with the refreshed lists; the project is gone everywhere', async () => {
    const { body } = await create({ name: 'Doomed', domain: 'doomed.example' });
    const id = body.project._id;
    await app.request('POST', '/api/projects/keywords', { key, body: { projectId: id, keywords: ['a'], geoCode: 'US', langCode: 'en' } });
    const deleted = await app.request('DELETE', '/api/projects', { key, body: { _id: id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, message: 'Project deleted', folders: expect.any(Array) });
    expect(deleted.body.projects.some((p: { _id: string }) => p._id === id)).toBe(false);
    expect((await app.request('GET', `/api/projects/${id}`, { key })).status).toBe(404);
    expect((await app.request('DELETE', '/api/projects', { key, body: { _id: id } })).status).toBe(404);
    expect(
      (
        await app.request('POST', '/api/projects/keywords', {
          key,
          body: { projectId: id, keywords: ['b'], geoCode: 'US', langCode: 'en' },
        })
      ).status,
    ).toBe(404);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await app.request('GET', '/api/projects/nope', { key })).status).toBe(400);
    expect((await app.request('GET', `/api/projects/${'e'.repeat(24)}`, { key })).status).toBe(404);
    expect((await app.request('DELETE', '/api/projects', { key, body: {} })).status).toBe(400);
  });
});

describe("Another account's project, shared projects and suspended accounts", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("answers 404 everywhere for another account's project", async () => {
    const owner = await app.createAccount();
    const other = await app.createAccount();
    const { body } = await app.request('POST', '/api/projects', {
      key: owner.apiKey,
      body: { name: 'Private', domain: 'private.example' },
    });
    const id = body.project._id;
    await app.request('POST', '/api/projects/notes', { key: owner.apiKey, body: { projectId: id, date: '2026-01-02', text: 'mine' } });
    const note = (await app.request('GET', '/api/projects/notes', { key: owner.apiKey, query: { projectId: id } })).body.data[0];

    const calls: [string, string, { body?: unknown; query?: Record<string, string> }][] = [
      ['GET', `/api/projects/${id}`, {}],
      ['PUT', '/api/projects', { body: { _id: id, name: 'x', domain: 'x.com' } }],
      ['DELETE', '/api/projects', { body: { _id: id } }],
      ['POST', '/api/projects/keywords', { body: { projectId: id, keywords: ['x'], geoCode: 'US', langCode: 'en' } }],
      ['DELETE', '/api/projects/keywords', { body: { projectId: id, keywordIds: ['f'.repeat(24)] } }],
      ['GET', '/api/projects/notes', { query: { projectId: id } }],
      ['POST', '/api/projects/notes', { body: { projectId: id, date: '2026-01-02', text: 'theirs' } }],
      ['DELETE', '/api/projects/notes', { body: { noteId: note._id } }],
    ];
    for (const [method, path, options] of calls) {
      const response = await app.request(method, path, { key: other.apiKey, ...options });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
    }
    expect((await app.request('GET', '/api/projects', { key: other.apiKey })).body.projects).toEqual([]);
    // Nothing of the other account's attempts reached the owner's project.
    const notes = await app.request('GET', '/api/projects/notes', { key: owner.apiKey, query: { projectId: id } });
    expect(notes.body.data.map((n: { text: string }) => n.text)).toEqual(['mine']);
    expect((await app.request('GET', `/api/projects/${id}`, { key: owner.apiKey })).body.project.name).toBe('Private');
  });

  it("serves a shared project and its notes without a key, and to another account's key; nothing else", async () => {
    const owner = await app.createAccount();
    const other = await app.createAccount();
    const { body } = await app.request('POST', '/api/projects', {
      key: owner.apiKey,
      body: { name: 'Public', domain: 'public.example', shared: true },
    });
    const id = body.project._id;
    await app.request('POST', '/api/projects/notes', { key: owner.apiKey, body: { projectId: id, date: '2026-01-02', text: 'visible' } });

    for (const key of [undefined, other.apiKey]) {
      const detail = await app.request('GET', `/api/projects/${id}`, { key });
      expect(detail.status).toBe(200);
      expect(detail.body.project.name).toBe('Public');
      const notes = await app.request('GET', '/api/projects/notes', { key, query: { projectId: id } });
      expect(notes.status).toBe(200);
      expect(notes.body.data[0].text).toBe('visible');
    }
    // Writes and lists stay private.
    expect(
      (await app.request('POST', '/api/projects/notes', { key: other.apiKey, body: { projectId: id, date: '2026-01-03', text: 'x' } }))
        .status,
    ).toBe(404);
    expect((await app.request('GET', '/api/projects')).status).toBe(401);

    await app.request('PUT', '/api/projects', {
      key: owner.apiKey,
      body: { _id: id, name: 'Public', domain: 'public.example', shared: false },
    });
    expect((await app.request('GET', `/api/projects/${id}`)).status).toBe(401);
    expect((await app.request('GET', `/api/projects/${id}`, { key: other.apiKey })).status).toBe(404);
  });

  it('refuses a suspended account the writes the spec lists, and lets it read and manage projects', async () => {
    const { accountId, apiKey } = await app.createAccount();
    const { body } = await app.request('POST', '/api/projects', { key: apiKey, body: { name: 'S', domain: 's.example' } });
    const id = body.project._id;
    const folder = await app.request('POST', '/api/projects/folders', { key: apiKey, body: { name: 'F' } });
    await app.admin('PATCH', `/admin/accounts/${accountId}`, { status: 'suspended' });

    const refused: [string, string, { body?: unknown; query?: Record<string, string> }][] = [
      ['POST', '/api/projects/keywords', { body: { projectId: id, keywords: ['x'], geoCode: 'US', langCode: 'en' } }],
      ['DELETE', '/api/projects/keywords', { body: { projectId: id, keywordIds: ['f'.repeat(24)] } }],
      ['POST', '/api/projects/notes', { body: { projectId: id, date: '2026-01-02', text: 'x' } }],
      ['DELETE', '/api/projects/notes', { body: { noteId: 'f'.repeat(24) } }],
      ['POST', '/api/projects/folders', { body: { name: 'G' } }],
      ['PUT', '/api/projects/folders', { query: { id: folder.body.folder._id }, body: { name: 'H' } }],
      ['DELETE', '/api/projects/folders', { query: { id: folder.body.folder._id } }],
    ];
    for (const [method, path, options] of refused) {
      const response = await app.request(method, path, { key: apiKey, ...options });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
      expect(response.body).toMatchObject({ message: 'Account suspended', suspended: true });
    }
    expect((await app.request('GET', '/api/projects', { key: apiKey })).status).toBe(200);
    expect((await app.request('GET', '/api/projects/folders', { key: apiKey })).status).toBe(200);
    expect((await app.request('GET', '/api/projects/notes', { key: apiKey, query: { projectId: id } })).status).toBe(200);
    expect((await app.request('GET', '/api/user/capacity', { key: apiKey })).status).toBe(200);
    expect((await app.request('PUT', '/api/projects', { key: apiKey, body: { _id: id, name: 'S2', domain: 's.example' } })).status).toBe(
      200,
    );
    expect((await app.request('POST', '/api/projects', { key: apiKey, body: { name: 'S3', domain: 's3.example' } })).status).toBe(201);
  });
});
