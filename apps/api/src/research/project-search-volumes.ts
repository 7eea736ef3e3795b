import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { EVENT_STORE, READ_STORE } from '@rank/platform/tokens';
import type { ProjectContentState } from '@rank/projects/domain/project-content';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { KeywordVolumes } from '@rank/research/keyword-volumes';
import { averageMonthlySearches } from '@rank/research/domain/twelve-months';
import { ReadModelMemo } from '../platform/read-models/read-model-memo';

/** Keyword id -> average monthly searches, for the keywords with stored figures. */
export type SearchVolumes = ReadonlyMap<string, number | null>;

/** About 20 projects of 3,500 keywords, or thousands of small ones. */
const MEMO_BYTES = 16 * 1024 * 1024;
/** A map entry of a 24-character id and a number, roughly. */
const ENTRY_BYTES = 64;
/**
 * A keyword of the list a map was read for, which the memo keeps to compare by identity: its id,
 * text and market. Counted because a project without stored volumes (every project, without a
 * keyword-data provider) has an empty map, and its entry held the whole list at no cost.
 */
const KEYWORD_BYTES = 200;

/**
 * The average monthly searches of a project's keywords, as project detail, keyword-updates and the
 * CSV export merge them in. Looking them up is a ClickHouse query with every keyword's text in it:
 * 20-40 ms for 3,500 keywords on the embedded engine, most of it the list, however few volumes are
 * stored. Volumes change when a fetch is projected, keywords when the project's stream moves, so the
 * map is kept per project while neither does: the keywords by the identity of the repository's
 * immutable state, the volumes by ReadModelMemo.
 */
@Injectable()
export class ProjectSearchVolumes {
  private readonly memo: ReadModelMemo<SearchVolumes, ProjectContentState['keywords']>;

  constructor(
    @Inject(EVENT_STORE) eventStore: EventStore,
    @Inject(READ_STORE) readStore: ReadStore,
    private readonly volumes: KeywordVolumes,
  ) {
    // keyword_volumes is market data, not the project's: any change to it may touch any project.
    this.memo = new ReadModelMemo<SearchVolumes, ProjectContentState['keywords']>(eventStore, readStore, {
      tables: ['keyword_volumes'],
      bytesOf: (map, keywords) => map.size * ENTRY_BYTES + keywords.length * KEYWORD_BYTES,
      maxBytes: MEMO_BYTES,
    });
  }

  /** By keyword id; the same map while the project's keywords and the stored volumes are unchanged (`logEnd`: see ReadModelMemo.get). */
  of(projectId: string, keywords: ProjectContentState['keywords'], logEnd?: number): Promise<SearchVolumes> {
    return this.memo.get(
      projectId,
      keywords,
      async () => {
        const stored = await this.volumes.ofKeywords(keywords);
        return new Map([...stored].map(([keywordId, volume]) => [keywordId, averageMonthlySearches(volume)]));
      },
      logEnd,
    );
  }
}
