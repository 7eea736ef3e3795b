/** Creating the benches' projects and keywords through the public API, as a client would. */
import type { BenchApp } from './bench-app';
import { keywordTexts } from './keyword-texts';

export const FULL_PROJECT_KEYWORDS = 3_500;

export async function createProject(app: BenchApp, apiKey: string, name: string, domain = 'bench-shop.example'): Promise<string> {
  const body = await app.json('POST', '/api/projects', { key: apiKey, body: { name, domain }, expect: 201 });
  return body.project._id as string;
}

/** One POST /api/projects/keywords with every keyword; returns the keyword ids in the order added. */
export async function addKeywords(app: BenchApp, apiKey: string, projectId: string, count = FULL_PROJECT_KEYWORDS): Promise<string[]> {
  const body = await app.json('POST', '/api/projects/keywords', {
    key: apiKey,
    body: { projectId, keywords: keywordTexts(count), geoCode: 'US', langCode: 'en' },
  });
  if (body.addedCount !== count) throw new Error(`added ${body.addedCount} keywords, expected ${count}`);
  return body.project.keywords as string[];
}
