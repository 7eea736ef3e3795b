import { KeywordDataError } from '../keyword-data/keyword-data-error';
import { KEYWORDS_RESPONSE_FORMAT, OpenAiChatKeywords, keywordsOf } from './openai-chat.client';
import { OPENAI_FAILURES as FAIL, startOpenAiFake, type FakeOpenAi } from './testing/fake-openai';

const KEY = 'sk-test-0123456789';
const FAST_RETRY = { attempts: 2, baseDelayMs: 10, timeoutMs: 1_000 };
const PROMPT = { system: 'You suggest search keywords.', user: 'Site: example.com. Tracked: coffee.' };

async function failureOf(promise: Promise<unknown>): Promise<KeywordDataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeywordDataError);
  return error as KeywordDataError;
}

describe('OpenAiChatKeywords against a fake OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  let client: OpenAiChatKeywords;

  beforeAll(async () => {
    fake = await startOpenAiFake(KEY);
    client = new OpenAiChatKeywords({ baseUrl: fake.url, apiKey: KEY, model: 'gpt-4o-mini' }, FAST_RETRY);
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts the chat with the Bearer key, the model and a json_schema response format, and reads the keywords', async () => {
    fake.keywords = [' coffee beans ', 'coffee   beans', 'espresso', ''];
    expect(await client.keywordsFor(PROMPT)).toEqual(['coffee beans', 'espresso']);
    const [request] = fake.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: PROMPT.system },
        { role: 'user', content: PROMPT.user },
      ],
      response_format: KEYWORDS_RESPONSE_FORMAT,
    });
  });

  it('no key (a local server): no Authorization header', async () => {
    const keyless = await startOpenAiFake();
    try {
      const local = new OpenAiChatKeywords({ baseUrl: keyless.url, apiKey: undefined, model: 'llama3.1' }, FAST_RETRY);
      expect(await local.keywordsFor({ user: 'x' })).toHaveLength(3);
      expect(keyless.requests[0].headers.authorization).toBeUndefined();
      expect((keyless.requests[0].body as { messages: unknown[] }).messages).toEqual([{ role: 'user', content: 'x' }]);
    } finally {
      await keyless.close();
    }
  });

  it('tolerates a model that wraps the JSON in prose and a code fence', async () => {
    fake.style = 'wrapped-in-prose';
    expect(await client.keywordsFor(PROMPT)).toEqual(['coffee beans online', 'best espresso machine', 'coffee subscription']);
    expect(keywordsOf('Sure! {"keywords": ["a"]} Anything else?')).toEqual(['a']);
  });

  it('an answer of the wrong shape is upstream_error (malformed)', async () => {
    fake.style = 'wrong-shape';
    const error = await failureOf(client.keywordsFor(PROMPT));
    expect(error.failure).toBe('upstream_error');
    expect(error.kind).toBe('malformed');
    expect(() => keywordsOf('{"keywords": [1, 2]}')).toThrow(KeywordDataError);
    expect(() => keywordsOf('no json at all')).toThrow(KeywordDataError);
  });

  it('a refusal is upstream_error, not retried', async () => {
    fake.style = 'refusal';
    const error = await failureOf(client.keywordsFor(PROMPT));
    expect(error.failure).toBe('upstream_error');
    expect(error.message).toContain('refused');
    expect(fake.requests).toHaveLength(1);
  });

  it('a wrong key is upstream_error with the server message, not retried', async () => {
    const wrong = new OpenAiChatKeywords({ baseUrl: fake.url, apiKey: 'sk-wrong', model: 'm' }, FAST_RETRY);
    const error = await failureOf(wrong.keywordsFor(PROMPT));
    expect(error.status).toBe(401);
    expect(error.message).toContain('Incorrect API key provided: [secret]');
    expect(error.message).not.toContain('sk-wrong');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 5xx or a 429 once, then succeeds; a lasting 5xx gives up after two tries', async () => {
    fake.failNext(FAIL.rateLimited());
    expect(await client.keywordsFor(PROMPT)).toHaveLength(3);
    expect(fake.requests).toHaveLength(2);
    fake.failWith(FAIL.serverError());
    expect((await failureOf(client.keywordsFor(PROMPT))).failure).toBe('upstream_error');
    expect(fake.requests).toHaveLength(4);
  });

  it('a malformed body is upstream_error; a timeout and a reset are unavailable', async () => {
    fake.failWith(FAIL.malformed());
    expect((await failureOf(client.keywordsFor(PROMPT))).kind).toBe('malformed');
    fake.failWith(FAIL.slow(3_000, { kind: 'json', body: {} }));
    expect((await failureOf(client.keywordsFor(PROMPT))).failure).toBe('unavailable');
    fake.failWith(FAIL.reset());
    expect((await failureOf(client.keywordsFor(PROMPT))).failure).toBe('unavailable');
  });
});
