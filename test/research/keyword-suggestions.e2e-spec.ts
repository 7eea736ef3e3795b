import {
  FAKE_DATAFORSEO_KEYWORDS_LOGIN,
  FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
  FakeDataForSeoKeywords,
  fakeFiguresFor,
  startDataForSeoKeywordsFake,
} from '@rank/providers/dataforseo/testing/fake-dataforseo-keywords';
import { FakeGoogleAutocomplete, startGoogleAutocompleteFake } from '@rank/providers/autocomplete/testing/fake-google-autocomplete';
import { FakeOpenAi, OPENAI_FAILURES, startOpenAiFake } from '@rank/providers/llm/testing/fake-openai';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { SuggestionsRunnerLifecycle } from '@rank/research/suggestions/suggestions-runner.lifecycle';
import { OpenApiConformance, RecordedAnswer, recordAnswers } from '../support/openapi-conformance';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * Keyword suggestions over HTTP, generated in the background with an OpenAI-compatible model
 * (OPENAI_BASE_URL, OPENAI_API_KEY), Google Autocomplete (GOOGLE_BASE_URL) as its fallback and
 * DataForSEO's Keywords Data (DATAFORSEO_*) for the phrases' volumes, each played by its fake.
 */
describe('Keyword suggestions', () => {
  let app: TestApp;
  /** Every answer of the tests below, checked against the served OpenAPI document at the end. */
  let answers: RecordedAnswer[];
  let llm: FakeOpenAi;
  let autocomplete: FakeGoogleAutocomplete;
  let dataForSeo: FakeDataForSeoKeywords;
  let key: string;
  let projectId: string;

  const suggestions = (apiKey = key, id = projectId) =>
    app.request('GET', '/api/projects/keyword-suggestions', { key: apiKey, query: { projectId: id } });
  /** The answer once `runs` runs have ended and the read models hold their volumes. */
  const afterRuns = async (runs: number) => {
    await waitFor(
      () => suggestions(),
      (r) => r.body.runCount === runs,
    );
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    return suggestions();
  };
  const lastVolumeOf = (phrase: string) => fakeFiguresFor(phrase).history.at(-1)!.value;

  beforeAll(async () => {
    [llm, autocomplete, dataForSeo] = await Promise.all([
      startOpenAiFake('sk-test-suggestions'),
      startGoogleAutocompleteFake(),
      startDataForSeoKeywordsFake(),
    ]);
    app = await startTestApp({
      env: {
        OPENAI_BASE_URL: llm.url,
        OPENAI_API_KEY: 'sk-test-suggestions',
        OPENAI_MODEL: 'gpt-test',
        GOOGLE_BASE_URL: autocomplete.url,
        DATAFORSEO_LOGIN: FAKE_DATAFORSEO_KEYWORDS_LOGIN,
        DATAFORSEO_PASSWORD: FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
        DATAFORSEO_BASE_URL: dataForSeo.url,
      },
    });
    answers = recordAnswers(app);
    ({ apiKey: key } = await app.createAccount());
  });
  afterAll(async () => {
    await app.close();
    await Promise.all([llm.close(), autocomplete.close(), dataForSeo.close()]);
  });

  it("answers {ready: false} while the first run is under way, then the model's phrases for the domain's own country", async () => {
    llm.keywords = ['coffee beans online', 'Best Espresso  Machine', 'coffee subscription'];
    llm.failNext({ kind: 'delay', ms: 1_500, then: { kind: 'json', body: chatAnswer(llm.keywords) } });
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Kaffee', domain: 'https://www.kaffee.de/shop' } })).body
      .project._id;

    const early = await suggestions();
    expect(early.status).toBe(200);
    expect(early.body).toEqual({ ready: false });

    const ready = await afterRuns(1);
    expect(ready.body).toEqual({
      success: true,
      ready: true,
      domain: 'kaffee.de',
      primary: { lang: 'en', geo: 'DE' },
      locales: [
        {
          key: 'en-DE',
          lang: 'en',
          region: 'Germany',
          geo: 'DE',
          lastUpdatedAt: ready.body.lastRunAt,
          keywords: expect.any(Array),
        },
      ],
      pages: [],
      meta: { seedUsed: 'llm' },
      runCount: 1,
      lastRunAt: expect.any(String),
      lastError: null,
    });
    const phrases = ready.body.locales[0].keywords;
    expect(phrases.map((k: { phrase: string }) => k.phrase).sort()).toEqual([
      'best espresso machine',
      'coffee beans online',
      'coffee subscription',
    ]);
    // Highest latest-month volume first, from the provider's figures; the history grouped by year.
    expect(phrases.map((k: { lastVolume: number }) => k.lastVolume)).toEqual(
      phrases.map((k: { phrase: string }) => lastVolumeOf(k.phrase)).sort((a: number, b: number) => b - a),
    );
    const history = fakeFiguresFor(phrases[0].phrase).history;
    expect(
      phrases[0].volume.flatMap((y: { year: number; months: { month: number; value: number }[] }) =>
        y.months.map((m) => ({ year: y.year, ...m })),
      ),
    ).toEqual(history);
    expect(new Set(phrases[0].volume.map((y: { year: number }) => y.year)).size).toBe(phrases[0].volume.length);

    const prompt = JSON.stringify(llm.requests.at(-1)!.body);
    expect(prompt).toContain('kaffee.de');
    expect(prompt).toContain('country DE, language en');
  });

  it('runs again when keywords bring a new locale: at most 30 phrases, by lastVolume, unknown volumes last, tracked keywords never', async () => {
    const generated = Array.from({ length: 40 }, (_, i) => `espresso phrase ${i + 1}`);
    dataForSeo.unknown.add('espresso phrase 3');
    dataForSeo.unknown.add('espresso phrase 7');
    // 43 phrases, two of them tracked and two unknown to the provider: only the 30 highest volumes fit.
    llm.keywords = [...generated.slice(0, 29), 'espresso phrase 3', 'espresso phrase 7', 'Coffee Grinder', ...generated.slice(29)];
    const added = await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['coffee grinder', 'espresso phrase 1'], geoCode: 'US', langCode: 'en' },
    });
    expect(added.status).toBe(200);

    const answer = await afterRuns(2);
    expect(answer.body).toMatchObject({
      ready: true,
      primary: { lang: 'en', geo: 'US' },
      meta: { seedUsed: 'llm' },
      runCount: 2,
      lastError: null,
    });
    expect(answer.body.locales.map((l: { key: string }) => l.key)).toEqual(['en-US']);
    const [us] = answer.body.locales;
    expect(us.region).toBe('United States');
    const phrases: { phrase: string; lastVolume: number | null }[] = us.keywords;
    expect(phrases).toHaveLength(30);
    expect(phrases.map((p) => p.phrase)).not.toContain('coffee grinder');
    expect(phrases.map((p) => p.phrase)).not.toContain('espresso phrase 1');
    const known = phrases.filter((p) => p.lastVolume !== null);
    expect(known.map((p) => p.lastVolume)).toEqual(known.map((p) => lastVolumeOf(p.phrase)).sort((a, b) => b - a));
    // The 30 kept are the highest of the 37 with a volume: the two unknown ones and the lowest are cut.
    const withVolume = llm.keywords
      .map((k) => k.toLowerCase())
      .filter((k) => !['coffee grinder', 'espresso phrase 1', 'espresso phrase 3', 'espresso phrase 7'].includes(k));
    const best = [...withVolume].sort((a, b) => lastVolumeOf(b) - lastVolumeOf(a)).slice(0, 30);
    expect(phrases.map((p) => p.phrase)).toEqual(best);
  });

  it("keeps the phrases' order with unknown volumes last when fewer than 30 came", async () => {
    llm.keywords = ['grinder burr', 'espresso phrase 3', 'grinder hand'];
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['coffee grinder'], geoCode: 'GB', langCode: 'en' },
    });
    const answer = await afterRuns(3);
    const gb = answer.body.locales.find((l: { key: string }) => l.key === 'en-GB');
    expect(gb.region).toBe('United Kingdom');
    expect(gb.keywords.at(-1)).toEqual({ phrase: 'espresso phrase 3', lastVolume: null, volume: [] });
    expect(gb.keywords.slice(0, 2).map((k: { lastVolume: number }) => k.lastVolume)).toEqual(
      ['grinder burr', 'grinder hand'].map(lastVolumeOf).sort((a, b) => b - a),
    );
  });

  it('falls back to autocomplete when the model fails, and says why in lastError', async () => {
    llm.failWith(OPENAI_FAILURES.serverError());
    autocomplete.phrases.set('kaffeebohnen', ['kaffeebohnen', 'kaffeebohnen test', 'kaffeebohnen kaufen']);
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['kaffeebohnen'], geoCode: 'DE', langCode: 'de' },
    });
    const answer = await afterRuns(4);
    llm.failWith(undefined);
    expect(answer.body).toMatchObject({ ready: true, meta: { seedUsed: 'autocomplete' }, runCount: 4 });
    expect(answer.body.lastError).toMatch(/language model failed/);
    expect(answer.body.lastError).not.toContain('sk-test-suggestions');
    const de = answer.body.locales.find((l: { key: string }) => l.key === 'de-DE');
    // The tracked keyword itself, which autocomplete answers first, is left out.
    expect(de.keywords.map((k: { phrase: string }) => k.phrase).sort()).toEqual(['kaffeebohnen kaufen', 'kaffeebohnen test']);
    expect(
      autocomplete.requests.some((r) => r.query.get('q') === 'kaffeebohnen' && r.query.get('hl') === 'de' && r.query.get('gl') === 'DE'),
    ).toBe(true);
  });

  it('starts nothing for keywords of a locale it already covers', async () => {
    const calls = llm.requests.length;
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId, keywords: ['espresso beans'], geoCode: 'US', langCode: 'en' },
    });
    await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
    await new Promise((r) => setTimeout(r, 300));
    expect((await suggestions()).body.runCount).toBe(4);
    expect(llm.requests.length).toBe(calls);
  });

  it("needs the project id, hides other accounts' projects and refuses a suspended account", async () => {
    const missing = await app.request('GET', '/api/projects/keyword-suggestions', { key });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/projectId/);
    const other = await app.createAccount();
    expect((await suggestions(other.apiKey)).status).toBe(404);
    const suspended = await app.createAccount();
    const own = (await app.request('POST', '/api/projects', { key: suspended.apiKey, body: { name: 'S', domain: 's.example' } })).body
      .project._id;
    await app.admin('PATCH', `/admin/accounts/${suspended.accountId}`, { status: 'suspended' });
    const refused = await suggestions(suspended.apiKey, own);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'Account suspended', suspended: true });
  });
  it('says both failures when the model and autocomplete fail, and runs again once keywords come (the failed run covered nothing)', async () => {
    const create = await app.request('POST', '/api/projects', { key, body: { name: 'Both', domain: 'both.example' } });
    const id = create.body.project._id as string;
    llm.failWith(OPENAI_FAILURES.serverError());
    autocomplete.failWith('server-error');
    try {
      const failed = await waitFor(
        () => suggestions(key, id),
        (r) => r.body.runCount === 1,
      );
      // Before, only autocomplete's failure was said.
      expect(failed.body).toMatchObject({ ready: true, runCount: 1 });
      expect(failed.body.lastError).toMatch(/^Google Autocomplete failed: .*; before it, the language model failed: /);
    } finally {
      llm.failWith(undefined);
      autocomplete.failWith(undefined);
    }
    await app.request('POST', '/api/projects/keywords', {
      key,
      body: { projectId: id, keywords: ['both shoes'], geoCode: 'US', langCode: 'en' },
    });
    const again = await waitFor(
      () => suggestions(key, id),
      (r) => r.body.runCount === 2,
    );
    expect(again.body.lastError).toBeNull();
  });

  it("erases a project's suggestions with the project, and a run the delete overtook writes nothing after it", async () => {
    const store = app.running.stores.eventStore;
    const runner = () => app.running.app.get(SuggestionsRunnerLifecycle).current!;
    const typesIn = async (id: string) => (await store.readStream(`suggestions-${id}`)).map((e) => e.type);
    const remove = async (id: string) =>
      expect((await app.request('DELETE', '/api/projects', { key, body: { _id: id } })).status).toBe(200);
    const create = async (name: string, domain: string) =>
      (await app.request('POST', '/api/projects', { key, body: { name, domain } })).body.project._id as string;

    // Given a project whose run has finished, when it is deleted, then its suggestions go with it
    const finished = await create('Tee', 'tee.example');
    await waitFor(
      () => typesIn(finished),
      (types) => types.includes('SuggestionsRunFinished'),
    );
    await remove(finished);
    expect(await typesIn(finished)).toEqual([]);

    // Given a run waiting on the model, when its project is deleted, then the run ends without writing
    llm.failNext({ kind: 'delay', ms: 1_500, then: { kind: 'json', body: chatAnswer(['cocoa beans']) } });
    const underWay = await create('Kakao', 'kakao.example');
    await waitFor(
      () => typesIn(underWay),
      (types) => types.includes('SuggestionsRunStarted'),
    );
    await remove(underWay);
    await runner().idle();
    expect(await typesIn(underWay)).toEqual([]);
  });

  it("gets another account's suggestions ready while one account's model call hangs", async () => {
    const store = app.running.stores.eventStore;
    const typesIn = async (id: string) => (await store.readStream(`suggestions-${id}`)).map((e) => e.type);
    const { apiKey: other } = await app.createAccount();
    const create = async (apiKey: string, name: string, domain: string) =>
      (await app.request('POST', '/api/projects', { key: apiKey, body: { name, domain } })).body.project._id as string;

    // The first model call (the slow account's) answers only after 15 s.
    llm.failNext({ kind: 'delay', ms: 15_000, then: { kind: 'json', body: chatAnswer(['slow phrase']) } });
    const slow = await create(key, 'Slow', 'slow-model.example');
    await waitFor(
      () => typesIn(slow),
      (types) => types.includes('SuggestionsRunStarted'),
    );
    const quick = await create(other, 'Quick', 'quick-model.example');
    // Before, the quick project waited in line behind the slow call.
    const ready = await waitFor(
      () => suggestions(other, quick),
      (r) => r.body.ready === true,
      10_000,
    );
    expect(ready.body.meta).toEqual({ seedUsed: 'llm' });
    expect(await typesIn(slow)).not.toContain('SuggestionsRunFinished');
    await waitFor(
      () => typesIn(slow),
      (types) => types.includes('SuggestionsRunFinished'),
      30_000,
    );
  });

  it('cuts a run off at stop without recording it as failed, and the restarted runner makes it', async () => {
    const store = app.running.stores.eventStore;
    const typesIn = async (id: string) => (await store.readStream(`suggestions-${id}`)).map((e) => e.type);
    const lifecycle = app.running.app.get(SuggestionsRunnerLifecycle);
    // (the runs of the tests above ended, so the delayed answer below is this project's)
    await lifecycle.current!.idle();
    // Given a run whose model call, under way, answers only after 20 s
    llm.failNext({ kind: 'delay', ms: 20_000, then: { kind: 'json', body: chatAnswer(['late phrase']) } });
    const asked = llm.requests.length;
    const project = (await app.request('POST', '/api/projects', { key, body: { name: 'Stopping', domain: 'stopping-model.example' } })).body
      .project._id as string;
    await waitFor(
      async () => llm.requests.length,
      (n) => n > asked,
    );
    // When the runner stops (a SIGTERM)
    const stoppedAt = Date.now();
    await lifecycle.current!.stop();
    // then it does not wait for the model (before, it held the closing until the call ended), and the run is not a failure
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    expect(await typesIn(project)).toEqual(['SuggestionsRunStarted']);
    // and the runner of the next start makes the run it left unfinished
    await lifecycle.onApplicationBootstrap();
    await waitFor(
      () => typesIn(project),
      (types) => types.includes('SuggestionsRunFinished'),
      60_000,
    );
    expect(await typesIn(project)).toEqual(['SuggestionsRunStarted', 'SuggestionsRunFinished']);
  }, 120_000);

  // Last: it reads what every test above recorded.
  describe('the OpenAPI document', () => {
    it('describes every answer above', async () => {
      const conformance = await OpenApiConformance.of(app);
      expect(conformance.problemsOfAnswers(answers)).toEqual([]);
      expect([...conformance.coverage]).toEqual(expect.arrayContaining(['GET /api/projects/keyword-suggestions 200 application/json']));
    });
  });
});

/** OpenAI's chat.completion body whose message content is the JSON the client asks for. */
function chatAnswer(keywords: string[]) {
  return {
    id: 'chatcmpl-delayed',
    object: 'chat.completion',
    created: 1_748_000_000,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: JSON.stringify({ keywords }), refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
  };
}
