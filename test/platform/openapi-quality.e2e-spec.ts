import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startTestApp, TestApp } from '../support/test-app';

/** Issue 12's table: each operation's id, which is also its MCP tool name and the generated client's method. */
const OPERATION_IDS: Record<string, string> = {
  'GET /api/projects': 'listProjects',
  'POST /api/projects': 'createProject',
  'PUT /api/projects': 'updateProject',
  'DELETE /api/projects': 'deleteProject',
  'GET /api/projects/{id}': 'getProject',
  'GET /api/projects/folders': 'listFolders',
  'POST /api/projects/folders': 'createFolder',
  'PUT /api/projects/folders': 'updateFolder',
  'DELETE /api/projects/folders': 'deleteFolder',
  'POST /api/projects/keywords': 'addKeywords',
  'DELETE /api/projects/keywords': 'removeKeywords',
  'POST /api/scrape/new-keywords': 'scrapeKeywords',
  'GET /api/projects/keyword-updates': 'getKeywordUpdates',
  'GET /api/projects/position-history': 'getPositionHistory',
  'GET /api/projects/keyword-volumes': 'getKeywordVolumes',
  'POST /api/tools/serp-check': 'serpCheck',
  'POST /api/tools/traffic-check': 'trafficCheck',
  'GET /api/projects/keyword-suggestions': 'getKeywordSuggestions',
  'POST /api/projects/keyword-ideas': 'getKeywordIdeas',
  'POST /api/tools/keyword-research': 'keywordResearch',
  'GET /api/projects/competitor-positions': 'getCompetitorPositions',
  'GET /api/projects/competitors-filtered': 'getCompetitorsFiltered',
  'GET /api/projects/pages': 'getPages',
  'GET /api/projects/pagespeed': 'getPagespeed',
  'GET /api/projects/pages-pagespeed': 'getPagesPagespeed',
  'GET /api/projects/crux-history': 'getCruxHistory',
  'GET /api/projects/webtraffic': 'getWebtraffic',
  'GET /api/projects/notes': 'listNotes',
  'POST /api/projects/notes': 'saveNote',
  'DELETE /api/projects/notes': 'deleteNote',
  'GET /api/user/capacity': 'getCapacity',
  'GET /api/projects/export-agent': 'exportAgentReport',
  'GET /api/projects/export': 'exportCsv',
  'GET /api/user/api-keys': 'listApiKeys',
  'POST /api/user/api-keys': 'createApiKey',
  'DELETE /api/user/api-keys': 'revokeApiKey',
};

/** The reads that need no key when the project is shared (spec, Authentication point 6). */
const PUBLIC_WHEN_SHARED = [
  'GET /api/projects/{id}',
  'GET /api/projects/keyword-updates',
  'GET /api/projects/position-history',
  'GET /api/projects/keyword-volumes',
  'GET /api/projects/competitor-positions',
  'GET /api/projects/pages',
  'GET /api/projects/pages-pagespeed',
  'GET /api/projects/notes',
  'GET /api/projects/export',
  'GET /api/projects/export-agent',
];

/**
 * The fields whose values are fractional; every other number in the document is whole and declared
 * `integer`. A new fractional field belongs here; a new count, rank, position or id is an integer.
 */
const FRACTIONAL_FIELDS = new Set([
  'PageTrendPointView.avgPosition',
  'PageWeeklyPointView.avgPosition',
  'RankingPageView.avgPosition',
  'CompactVolumeView.cl',
  'CompactVolumeView.ch',
  'KeywordVolumeView.cpcLow',
  'KeywordVolumeView.cpcHigh',
  'ResearchedKeywordView.cpcLow',
  'ResearchedKeywordView.cpcHigh',
  'VolumeMetricsView.cpcLow',
  'VolumeMetricsView.cpcHigh',
  'SerpCheckVolumeView.cpc',
  'EngagementMetricsDto.bounceRate',
  'EngagementMetricsDto.avgVisitDuration',
  'PageSpeedSummaryDto.cumulativeLayoutShift',
  'PageSpeedRecordDto.cumulativeLayoutShift',
  'PagePageSpeedDto.cumulativeLayoutShift',
  'UnitlessPercentileDto.p75',
]);

type Schema = Record<string, any>;

/**
 * Every schema of the document (components and those written inline in operations) with where it
 * is: `Name.field.inner[]` for components, `METHOD /path …` for inline ones.
 */
function allSchemas(doc: Schema): { at: string; schema: Schema; isField: boolean }[] {
  const found: { at: string; schema: Schema; isField: boolean }[] = [];
  const visit = (schema: unknown, at: string, isField: boolean) => {
    if (schema === null || typeof schema !== 'object') return;
    const node = schema as Schema;
    found.push({ at, schema: node, isField });
    for (const [name, property] of Object.entries(node.properties ?? {})) visit(property, `${at}.${name}`, true);
    if (node.items) visit(node.items, `${at}[]`, true);
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${at}{}`, true);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'])
      (node[keyword] ?? []).forEach((member: unknown, i: number) => visit(member, `${at}.${keyword}[${i}]`, true));
  };
  for (const [name, schema] of Object.entries(doc.components.schemas ?? {})) visit(schema, name, false);
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const route = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) visit(parameter.schema, `${route} ?${parameter.name}`, true);
      for (const [type, media] of Object.entries<Schema>(operation.requestBody?.content ?? {}))
        visit(media.schema, `${route} body ${type}`, true);
      for (const [status, response] of Object.entries<Schema>(operation.responses ?? {}))
        for (const [type, media] of Object.entries<Schema>(response.content ?? {})) visit(media.schema, `${route} ${status} ${type}`, true);
    }
  }
  return found;
}

const typesOf = (schema: Schema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);
const isComposed = (schema: Schema) => ['$ref', 'allOf', 'anyOf', 'oneOf', 'enum', 'const'].some((keyword) => keyword in schema);

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  parameters?: unknown[];
  requestBody?: unknown;
};

describe('OpenAPI document quality', () => {
  let app: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>>; [key: string]: any };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
    );

  beforeAll(async () => {
    app = await startTestApp();
    doc = (await app.request('GET', '/api/openapi.json')).body;
  });
  afterAll(async () => {
    await app.close();
  });

  it('names every operation by the table, with a summary and a description', () => {
    for (const [route, operation] of operations()) {
      if (route === 'GET /health') continue;
      expect([route, operation.operationId]).toEqual([route, OPERATION_IDS[route]]);
      expect(operation.summary?.length).toBeGreaterThan(3);
      expect(operation.description?.length).toBeGreaterThan(10);
    }
    // The core of the table exists already; the other rows appear as their routes are built.
    const served = new Set(operations().map(([route]) => route));
    for (const route of [
      'GET /api/projects',
      'POST /api/projects/keywords',
      'GET /api/projects/keyword-updates',
      'GET /api/projects/export',
      'DELETE /api/user/api-keys',
    ])
      expect(served).toContain(route);
  });

  it('documents the errors with one error schema, uses 3.1 nulls, servers and a bearer key that is no JWT', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"nullable"/);
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', description: expect.any(String) });
    expect(doc.components.schemas.ErrorResponse).toMatchObject({
      required: ['message'],
      properties: { message: { type: 'string' }, success: { type: 'boolean' } },
    });
    for (const [route, operation] of operations()) {
      if (route === 'GET /health') continue;
      for (const status of ['401', '403'])
        expect([route, operation.responses[status]?.content?.['application/json']?.schema?.$ref]).toEqual([
          route,
          '#/components/schemas/ErrorResponse',
        ]);
      // Every error a route documents has the error body, whoever declared it.
      for (const [status, response] of Object.entries(operation.responses))
        if (Number(status) >= 400)
          expect([route, status, response.content?.['application/json']?.schema?.$ref]).toEqual([
            route,
            status,
            '#/components/schemas/ErrorResponse',
          ]);
      if ((operation.parameters?.length ?? 0) > 0 || operation.requestBody)
        expect([route, Object.keys(operation.responses)]).toEqual([route, expect.arrayContaining(['400'])]);
    }
    expect(Object.keys(doc.paths['/api/projects/folders']!.post!.responses)).toContain('409');
    expect(Object.keys(doc.paths['/api/projects/{id}']!.get!.responses)).toContain('404');
    expect(doc.paths['/api/projects/notes']!.post!.responses['201']?.content?.['application/json']?.schema).toBeDefined();
  });

  it('lets the public reads of shared projects go without a key, and nothing else', () => {
    for (const [route, operation] of operations()) {
      if (route === 'GET /health') expect(operation.security).toEqual([]);
      else if (PUBLIC_WHEN_SHARED.includes(route)) expect([route, operation.security]).toEqual([route, [{}, { bearer: [] }]]);
      else expect([route, operation.security]).toEqual([route, undefined]);
    }
  });

  it('describes every shape: no bare object, no untyped field, an array always says what it holds', () => {
    const schemas = allSchemas(doc);
    expect(schemas.length).toBeGreaterThan(300);
    const bareObjects = schemas
      .filter(
        ({ schema }) => typesOf(schema).includes('object') && !schema.properties && !schema.additionalProperties && !isComposed(schema),
      )
      .map(({ at }) => at);
    const untyped = schemas
      .filter(({ schema, isField }) => isField && typesOf(schema).length === 0 && !isComposed(schema))
      .map(({ at }) => at);
    const arraysOfAnything = schemas.filter(({ schema }) => typesOf(schema).includes('array') && !schema.items).map(({ at }) => at);
    expect({ bareObjects, untyped, arraysOfAnything }).toEqual({ bareObjects: [], untyped: [], arraysOfAnything: [] });
  });

  it('declares whole values (counts, positions, ranks, volumes, scores, ms) as integer, and only the listed fields as fractional', () => {
    const schemas = allSchemas(doc);
    const numbers = schemas.filter(({ schema }) => typesOf(schema).includes('number')).map(({ at }) => at);
    expect(numbers.filter((at) => !FRACTIONAL_FIELDS.has(at))).toEqual([]);
    // The list names fields that exist, so it cannot hide a rename.
    expect([...FRACTIONAL_FIELDS].filter((at) => !numbers.includes(at))).toEqual([]);
    const integers = schemas.filter(({ schema }) => typesOf(schema).includes('integer')).map(({ at }) => at);
    expect(integers).toEqual(
      expect.arrayContaining([
        'ProjectView.serpTop',
        'ProjectView.customUpdateDays[]',
        'RankedPositionView.position',
        'CompetitorsFilteredResponse.totalCompetitors',
        'PageSpeedRecordDto.performanceScore',
        'SerpCheckResponse.remaining',
      ]),
    );
  });

  it('gives every documented class its own name: the document keys schemas by class name, and a second class of a name silently replaces the first', () => {
    const sources = ['apps', 'libs'].flatMap((root) =>
      (readdirSync(root, { recursive: true }) as string[])
        .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
        .map((file) => readFileSync(join(root, file), 'utf8'))
        .filter((text) => text.includes('@ApiProperty')),
    );
    const names = sources.flatMap((text) => [...text.matchAll(/^(?:export )?class (\w+)/gm)].map((m) => m[1]!));
    expect(names.length).toBeGreaterThan(100);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('gives examples that validate against their own schemas, fields and parameters included (redocly checks only media-type examples)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    const toDocument = (schema: Schema): Schema => JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"openapi.json#/'));
    const examples: { at: string; schema: Schema; example: unknown }[] = [];
    for (const { at, schema } of allSchemas(doc)) {
      if ('example' in schema) examples.push({ at, schema, example: schema.example });
      for (const [i, example] of (schema.examples ?? []).entries()) examples.push({ at: `${at} examples[${i}]`, schema, example });
    }
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item))
        for (const parameter of (operation.parameters ?? []) as Schema[])
          if ('example' in parameter)
            examples.push({
              at: `${method.toUpperCase()} ${path} ?${parameter.name}`,
              schema: parameter.schema,
              example: parameter.example,
            });

    const wrong = examples.flatMap(({ at, schema, example }) => {
      const validate = ajv.compile(toDocument(schema));
      return validate(example) ? [] : [`${at}: ${JSON.stringify(example)} ${ajv.errorsText(validate.errors)}`];
    });
    // Enough examples are looked at for this to mean something.
    expect(examples.length).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('passes @redocly/cli lint with the recommended rules: 0 errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const cli = require.resolve('@redocly/cli/bin/cli.js');
      // No telemetry, no update check: the lint runs offline.
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const run = await promisify(execFile)(process.execPath, [cli, 'lint', '--extends', 'recommended', '--format', 'json', file], {
        cwd: dir,
        env,
        timeout: 60_000,
        maxBuffer: 20 * 1024 * 1024,
      }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
      const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; severity: string; message: string }[];
      };
      // Warnings too: an example that does not match its schema, an operation without a 4xx.
      expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
