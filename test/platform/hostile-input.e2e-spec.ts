import { parseStreamName } from '@rank/domain/stream-categories';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '@rank/platform/config/app-config';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { answerToUnsentBody } from '../support/unsent-body';

/** The findings of the hostile probe (issue 8), each as the answer it must now get. */
describe('Hostile input', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    app = await startTestApp({ env: { HTTP_REQUEST_TIMEOUT_MS: '1500' } });
    key = (await app.createAccount()).apiKey;
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Target', domain: 'target.example' } })).body.project._id;
  });
  afterAll(() => app.close());

  const raw = (method: string, path: string, body: string, headers: Record<string, string> = {}) =>
    app.request(method, path, { key, rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

  describe('strings must be well-formed text', () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, as a hostile client sends it.
    it.each([
      ['POST', '/api/projects/folders', () => ({ name: 'a\ud800b' }), 'name must be well-formed text'],
      ['POST', '/api/projects', () => ({ name: '\udfff', domain: 'x.example' }), 'name must be well-formed text'],
      [
        'POST',
        '/api/projects/keywords',
        () => ({ projectId, keywords: ['fine', 'bad \ud83d'], geoCode: 'US', langCode: 'en' }),
        'keywords.1 must be well-formed text',
      ],
      ['POST', '/api/projects/notes', () => ({ projectId, date: '2026-01-01', text: '\ud800' }), 'text must be well-formed text'],
      ['POST', '/api/projects/folders', () => ({ name: 'nul\u0000' }), 'name must not contain control characters'],
      [
        'POST',
        '/api/projects/keywords',
        () => ({ projectId, keywords: ['bell\u0007'], geoCode: 'US', langCode: 'en' }),
        'keywords.0 must not contain control characters',
      ],
      [
        'POST',
        '/api/projects/notes',
        () => ({ projectId, date: '2026-01-01', text: 'esc \u001b[31m' }),
        'text must not contain control characters',
      ],
      ['POST', '/api/projects/folders', () => ({ name: 'two\nlines' }), 'name must be a single line'],
      // Unicode's line and paragraph separators are line breaks too.
      ['POST', '/api/projects', () => ({ name: 'ab\u2028cd', domain: 'x.example' }), 'name must be a single line'],
      ['POST', '/api/projects/folders', () => ({ name: 'ab\u2029cd' }), 'name must be a single line'],
      // A right-to-left override shows "Invoices\u202Etxt.exe" as "Invoicesexe.txt".
      [
        'POST',
        '/api/projects/folders',
        () => ({ name: 'Invoices\u202Etxt.exe' }),
        'name must not contain bidirectional control characters',
      ],
      ['POST', '/api/user/api-keys', () => ({ name: 'ci \u2066key\u2069' }), 'name must not contain bidirectional control characters'],
      [
        'POST',
        '/api/projects/keywords',
        () => ({ projectId, keywords: ['eggs\uffff'], geoCode: 'US', langCode: 'en' }),
        'keywords.0 must not contain Unicode noncharacters',
      ],
      [
        'POST',
        '/api/projects/notes',
        () => ({ projectId, date: '2026-01-01', text: 'x \u{10FFFE}' }),
        'text must not contain Unicode noncharacters',
      ],
      [
        'POST',
        '/api/projects/folders',
        () => ({ name: 'ok', ['k\ud800']: 1 }),
        'a field name in the request body must be well-formed text',
      ],
    ])('%s %s, case %#: a 400 naming the field, and nothing written', async (method, path, body, message) => {
      const store = app.running.stores.eventStore;
      const end = await store.lastPosition();
      const response = await raw(method, path, JSON.stringify(body()));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, message: expect.stringContaining(message) });
      // Background work of the project made in beforeAll (suggestions, domain data) may append to
      // streams of its own meanwhile; what the request could have written is the account's records.
      const written = (await store.readAll({ afterPosition: end, maxCount: 100_000 })).filter((e) =>
        ['account', 'workspace', 'project'].includes(parseStreamName(e.streamName)?.category ?? ''),
      );
      expect(written).toEqual([]);
    });

    it('takes a line break and a tab in note text, and aliases one per line', async () => {
      const note = await app.request('POST', '/api/projects/notes', {
        key,
        body: { projectId, date: '2026-01-02', text: 'line one\nline\ttwo\u2028three, \u05e9\u05dc\u05d5\u05dd\u200f' },
      });
      expect(note.status).toBe(201);
      // A line separator is a line break where line breaks are allowed; a right-to-left mark is text.
      expect(note.body.data.text).toBe('line one\nline\ttwo\u2028three, \u05e9\u05dc\u05d5\u05dd\u200f');
      const update = await app.request('PUT', '/api/projects', {
        key,
        body: { _id: projectId, name: 'Target', domain: 'target.example', aliases: 'a.example\nb.example' },
      });
      expect(update.status).toBe(200);
      expect(update.body.project.aliases).toEqual(['a.example', 'b.example']);
      // Any line break the input takes separates aliases: before, U+2028 and U+2029 passed the check
      // and then made one alias "a.example\u2028b.example", refused as not a domain.
      const separated = await app.request('PUT', '/api/projects', {
        key,
        body: { _id: projectId, name: 'Target', domain: 'target.example', aliases: 'c.example\u2028d.example\u2029e.example\nf.example' },
      });
      expect({ status: separated.status, aliases: separated.body.project?.aliases }).toEqual({
        status: 200,
        aliases: ['c.example', 'd.example', 'e.example', 'f.example'],
      });
    });

    it('refuses a query value or name that does not decode as UTF-8, naming it, instead of taking its raw characters', async () => {
      for (const [query, message] of [
        [`projectId=${projectId}&search=%FF`, 'search must be percent-encoded UTF-8 text (got "%FF")'],
        [`projectId=${projectId}&search=a%ED%A0%80`, 'search must be percent-encoded UTF-8 text (got "a%ED%A0%80")'],
        [`search%zz=x&projectId=${projectId}`, 'a query parameter\'s name must be percent-encoded UTF-8 text (got "search%zz")'],
      ]) {
        const response = await app.request('GET', `/api/projects/keyword-updates?${query}`, { key });
        expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 400, body: { success: false, message } });
      }
      // Well-encoded text, a literal percent sign and a plus for a space still pass.
      const fine = await app.request('GET', `/api/projects/keyword-updates?projectId=${projectId}&search=%E2%82%AC+100%25`, { key });
      expect(fine.status).toBe(200);
    });

    it('checks query strings too', async () => {
      const response = await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId, search: 'x\u0000' } });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/search must not contain control characters/);
    });

    it("checks query parameters a route does not read, and their names: before, only a route's own parameters were", async () => {
      for (const [query, message] of [
        ['foo=%01', 'foo must not contain control characters'],
        ['foo=%E2%80%AE', 'foo must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069)'],
        ['foo=%EF%BF%BE', 'foo must not contain Unicode noncharacters (such as U+FFFE and U+FFFF)'],
        ['a%0Ab=1', "a query parameter's name must be a single line (line breaks are allowed only in note text and aliases)"],
      ]) {
        for (const path of ['/api/projects', '/api/user/capacity']) {
          const response = await app.request('GET', `${path}?${query}`, { key });
          expect({ path, query, status: response.status, body: response.body }).toEqual({
            path,
            query,
            status: 400,
            body: { success: false, message },
          });
        }
      }
      // Percent-encoded text that is well formed still passes where it is not read.
      expect((await app.request('GET', '/api/projects?utm=%E2%82%AC+100%25&x=%09', { key })).status).toBe(200);
    });
  });

  it('refuses 6,000 levels of nesting with a 400, never a 500', async () => {
    const deep = '['.repeat(6_000) + ']'.repeat(6_000);
    const response = await raw('POST', '/api/projects/folders', `{"name": ${deep}}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message: 'The request body is nested too deeply: at most 32 levels' });
    // Brackets inside strings do not count.
    const brackets = await raw('POST', '/api/projects/folders', JSON.stringify({ name: '[[[['.repeat(20) }));
    expect(brackets.status).toBe(201);
  });

  it('says what is wrong with a body that is not UTF-8, compressed, or poisoning prototypes, and writes nothing', async () => {
    const post = async (body: Buffer | string, headers: Record<string, string> = {}) => {
      const response = await fetch(new URL('/api/projects/folders', app.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const foldersBefore = (await app.request('GET', '/api/projects/folders', { key })).body;
    // Before, the first two were "Request body size did not match Content-Length", the last "not valid JSON".
    expect(await post(Buffer.from('{"name":"caf\xe9"}', 'latin1'), { 'content-type': 'application/json; charset=latin1' })).toEqual({
      status: 400,
      body: { success: false, message: 'The request body is not UTF-8 text: send JSON as UTF-8' },
    });
    expect(await post(Buffer.from([...Buffer.from('{"name":"x'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')]))).toMatchObject({ status: 400 });
    expect(await post(gzipSync('{"name":"zipped"}'), { 'content-encoding': 'gzip' })).toEqual({
      status: 415,
      body: { success: false, message: 'Content-Encoding "gzip" is not accepted: send the body uncompressed' },
    });
    const poisoned = 'The request body may not hold a "__proto__" key, nor a "constructor" key holding "prototype"';
    expect(await post('{"name":"p","__proto__":{"admin":true}}')).toEqual({ status: 400, body: { success: false, message: poisoned } });
    expect(await post('{"name":"p","constructor":{"prototype":{}}}')).toEqual({ status: 400, body: { success: false, message: poisoned } });
    expect((await app.request('GET', '/api/projects/folders', { key })).body).toEqual(foldersBefore);
    // UTF-8 text, with or without a byte-order mark, and an identity coding still pass.
    expect((await post(Buffer.from('\ufeff{"name":"café"}', 'utf8'), { 'content-encoding': 'identity' })).status).toBe(201);
  });

  it('answers a keyless request with a body 401 before reading it', async () => {
    const garbage = '{'.repeat(10) + 'x'.repeat(4_900_000);
    const response = await app.request('POST', '/api/projects', {
      key: null,
      rawBody: garbage,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(/Missing API key/);
    expect(
      (await app.request('POST', '/api/projects', { key: null, rawBody: '', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(401);
    expect(
      (await app.request('POST', '/api/projects', { key: 'wrong', rawBody: 'not json', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(401);
    // A percent-encoded prefix is the same route (the router decodes it), and is refused the same way.
    const encoded = await app.request('POST', '/%61pi/projects', {
      key: null,
      rawBody: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect({ status: encoded.status, message: encoded.body.message }).toEqual({
      status: 401,
      message: expect.stringMatching(/Missing API key/),
    });
    // The body is never waited for: announced but not sent, the refusal still comes (a server reading it first
    // would answer 408 after HTTP_REQUEST_TIMEOUT_MS). This replaces a CPU-time bound, which a busy machine broke.
    const answer = await answerToUnsentBody(app.url, 'POST', '/api/projects', { 'Content-Type': 'application/json' }, 5_000_000);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/Missing API key/);
  });

  it('cuts off a body that arrives one byte a second', async () => {
    const url = new URL(app.url);
    const started = Date.now();
    const closedAfter = await new Promise<{ ms: number; answer: string }>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /api/projects/folders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
        );
        const drip = setInterval(() => socket.writable && socket.write(' '), 1_000);
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => {
          clearInterval(drip);
          resolve({ ms: Date.now() - started, answer });
        });
      });
    });
    expect(closedAfter.ms).toBeLessThan(6_000);
    expect(closedAfter.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfter.answer).toMatch(/\r\nConnection: close\r\n/);
    expect(closedAfter.answer).toMatch(/\{"success":false,"message":"The request did not arrive whole within the time limit"\}$/);
  });

  it('answers a request too large to parse in the error shape, and says it closes the connection so a keep-alive client does not reuse it', async () => {
    const url = new URL(app.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /api/projects?q=${'k'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve(received));
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      message: expect.stringMatching(/too large/),
    });
    // The next request, on a new connection, is served as usual.
    expect((await app.request('GET', '/api/projects', { key })).status).toBe(200);
  });

  it('keeps dates within what ClickHouse stores, and icons to http(s) URLs or plain identifiers', async () => {
    for (const date of ['0000-01-01', '1969-12-31', '2149-06-07', '9999-12-31']) {
      const response = await app.request('POST', '/api/projects/notes', { key, body: { projectId, date, text: 'x' } });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/date must be a real calendar date as YYYY-MM-DD, from 1970-01-01 to 2149-06-06/);
    }
    expect((await app.request('POST', '/api/projects/notes', { key, body: { projectId, date: '2149-06-06', text: 'last' } })).status).toBe(
      201,
    );
    for (const icon of ['javascript:alert(1)', 'data:text/html,x', 'ftp://x.example/i.png', '//evil.example/x']) {
      const response = await app.request('POST', '/api/projects', { key, body: { name: 'Icon', domain: 'icon.example', icon } });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/icon must be an http\(s\) URL or an icon identifier/);
    }
    for (const icon of ['https://icon.example/i.png', 'star', '']) {
      expect(
        (await app.request('POST', '/api/projects', { key, body: { name: `Icon ${icon}`, domain: 'icon.example', icon } })).status,
      ).toBe(201);
    }
  });

  it('sends security headers: nosniff and no-store on authenticated answers, a CSP everywhere, one that lets the docs page load', async () => {
    const listed = await app.request('GET', '/api/projects', { key });
    expect(listed.headers.get('x-content-type-options')).toBe('nosniff');
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const refused = await app.request('GET', '/api/projects', { key: null });
    expect(refused.headers.get('cache-control')).toBe('no-store');
    // The router serves /%61pi/projects as /api/projects: its answer is not cached either.
    const encoded = await app.request('GET', '/%61pi/projects', { key });
    expect({ status: encoded.status, cacheControl: encoded.headers.get('cache-control') }).toEqual({
      status: 200,
      cacheControl: 'no-store',
    });
    const docsAsset = await app.request('GET', '/api/docs/swagger-ui.css');
    expect({ status: docsAsset.status, policy: docsAsset.headers.get('content-security-policy') }).toEqual({
      status: 200,
      policy: expect.stringMatching(/style-src 'self' 'unsafe-inline'/),
    });
    const docs = await app.request('GET', '/api/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-security-policy')).toMatch(/script-src 'self' 'unsafe-inline'/);
  });

  it('answers a path that does not decode as UTF-8 in the error shape, quoting the part (Fastify answered in its own)', async () => {
    for (const [path, part] of [
      ['/api/projects/%ED%A0%80', '%ED%A0%80'],
      ['/api/projects/%zz', '%zz'],
    ]) {
      const response = await app.request('GET', path!, { key });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 400,
        body: { success: false, message: `the path must be percent-encoded UTF-8 text (got "${part}")` },
      });
    }
  });

  it('takes an id of any length to its route, whose validation names it', async () => {
    const response = await app.request('GET', `/api/projects/${'a'.repeat(5_000)}`, { key });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message: 'id must be a 24-character hex id' });
  });

  it('serves /api/projects/ as /api/projects', async () => {
    const slash = await app.request('GET', '/api/projects/', { key });
    expect(slash.status).toBe(200);
    expect(slash.body).toEqual((await app.request('GET', '/api/projects', { key })).body);
  });

  describe('the operator API', () => {
    it('answers a body that is not a JSON object with a 400', async () => {
      for (const body of ['null', '123', '[]', '"x"']) {
        const response = await app.request('POST', '/admin/accounts', {
          key: TEST_ADMIN_TOKEN,
          rawBody: body,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ success: false, message: 'The request body must be a JSON object' });
      }
    });

    it('limits wrong tokens per address: 429 with Retry-After after a burst, even for the right token, until the minute ends', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push((await app.request('GET', '/admin/accounts/0123456789abcdef01234567', { key: `wrong-${i}` })).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual([429, 429]);
      const right = await app.admin('POST', '/admin/accounts', {});
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(right.body).toEqual({
        success: false,
        message: 'Too many wrong operator tokens from this address; try again later',
        retryAfter: Number(right.headers.get('retry-after')),
      });
    });

    it('needs an ADMIN_TOKEN of at least 32 characters', () => {
      expect(() => loadConfig({ ADMIN_TOKEN: 'x'.repeat(31) })).toThrow(/ADMIN_TOKEN must be at least 32 characters long/);
      expect(loadConfig({ ADMIN_TOKEN: 'x'.repeat(32) }).adminToken).toHaveLength(32);
    });
  });
});
