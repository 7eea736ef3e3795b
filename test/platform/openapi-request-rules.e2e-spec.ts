import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startTestApp, TestApp } from '../support/test-app';

type Schema = Record<string, any>;

/**
 * The request rules the OpenAPI document states agree with the service's: at each bound, a body the
 * document's schema takes is one the service takes, and one it refuses the service refuses (400).
 * Before, the document left out most of them (lengths, ISO code forms, id patterns, list sizes,
 * weekday ranges), so a generated client's validation let through what the service then refused.
 */
describe('OpenAPI request rules', () => {
  let app: TestApp;
  let key: string;
  let projectId: string;
  let doc: Schema;
  let ajv: Ajv2020;

  beforeAll(async () => {
    app = await startTestApp();
    key = (await app.createAccount()).apiKey;
    projectId = (await app.request('POST', '/api/projects', { key, body: { name: 'Rules', domain: 'rules.example' } })).body.project._id;
    doc = (await app.request('GET', '/api/openapi.json')).body;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  });
  afterAll(() => app.close());

  /** Whether the document's request-body schema of `method path` takes `body`. */
  const documentTakes = (method: string, path: string, body: unknown): boolean => {
    const schema = doc.paths[path][method.toLowerCase()].requestBody.content['application/json'].schema as Schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"openapi.json#/')));
    return validate(body) as boolean;
  };

  const long = (n: number) => 'k'.repeat(n);
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i.toString(16).padStart(24, '0'));

  it('holds for the bounds of keywords, ISO codes, ids, icons, weekdays, folders, names and list sizes', async () => {
    const cases: [string, string, () => unknown][] = [
      ['POST', '/api/projects/keywords', () => ({ projectId, keywords: [long(200)], geoCode: 'us', langCode: 'EN' })],
      ['POST', '/api/projects/keywords', () => ({ projectId, keywords: [long(201)], geoCode: 'US', langCode: 'en' })],
      ['POST', '/api/projects/keywords', () => ({ projectId, keywords: [''], geoCode: 'US', langCode: 'en' })],
      ['POST', '/api/projects/keywords', () => ({ projectId, keywords: ['a'], geoCode: 'USA', langCode: 'en' })],
      ['POST', '/api/projects/keywords', () => ({ projectId, keywords: ['a'], geoCode: 'US', langCode: 'e1' })],
      ['POST', '/api/projects/keywords', () => ({ projectId, keywords: Array(10_001).fill('same'), geoCode: 'US', langCode: 'en' })],
      ['DELETE', '/api/projects/keywords', () => ({ projectId, keywordIds: ['ABC'] })],
      ['DELETE', '/api/projects/keywords', () => ({ projectId, keywordIds: ids(10_001) })],
      ['DELETE', '/api/projects/keywords', () => ({ projectId, keywordIds: ids(3) })],
      ['POST', '/api/scrape/new-keywords', () => ({ projectId, keywordIds: [] })],
      ['POST', '/api/scrape/new-keywords', () => ({ projectId, keywordIds: ids(3_501) })],
      ['POST', '/api/scrape/new-keywords', () => ({ projectId, keywordIds: ['not-an-id'] })],
      ['POST', '/api/projects', () => ({ name: 'Icon', domain: 'icon.example', icon: 'HTTPS://icon.example/i.png' })],
      ['POST', '/api/projects', () => ({ name: 'Icon', domain: 'icon2.example', icon: 'javascript:alert(1)' })],
      ['POST', '/api/projects', () => ({ name: 'Icon', domain: 'icon3.example', icon: long(65) })],
      ['POST', '/api/projects', () => ({ name: 'Days', domain: 'days.example', updateFrequency: 'custom', customUpdateDays: [0, 6] })],
      ['POST', '/api/projects', () => ({ name: 'Days', domain: 'days2.example', updateFrequency: 'custom', customUpdateDays: [7] })],
      ['POST', '/api/projects', () => ({ name: 'Days', domain: 'days3.example', customUpdateDays: [0, 1, 2, 3, 4, 5, 6, 0] })],
      ['POST', '/api/projects', () => ({ name: 'Folder', domain: 'folder.example', folder: 'nothex' })],
      ['POST', '/api/projects', () => ({ name: '', domain: 'blank.example' })],
      ['POST', '/api/projects', () => ({ name: long(200), domain: 'long.example' })],
      ['POST', '/api/projects', () => ({ name: long(201), domain: 'long2.example' })],
      [
        'PUT',
        '/api/projects',
        () => ({ _id: projectId, name: 'Rules', domain: 'rules.example', competitors: Array(501).fill('rival.example') }),
      ],
      [
        'PUT',
        '/api/projects',
        () => ({ _id: projectId, name: 'Rules', domain: 'rules.example', competitors: Array(500).fill('rival.example') }),
      ],
      ['POST', '/api/projects/folders', () => ({ name: '' })],
      ['POST', '/api/user/api-keys', () => ({ name: long(101) })],
      ['POST', '/api/projects/notes', () => ({ projectId, date: '2026-02-30', text: 'x' })],
      ['POST', '/api/projects/notes', () => ({ projectId, date: '2026-03-01', text: long(2001) })],
      ['POST', '/api/projects/notes', () => ({ projectId, date: '2026-03-01', text: long(2000) })],
      ['POST', '/api/projects/keyword-ideas', () => ({ projectId, geo: 'usa' })],
      ['DELETE', '/api/user/api-keys', () => ({ id: 'ABCDEF' })],
    ];
    const disagreements: string[] = [];
    for (const [method, path, make] of cases) {
      const body = make();
      const documented = documentTakes(method, path, body);
      const response = await app.request(method, path, { key, body });
      const served = response.status !== 400;
      if (documented !== served) {
        const shown = JSON.stringify(body).slice(0, 120);
        disagreements.push(
          `${method} ${path} ${shown}: the document ${documented ? 'takes' : 'refuses'} it, the service answered ${response.status} ${response.body?.message ?? ''}`,
        );
      }
    }
    expect(disagreements).toEqual([]);
  });
});
