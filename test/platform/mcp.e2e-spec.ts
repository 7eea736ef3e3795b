import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchOfflineChromium } from '@rank/serp/fetcher/test-support/offline-chromium';
import { startTestApp, TestApp } from '../support/test-app';

/** The operations of issue 12's table that are tools (all but API-key creation and revocation). */
const CORE_TOOLS = [
  'listProjects',
  'createProject',
  'updateProject',
  'deleteProject',
  'getProject',
  'listFolders',
  'createFolder',
  'updateFolder',
  'deleteFolder',
  'addKeywords',
  'removeKeywords',
  'scrapeKeywords',
  'getKeywordUpdates',
  'getPositionHistory',
  'getCompetitorPositions',
  'getPages',
  'listNotes',
  'saveNote',
  'deleteNote',
  'getCapacity',
  'exportAgentReport',
  'exportCsv',
  'listApiKeys',
];

describe('MCP endpoint (/api/mcp) with the official SDK client', () => {
  let app: TestApp;
  let key: string;
  let accountId: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey: key, accountId } = await app.createAccount({ balance: 10 }));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
    // Closing lets the background work that added keywords and projects started (volume and domain fetches) finish.
  }, 60_000);

  const connect = async (apiKey: string | null): Promise<Client> => {
    const headers: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
    const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers } });
    const client = new Client({ name: 'rank-tracker-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;

  it('answers 401 without a key, to the SDK client and to a raw request alike', async () => {
    await expect(connect(null)).rejects.toThrow(/401|Missing API key/);
    await expect(connect('rt_not-a-real-key')).rejects.toThrow(/401|Invalid API key/);
    const raw = await app.request('POST', '/api/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(raw.status).toBe(401);
    expect(raw.body.message).toMatch(/Missing API key/);
  });

  it('lists one tool per documented operation, named by its operationId, without API-key creation and revocation', async () => {
    const client = await connect(key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const documented = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(names.sort()).toEqual(documented.filter((id) => !['createApiKey', 'revokeApiKey', 'getHealth'].includes(id)).sort());
    expect(names).toEqual(expect.arrayContaining(CORE_TOOLS));
    expect(names).not.toContain('createApiKey');

    const addKeywords = tools.find((t) => t.name === 'addKeywords')!;
    expect(addKeywords.description).toMatch(/Add keywords/);
    expect(Object.keys(addKeywords.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['projectId', 'keywords', 'geoCode', 'langCode']),
    );
    expect(addKeywords.inputSchema.required).toEqual(expect.arrayContaining(['projectId', 'keywords', 'geoCode', 'langCode']));
    const updates = tools.find((t) => t.name === 'getKeywordUpdates')!;
    expect(updates.inputSchema.required).toEqual(['projectId']);
    expect(updates.annotations?.readOnlyHint).toBe(true);
    // The schemas are resolved: no reference into a document the agent does not have.
    expect(JSON.stringify(tools)).not.toContain('$ref');
  });

  it('runs writes and reads as the REST routes do, answering the REST body as text and structuredContent', async () => {
    const client = await connect(key);
    const created = await call(client, 'createProject', { name: 'Shoes', domain: 'Shoes.Example' });
    expect(created.isError).toBeFalsy();
    const project = (created.structuredContent as { project: { _id: string; domain: string } }).project;
    expect(project.domain).toBe('shoes.example');
    expect(JSON.parse(textOf(created))).toEqual(created.structuredContent);

    const added = await call(client, 'addKeywords', {
      projectId: project._id,
      keywords: ['running shoes', 'trail shoes'],
      geoCode: 'US',
      langCode: 'en',
    });
    expect(added.structuredContent).toMatchObject({ success: true, addedCount: 2 });
    const keywordIds = (added.structuredContent as { project: { keywords: string[] } }).project.keywords;

    const detail = await call(client, 'getProject', { id: project._id });
    expect((detail.structuredContent as { project: { keywords: unknown[] } }).project.keywords).toHaveLength(2);
    expect(detail.structuredContent).toEqual((await app.request('GET', `/api/projects/${project._id}`, { key })).body);

    const scraped = await call(client, 'scrapeKeywords', { projectId: project._id, keywordIds });
    expect(scraped.structuredContent).toMatchObject({ success: true, status: 'processing', summary: { total: 2, accepted: 2 } });
    expect((await app.admin('GET', `/admin/accounts/${accountId}`)).body.account.virtualBalance).toBe(8);

    const updates = await call(client, 'getKeywordUpdates', { projectId: project._id, startDate: '2026-01-01', aggregation: 'weekly' });
    expect(updates.isError).toBeFalsy();
    expect(updates.structuredContent).toEqual(
      (
        await app.request('GET', '/api/projects/keyword-updates', {
          key,
          query: { projectId: project._id, startDate: '2026-01-01', aggregation: 'weekly' },
        })
      ).body,
    );

    const note = await call(client, 'saveNote', { projectId: project._id, date: '2026-03-01', text: 'Site migration' });
    expect(note.structuredContent).toMatchObject({ success: true, message: 'Note saved' });

    const csv = await call(client, 'exportCsv', { projectId: project._id, format: 'summary' });
    expect(csv.isError).toBeFalsy();
    expect(csv.structuredContent).toBeUndefined();
    expect(textOf(csv)).toMatch(/running shoes/);

    const report = await call(client, 'exportAgentReport', { projectId: project._id });
    expect(textOf(report)).toMatch(/shoes\.example/);
  });

  it('answers invalid input with a tool error carrying the REST message', async () => {
    const client = await connect(key);
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'V', domain: 'v.example' } })).body.project._id;
    const body = { projectId, keywords: ['a'], geoCode: 'USA', langCode: 'en' };
    const rest = await app.request('POST', '/api/projects/keywords', { key, body });
    expect(rest.status).toBe(400);
    const result = await call(client, 'addKeywords', body);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(rest.body.message);
    expect(result.structuredContent).toMatchObject({ status: 400, success: false, message: rest.body.message });

    const missing = await call(client, 'getKeywordUpdates', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/projectId/);

    // Query parameters are text: before, {"a":1}, false or null were searched for as "[object Object]", "false", "null".
    for (const [search, message] of [
      [{ a: 1 }, 'search must be a string'],
      [false, 'search must be a string'],
      [[1], 'search must be a list of strings'],
    ] as const) {
      const wrong = await call(client, 'getKeywordUpdates', { projectId, search });
      expect({ search, structured: wrong.structuredContent }).toEqual({ search, structured: { status: 400, success: false, message } });
    }
    // null is an optional parameter left out, as function-calling agents send it.
    const left = await call(client, 'getKeywordUpdates', { projectId, search: null });
    const all = await call(client, 'getKeywordUpdates', { projectId });
    expect({ isError: left.isError, structured: left.structuredContent }).toEqual({
      isError: undefined,
      structured: all.structuredContent,
    });
  });

  it('refuses text a URL cannot carry (a lone surrogate) in path and query arguments as the route refuses it in a body', async () => {
    const client = await connect(key);
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'S', domain: 's.example' } })).body.project._id;
    // Before, the path argument failed the whole call with a protocol error ("URI malformed"), and the
    // query argument reached the route as U+FFFD: a search for a character the caller never sent.
    for (const [tool, args, message] of [
      ['getProject', { id: '\ud800' }, 'id must be well-formed text (it contains a lone UTF-16 surrogate)'],
      ['getKeywordUpdates', { projectId, search: 'eggs \udc00' }, 'search must be well-formed text (it contains a lone UTF-16 surrogate)'],
    ] as const) {
      const result = await call(client, tool, args);
      expect({ tool, isError: result.isError, structured: result.structuredContent }).toEqual({
        tool,
        isError: true,
        structured: { status: 400, success: false, message },
      });
    }
    // An id far past any real one is refused with the route's message.
    const long = await call(client, 'getProject', { id: 'a'.repeat(5_000) });
    expect(long.structuredContent).toEqual({ status: 400, success: false, message: 'id must be a 24-character hex id' });
  });

  it('holds a path argument to its pattern, so that the router cannot answer another operation with it', async () => {
    const client = await connect(key);
    // Before, "." answered the project list and "folders" the folder list, as getProject.
    for (const id of ['.', '..', 'folders', 'folders/x']) {
      const result = await call(client, 'getProject', { id });
      expect({ id, structured: result.structuredContent }).toEqual({
        id,
        structured: { status: 400, success: false, message: 'id must be a 24-character hex id' },
      });
    }
    await expect(client.readResource({ uri: 'project://folders' })).rejects.toThrow(/id must be a 24-character hex id/);
    // A path holds one value: before, a list answered its first element's project and ignored the rest.
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'L', domain: 'l.example' } })).body.project._id;
    const listed = await call(client, 'getProject', { id: [projectId, 'zz'] });
    expect(listed.structuredContent).toEqual({ status: 400, success: false, message: 'id must be a string' });
  });

  it('annotates the tools by what they do, and shows no create defaults on the update', async () => {
    const client = await connect(key);
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    for (const name of ['serpCheck', 'trafficCheck', 'keywordResearch', 'getKeywordIdeas', 'scrapeKeywords'])
      expect({ name, openWorld: tools.get(name)!.annotations?.openWorldHint }).toEqual({ name, openWorld: true });
    for (const name of ['getProject', 'getKeywordUpdates', 'createProject'])
      expect({ name, openWorld: tools.get(name)!.annotations?.openWorldHint }).toEqual({ name, openWorld: false });
    // A note saved for a day that has one replaces it.
    expect(tools.get('saveNote')!.annotations?.destructiveHint).toBe(true);
    expect(tools.get('createProject')!.annotations?.destructiveHint).toBe(false);
    // An update keeps what it leaves out: a default there would say it resets it.
    const update = tools.get('updateProject')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.entries(update).filter(([, schema]) => 'default' in schema)).toEqual([]);
    const create = tools.get('createProject')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(create.serpTop!.default).toBe(50);
    // Only a read is told how to narrow its answer.
    expect(tools.get('getKeywordUpdates')!.description).toMatch(/Narrow long answers with startDate, endDate/);
    expect(tools.get('addKeywords')!.description).not.toMatch(/Narrow/);
  });

  it('cuts a large answer to as much as fits, a resource too, and tells a write that only its answer was cut', async () => {
    const client = await connect(key);
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Big', domain: 'big.example' } })).body.project._id;
    const keywords = Array.from({ length: 3_500 }, (_, i) => `keyword number ${String(i).padStart(4, '0')} for a large project`);
    const added = await call(client, 'addKeywords', { projectId, keywords, geoCode: 'US', langCode: 'en' });
    expect(added.isError).toBeFalsy();
    expect(textOf(added).length).toBeLessThanOrEqual(60_000);
    const addedCut = (added.structuredContent as { _truncated: { hint: string } })._truncated;
    expect(addedCut.hint).toBe('The answer was too long to show whole: only the answer was cut, not what the request did.');
    expect((await app.request('GET', `/api/projects/${projectId}`, { key })).body.project.keywords).toHaveLength(3_500);

    const detail = await call(client, 'getProject', { id: projectId });
    const text = textOf(detail);
    // As many keywords as fit: before, the cut's margin grew with the overshoot and kept half as many.
    expect(text.length).toBeLessThanOrEqual(60_000);
    expect(text.length).toBeGreaterThan(50_000);
    const cut = (detail.structuredContent as { _truncated: { cuts: { path: string; kept: number; total: number }[] } })._truncated;
    expect(cut.cuts[0]).toMatchObject({ path: 'project.keywords', total: 3_500 });

    const resource = (await client.readResource({ uri: `project://${projectId}` })).contents[0] as { text: string };
    expect(resource.text.length).toBeLessThanOrEqual(60_000);
    expect(JSON.parse(resource.text)._truncated.cuts[0]).toEqual(cut.cuts[0]);
    const report = (await client.readResource({ uri: `project://${projectId}/report` })).contents[0] as { text: string };
    expect(report.text.length).toBeLessThanOrEqual(60_000);
    expect(report.text).toMatch(/\n\[Cut at 60000 characters\. The answer was too long: [^\n]*\]$/);
  });

  it('refuses a page of a foreign origin with 403 (DNS rebinding); loopback pages, listed origins and clients without an Origin pass', async () => {
    const listing = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const post = (target: TestApp, apiKey: string, origin?: string) =>
      target.request('POST', '/api/mcp', {
        key: apiKey,
        body: listing,
        headers: { accept: 'application/json, text/event-stream', ...(origin ? { origin } : {}) },
      });
    const refused = await post(app, key, 'http://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: Origin not allowed' } });
    for (const origin of [undefined, 'http://localhost:6274', 'http://127.0.0.1:5173', 'http://[::1]:8080'])
      expect({ origin, status: (await post(app, key, origin)).status }).toEqual({ origin, status: 200 });
    expect((await post(app, key, 'null')).status).toBe(403);
    // Whatever else is wrong with the request: before, these got 401, 401, 400, 415 and 405.
    const evil = { origin: 'http://evil.example', accept: 'application/json, text/event-stream' };
    const refusals = [
      await app.request('POST', '/api/mcp', { key: null, body: listing, headers: evil }),
      await app.request('POST', '/api/mcp', { key: 'wrong', body: listing, headers: evil }),
      await app.request('POST', '/api/mcp', { key, rawBody: '{bad', headers: { ...evil, 'content-type': 'application/json' } }),
      await app.request('POST', '/api/mcp', { key, rawBody: 'x', headers: { ...evil, 'content-type': 'text/plain' } }),
      await app.request('GET', '/api/mcp', { key, headers: evil }),
    ];
    expect(refusals.map((r) => [r.status, r.body?.error?.message])).toEqual(Array(5).fill([403, 'Forbidden: Origin not allowed']));

    const listed = await startTestApp({ env: { MCP_ALLOWED_ORIGINS: 'https://agents.example.com' } });
    try {
      const { apiKey } = await listed.createAccount();
      expect((await post(listed, apiKey, 'https://agents.example.com')).status).toBe(200);
      expect((await post(listed, apiKey, 'https://agents.example.com.evil.example')).status).toBe(403);
      expect((await post(listed, apiKey, 'http://agents.example.com')).status).toBe(403);
    } finally {
      await listed.close();
    }
  });

  it('answers JSON that is no JSON-RPC request, and an empty batch, with -32600 Invalid Request (not -32700, a parse error)', async () => {
    const send = (body: unknown) =>
      app.request('POST', '/api/mcp', { key, body, headers: { accept: 'application/json, text/event-stream' } });
    const invalid = [
      { id: 1, method: 'ping' },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 5 },
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      'str',
      42,
      [1, 2],
      [],
    ];
    for (const body of invalid) {
      const answer = await send(body);
      expect({ body, status: answer.status, code: answer.body?.error?.code, id: answer.body?.id }).toEqual({
        body,
        status: 400,
        code: -32600,
        id: null,
      });
    }
    expect((await send([])).body.error.message).toBe('Invalid Request: an empty batch');
    // A well-formed request, and a batch of them, still pass.
    expect((await send({ jsonrpc: '2.0', id: 'a', method: 'ping' })).body).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
    expect((await send([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).status).toBe(200);
  });

  it('lets a page on a listed origin call the endpoint from a real browser (preflight and answer carry CORS), and no other page', async () => {
    // Two sites the browser resolves to a local server: one listed, one not.
    const pages: Server = createServer((_request, response) => response.end('<html><body>agent</body></html>'));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const port = (pages.address() as AddressInfo).port;
    const listed = await startTestApp({ env: { MCP_ALLOWED_ORIGINS: `http://agents.example.com:${port}` } });
    const browser = await launchOfflineChromium({ localHosts: ['agents.example.com', 'evil.example.com'] });
    try {
      const { apiKey } = await listed.createAccount();
      const callFrom = async (site: string) => {
        const page = await browser.newPage();
        await page.goto(`http://${site}:${port}/`);
        return page.evaluate(
          async ({ url, apiKey }) => {
            try {
              const response = await fetch(url, {
                method: 'POST',
                headers: {
                  authorization: `Bearer ${apiKey}`,
                  'content-type': 'application/json',
                  accept: 'application/json, text/event-stream',
                },
                body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
              });
              const body = (await response.json()) as { result?: { tools: unknown[] } };
              return {
                status: response.status,
                tools: body.result?.tools.length ?? 0,
                requestId: response.headers.get('x-request-id') !== null,
              };
            } catch (error) {
              return { failed: String(error) };
            }
          },
          { url: `${listed.url}/api/mcp`, apiKey },
        );
      };
      // Before, the preflight got 405 without CORS headers and the browser refused every call.
      expect(await callFrom('agents.example.com')).toEqual({ status: 200, tools: expect.any(Number), requestId: true });
      expect(await callFrom('evil.example.com')).toEqual({ failed: expect.stringMatching(/Failed to fetch/) });

      const preflight = (origin: string) =>
        listed.request('OPTIONS', '/api/mcp', { key: null, headers: { origin, 'access-control-request-method': 'POST' } });
      const allowed = await preflight(`http://agents.example.com:${port}`);
      expect({ status: allowed.status, origin: allowed.headers.get('access-control-allow-origin') }).toEqual({
        status: 204,
        origin: `http://agents.example.com:${port}`,
      });
      expect(allowed.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      expect((await preflight('http://evil.example.com')).status).toBe(403);
      // A refusal before the transport (a bad key) carries them too, so that the page can read it.
      const badKey = await listed.request('POST', '/api/mcp', {
        key: 'not-a-key',
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { origin: `http://agents.example.com:${port}`, accept: 'application/json, text/event-stream' },
      });
      expect({ status: badKey.status, origin: badKey.headers.get('access-control-allow-origin') }).toEqual({
        status: 401,
        origin: `http://agents.example.com:${port}`,
      });
      // An OPTIONS request that is no preflight is a method the endpoint does not serve.
      expect((await listed.request('OPTIONS', '/api/mcp', { key: null })).status).toBe(405);
    } finally {
      await browser.close();
      await listed.close();
      pages.close();
    }
  }, 60_000);

  it('sends the security headers and the request id on its answers, which the transport writes itself', async () => {
    const answer = await app.request('POST', '/api/mcp', {
      key,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream', 'x-request-id': 'agent-call-1' },
    });
    expect(answer.status).toBe(200);
    expect({
      requestId: answer.headers.get('x-request-id'),
      cache: answer.headers.get('cache-control'),
      sniff: answer.headers.get('x-content-type-options'),
      policy: answer.headers.get('content-security-policy'),
    }).toEqual({ requestId: 'agent-call-1', cache: 'no-store', sniff: 'nosniff', policy: "default-src 'none'; frame-ancestors 'none'" });
  });

  it("keeps accounts apart: another account's project is not found", async () => {
    const other = await app.createAccount();
    const theirs = (await app.request('POST', '/api/projects', { key: other.apiKey, body: { name: 'Theirs', domain: 'theirs.example' } }))
      .body.project._id;
    const client = await connect(key);
    for (const [name, args] of [
      ['getProject', { id: theirs }],
      ['getKeywordUpdates', { projectId: theirs }],
      ['deleteProject', { _id: theirs }],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Project not found');
    }
    expect((await app.request('GET', `/api/projects/${theirs}`, { key: other.apiKey })).status).toBe(200);
  });

  it("refuses a suspended account's writes as REST does, and still lets it read", async () => {
    const suspended = await app.createAccount();
    const projectId = (await app.request('POST', '/api/projects', { key: suspended.apiKey, body: { name: 'S', domain: 's.example' } })).body
      .project._id;
    await app.admin('PATCH', `/admin/accounts/${suspended.accountId}`, { status: 'suspended' });
    const client = await connect(suspended.apiKey);
    const write = await call(client, 'saveNote', { projectId, date: '2026-03-01', text: 'x' });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toBe('Account suspended');
    expect(write.structuredContent).toMatchObject({ status: 403, suspended: true });
    expect((await call(client, 'getProject', { id: projectId })).isError).toBeFalsy();
  });

  it('answers 403 to a blocked account and to the Free plan, before any tool runs', async () => {
    const blocked = await app.createAccount();
    await app.admin('PATCH', `/admin/accounts/${blocked.accountId}`, { status: 'blocked' });
    await expect(connect(blocked.apiKey)).rejects.toThrow(/403|Account blocked/);
    const free = await app.createAccount({ plan: 'free' });
    await expect(connect(free.apiKey)).rejects.toThrow(/403|paid plan/);
  });

  it('offers the project and its Markdown report as resources, and a weekly report prompt', async () => {
    const client = await connect(key);
    const projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Res', domain: 'res.example' } })).body.project._id;
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([`project://${projectId}`, `project://${projectId}/report`]));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['project://{id}', 'project://{id}/report']);

    const detail = await client.readResource({ uri: `project://${projectId}` });
    expect(JSON.parse((detail.contents[0] as { text: string }).text).project.domain).toBe('res.example');
    const report = await client.readResource({ uri: `project://${projectId}/report` });
    expect(report.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringMatching(/res\.example/) });
    await expect(client.readResource({ uri: 'project://0123456789abcdef01234567' })).rejects.toThrow(/Project not found/);
    // An id whose encoding does not decode is the caller's mistake (-32602), not an internal error.
    await expect(client.readResource({ uri: 'project://%E0%A4%A' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('The id in project://%E0%A4%A must be percent-encoded UTF-8 text'),
    });

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['weekly-ranking-report']);
    const prompt = await client.getPrompt({ name: 'weekly-ranking-report', arguments: { projectId } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain(`getKeywordUpdates with projectId ${projectId}`);
    // "The last 7 days", both ends read: today and the six days before it.
    const [, from, to] = /startDate (\d{4}-\d{2}-\d{2}), endDate (\d{4}-\d{2}-\d{2})/.exec(text)!;
    expect((Date.parse(to!) - Date.parse(from!)) / 86_400_000).toBe(6);
    // The argument is an id of a project the caller may read: before, any text was pasted into the prompt.
    await expect(client.getPrompt({ name: 'weekly-ranking-report', arguments: { projectId: 'x\u0000\ud800' } })).rejects.toThrow(
      /projectId must be a 24-character hex id/,
    );
    const theirs = (
      await app.request('POST', '/api/projects', { key: (await app.createAccount()).apiKey, body: { name: 'T', domain: 't.example' } })
    ).body.project._id;
    await expect(client.getPrompt({ name: 'weekly-ranking-report', arguments: { projectId: theirs } })).rejects.toThrow(
      /Project not found/,
    );
  });
});
