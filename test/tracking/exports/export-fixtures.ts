import { ProjectionRunner } from '@rank/projector/projection-runner';
import { seedChecks, SeededCheck } from '../../support/seed-checks';
import type { TestApp } from '../../support/test-app';

/** Organic results where `ownUrl` is at `position`, other sites above it and `after` below it. */
export function serpWith(position: number, ownUrl: string, after: string[] = []): string[] {
  return [...Array.from({ length: position - 1 }, (_, i) => `https://filler${i + 1}.example/`), ownUrl, ...after];
}

export async function createProject(app: TestApp, key: string, body: Record<string, unknown>): Promise<string> {
  const created = await app.request('POST', '/api/projects', { key, body });
  if (created.status !== 201) throw new Error(`project not created: ${created.text}`);
  return created.body.project._id;
}

/** Adds keywords (US/en) and returns their ids by keyword text. */
export async function addKeywords(app: TestApp, key: string, projectId: string, keywords: string[]): Promise<Record<string, string>> {
  const added = await app.request('POST', '/api/projects/keywords', { key, body: { projectId, keywords, geoCode: 'US', langCode: 'en' } });
  if (added.status !== 200) throw new Error(`keywords not added: ${added.text}`);
  const project = (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project;
  return Object.fromEntries(project.keywords.map((k: { _id: string; keyword: string }) => [k.keyword, k._id]));
}

/** Appends the checks and waits until ClickHouse has them. */
export async function seedAndProject(app: TestApp, checks: SeededCheck[]): Promise<void> {
  await seedChecks(app.running.stores.eventStore, checks);
  await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
}

export interface RawResponse {
  status: number;
  headers: Headers;
  /** The body exactly as sent (fetch's text() would drop a byte-order mark). */
  bytes: Buffer;
  /** How many pieces the body arrived in. */
  reads: number;
}

export async function getRaw(app: TestApp, path: string, query: Record<string, string | undefined>, key?: string): Promise<RawResponse> {
  const url = new URL(path, app.url);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(30_000) });
  const pieces: Buffer[] = [];
  for await (const piece of response.body ?? []) pieces.push(Buffer.from(piece));
  return { status: response.status, headers: response.headers, bytes: Buffer.concat(pieces), reads: pieces.length };
}
