import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { CLOCK, Clock, EVENT_STORE, READ_STORE } from '@rank/platform/tokens';
import type { ProjectContentState } from '@rank/projects/domain/project-content';
import type { ProjectRecord } from '@rank/projects/domain/workspace';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { CheckProgressReader } from '@rank/tracking/reads/check-progress/check-progress.reader';
import { ReadModelMemo } from '../../platform/read-models/read-model-memo';
import { ProjectSearchVolumes, SearchVolumes } from '../../research/project-search-volumes';
import { CheckDayView, toProjectDetail } from '../project.view';

type Keywords = ProjectContentState['keywords'];

interface Rendered {
  project: ProjectRecord;
  keywords: Keywords;
  volumes: SearchVolumes;
  lastCheckDay: LastCheckDay;
  /** `{ success: true, project }` as UTF-8 JSON. */
  body: Buffer;
}

/** Held in an object of its own, so that a day read again is a new object even when it reads the same. */
interface LastCheckDay {
  day: CheckDayView | null;
}

/**
 * Rendered bodies are a few hundred KB for a full project (3,500 keywords, about 450 KB): this keeps
 * the recently read ones of about 70 such projects.
 */
const CACHE_BYTES = 32 * 1024 * 1024;
/** A day's figures and the memo's entry around them, roughly. */
const CHECK_DAY_BYTES = 256;
/** The last check days of about a thousand projects. */
const CHECK_DAYS_BYTES = 256 * 1024;
/** No input beyond the project: the day is read from check_progress alone. */
const NO_INPUTS = {};

/**
 * The body of GET /api/projects/:id, rendered once per change instead of per request: the
 * keywords' volumes and the last check day are two ClickHouse queries (milliseconds of CPU on the
 * embedded engine) and the JSON of 3,500 keywords is most of a millisecond more.
 *
 * What a body is built from, and how each is known to be unchanged, in any process (replicas and a
 * separate projector share only the stores):
 * - the project's settings and keywords: the states the repositories hand out are immutable and
 *   re-used while their stream's revision is unchanged (each load checks it), so the same objects
 *   mean the same streams;
 * - volumes (ProjectSearchVolumes) and the last check day: read models, kept by ReadModelMemo and
 *   handed out as the same objects while the events projected since write none of their rows.
 *   Another project's checks leave this one's day as it is.
 */
@Injectable()
export class ProjectDetailCache {
  private readonly rendered = new StateCache(CACHE_BYTES);
  private readonly lastCheckDays: ReadModelMemo<LastCheckDay>;

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) readStore: ReadStore,
    private readonly volumes: ProjectSearchVolumes,
    private readonly checkProgress: CheckProgressReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.lastCheckDays = new ReadModelMemo<LastCheckDay>(this.eventStore, readStore, {
      tables: ['check_progress'],
      affects: (change, projectId) => !(change.kind === 'insert' && change.row.project_id !== projectId),
      bytesOf: () => CHECK_DAY_BYTES,
      maxBytes: CHECK_DAYS_BYTES,
    });
  }

  /** The body for the project as loaded now (access already checked by the caller). */
  async body(projectId: string, project: ProjectRecord, content: ProjectContentState): Promise<Buffer> {
    const cached = this.rendered.get<Rendered>(projectId)?.value;
    // One read of the log's end for both memos: on EventStoreDB each read is a round trip.
    const logEnd = await this.eventStore.lastPosition();
    const [volumes, lastCheckDay] = await Promise.all([
      this.volumes.of(projectId, content.keywords, logEnd),
      this.lastCheckDays.get(
        projectId,
        NO_INPUTS,
        async () => ({ day: await this.checkProgress.lastCheckDay(projectId, this.clock.now()) }),
        logEnd,
      ),
    ]);
    if (
      cached &&
      cached.volumes === volumes &&
      cached.lastCheckDay === lastCheckDay &&
      cached.project === project &&
      cached.keywords === content.keywords
    )
      return cached.body;

    const detail = toProjectDetail(project, content, volumes, lastCheckDay.day);
    const body = Buffer.from(JSON.stringify({ success: true, project: detail }));
    this.rendered.set(projectId, { project, keywords: content.keywords, volumes, lastCheckDay, body } satisfies Rendered, body.length);
    return body;
  }
}
