import type { TestApp } from '../../support/test-app';
import { createProject, seed, startReadsApp } from './reads-fixture';

/**
 * keyword-updates' pages are escaped into JSON by ClickHouse (toJSONString), the rest of the answer by
 * JSON.stringify. The two agree byte for byte but for U+2028 and U+2029, which ClickHouse writes as
 * escapes: the same strings once parsed. This proves that for every character JSON treats specially,
 * and that the answer is valid JSON around them; and that a window with no page at all (no success
 * in it: the pages' arrays are empty) still answers.
 */
const AWKWARD = 'a\u2028b\u2029"quoted"\\back\ttab\nline\u0001ctl\u007fdel/slash 😀 é ünï &<>';
const PAGE = `https://ours.com/${AWKWARD}`;

describe('GET /api/projects/keyword-updates with awkward characters in a page', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startReadsApp();
  });

  afterAll(() => app?.close());

  it('answers each string as stored, whatever JSON escapes in it', async () => {
    const key = (await app.createAccount()).apiKey;
    const { projectId, ids } = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: ['odd pages'], geoCode: 'US', langCode: 'en' },
    ]);
    const keywordId = ids['odd pages']!;
    await seed(app, [
      { projectId, keywordId, at: '2026-03-18T09:00:00.000Z', urls: ['https://other.com/', PAGE], projectDomains: ['ours.com'] },
      { projectId, keywordId, at: '2026-03-19T09:00:00.000Z', urls: [PAGE], projectDomains: ['ours.com'] },
    ]);
    const response = await app.request('GET', '/api/projects/keyword-updates', { key, query: { projectId } });
    expect(response.status).toBe(200);
    // The raw text: U+2028 and U+2029 escaped, the slash not, and nothing JSON.parse would refuse.
    expect(response.text).toContain('a\\u2028b\\u2029\\"quoted\\"\\\\back\\ttab\\nline\\u0001ctl\u007fdel/slash 😀 é ünï &<>');
    const updates = JSON.parse(response.text).data[keywordId].updates;
    expect(updates.map((u: { position: unknown }) => u.position)).toEqual([
      { position: 2, url: PAGE, title: `Title of ${PAGE}`, domain: 'ours.com' },
      { position: 1, url: PAGE, title: `Title of ${PAGE}`, domain: 'ours.com' },
    ]);
  });

  it('answers a window without a successful check, where there is no page to put in', async () => {
    const key = (await app.createAccount()).apiKey;
    const { projectId, ids } = await createProject(app, key, { domain: 'ours.com' }, [
      { keywords: ['blocked only'], geoCode: 'US', langCode: 'en' },
    ]);
    const keywordId = ids['blocked only']!;
    await seed(app, [{ projectId, keywordId, at: '2026-03-10T09:00:00.000Z', failedReason: 'Blocked by Google (captcha)' }]);
    for (const aggregation of ['daily', 'weekly', 'monthly']) {
      const response = await app.request('GET', '/api/projects/keyword-updates', {
        key,
        query: { projectId, startDate: '2026-03-01', endDate: '2026-03-15', aggregation },
      });
      expect(response.status).toBe(200);
      const updates = JSON.parse(response.text).data[keywordId].updates;
      // Weekly and monthly pick successes only.
      expect(updates).toEqual(
        aggregation === 'daily' ? [expect.objectContaining({ status: 'failed', position: null, aiSerpId: null })] : [],
      );
    }
  });
});
