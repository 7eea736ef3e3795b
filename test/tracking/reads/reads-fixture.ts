import { ProjectionRunner } from '@rank/projector/projection-runner';
import { seedChecks, SeededCheck } from '../../support/seed-checks';
import { startTestApp, TestApp } from '../../support/test-app';

/** "Now" for every ranking-read test: Friday 20 March 2026, 15:00 UTC (its ISO week starts Monday the 16th). */
export const NOW = new Date('2026-03-20T15:00:00.000Z');

/** The app with a fixed clock, and without the scheduler or scraper, so no check appears that a test did not seed. */
export const startReadsApp = () => startTestApp({ clock: { now: () => NOW }, env: { ROLES: 'api,projections' } });

/**
 * `depth` organic results: `placed` URLs at their positions, a filler site at every other position.
 * Fillers are the same site at the same position in every check, so they never move.
 */
export function serp(placed: Record<number, string>, depth = 50): string[] {
  return Array.from({ length: depth }, (_, i) => placed[i + 1] ?? `https://filler${i + 1}.example/page`);
}

export interface SeededProject {
  projectId: string;
  /** Keyword ids by `value` (or `value|geoCode` for a value tracked in two countries). */
  ids: Record<string, string>;
}

/** A project with keywords in several locales; keywords are added in the order given. */
export async function createProject(
  app: TestApp,
  key: string,
  settings: Record<string, unknown>,
  keywordGroups: { keywords: string[]; geoCode: string; langCode: string }[],
): Promise<SeededProject> {
  const created = await app.request('POST', '/api/projects', { key, body: { name: 'Reads', ...settings } });
  if (created.status !== 201) throw new Error(`project not created: ${created.text}`);
  const projectId = created.body.project._id as string;
  for (const group of keywordGroups) {
    const added = await app.request('POST', '/api/projects/keywords', { key, body: { projectId, ...group } });
    if (added.status !== 200) throw new Error(`keywords not added: ${added.text}`);
  }
  const detail = (await app.request('GET', `/api/projects/${projectId}`, { key })).body.project;
  const ids: Record<string, string> = {};
  for (const k of detail.keywords as { _id: string; keyword: string; geoCode: string }[]) {
    ids[k.keyword in ids ? `${k.keyword}|${k.geoCode}` : k.keyword] = k._id;
  }
  return { projectId, ids };
}

/** Appends the checks as the scraper would and waits until ClickHouse has them; returns the check ids. */
export async function seed(app: TestApp, checks: SeededCheck[]): Promise<string[]> {
  const ids = await seedChecks(app.running.stores.eventStore, checks);
  await app.running.app.get(ProjectionRunner).waitUntilCaughtUp();
  return ids;
}

/** Makes the project public (PUT needs name and domain again). */
export async function share(app: TestApp, key: string, projectId: string, settings: Record<string, unknown>): Promise<void> {
  const updated = await app.request('PUT', '/api/projects', { key, body: { _id: projectId, name: 'Reads', ...settings, shared: true } });
  if (updated.status !== 200) throw new Error(`project not shared: ${updated.text}`);
}
