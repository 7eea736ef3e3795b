import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE } from '@rank/platform/tokens';
import type { ReadStore } from '@rank/read-store/read-store.port';

/** Page titles to show the model. */
const TITLES_LIMIT = 20;

/** What the suggestions runner reads from the tracking and project read models. */
@Injectable()
export class SuggestionsReader {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** The titles of the project's own ranking pages, most recently seen first (from its successful checks). */
  async rankingTitles(projectId: string): Promise<string[]> {
    const rows = await this.store.query<{ title: string }>(
      `SELECT title FROM keyword_updates FINAL
       WHERE project_id = {projectId:String} AND status = 'success' AND position > 0 AND title != ''
       GROUP BY title ORDER BY max(checked_at) DESC LIMIT {limit:UInt32}`,
      { projectId, limit: TITLES_LIMIT },
    );
    return rows.map((r) => r.title);
  }

  /** Every live project: the monthly refresh looks at each one's suggestions stream. */
  async projectIds(): Promise<string[]> {
    const rows = await this.store.query<{ projectId: string }>(
      `SELECT project_id AS projectId FROM projects FINAL WHERE is_deleted = 0 ORDER BY project_id`,
      {},
    );
    return rows.map((r) => r.projectId);
  }
}
