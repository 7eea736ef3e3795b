import type { ProjectRecord } from '@rank/projects/domain/workspace';
import { toProjectView } from '../project.view';

/**
 * `{ success: true, projects }` as UTF-8 JSON, rendered once per list of projects. Workspace states
 * are immutable and the repository hands out the same one while the stream is unchanged, so a list
 * that changes is a new array and finds no body here: nothing to invalidate, and a write by another
 * replica shows on the very next request, as soon as the repository sees it.
 */
const BODIES = new WeakMap<readonly ProjectRecord[], Buffer>();

export function projectListBody(projects: readonly ProjectRecord[]): Buffer {
  let body = BODIES.get(projects);
  if (!body) {
    body = Buffer.from(JSON.stringify({ success: true, projects: projects.map(toProjectView) }), 'utf8');
    BODIES.set(projects, body);
  }
  return body;
}
