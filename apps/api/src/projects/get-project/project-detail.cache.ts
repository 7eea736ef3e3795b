import { Inject, Injectable } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { CLOCK, Clock, EVENT_STORE, READ_STORE } from '@rank/platform/tokens';
import { ALL_PROJECTIONS } from '@rank/projector/all-projections';
import { projectedPosition } from '@rank/projector/projected-position';
import type { ProjectContentState } from '@rank/projects/domain/project-content';
import type { ProjectRecord } from '@rank/projects/domain/workspace';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { KeywordVolumes } from '@rank/research/keyword-volumes';
import { averageMonthlySearches } from '@rank/research/reads/volume-views';
import { CheckProgressReader } from '@rank/tracking/reads/check-progress/check-progress.reader';
import { CheckDayView, toProjectDetail } from '../project.view';

type Keywords = ProjectContentState['keywords'];

/** What the detail takes from the read models (ClickHouse), and how far the read models had got when it was read. */
interface ReadModelParts {
  /**
   * A projected position up to which the parts are known current: read before they were, and
   * raised when the events projected since are found to touch none of their rows.
   */
  projectedUpTo: number;
  /** The keywords the volumes were looked up for. */
  keywords: Keywords;
  volumes: ReadonlyMap<string, number | null>;
  lastCheckDay: CheckDayView | null;
}

/** A read of the parts under way; `queried` once its ClickHouse queries have been sent. */
interface PartsRead {
  keywords: Keywords;
  queried: boolean;
  parts: Promise<ReadModelParts>;
}

interface Rendered {
  project: ProjectRecord;
  keywords: Keywords;
  parts: ReadModelParts;
  /** `{ success: true, project }` as UTF-8 JSON. */
  body: Buffer;
}

/**
 * Rendered bodies are a few hundred KB for a full project (3,500 keywords, about 450 KB): this keeps
 * the recently read ones of about 70 such projects.
 */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The read-model tables the parts are read from (KeywordVolumes.ofKeywords, CheckProgressReader.lastCheckDay):
 * events whose projected rows touch neither (the process managers' own checkpoints, other projects'
 * checks) leave the parts as they are. A reader of another table must be added here.
 */
const PART_TABLES = new Set(['keyword_volumes', 'check_progress']);
const PART_PROJECTIONS = ALL_PROJECTIONS.filter((p) => p.tables.some((t) => PART_TABLES.has(t)));
/** Beyond this many events projected since, reading the parts again is cheaper than looking at each. */
const MAX_EVENTS_LOOKED_AT = 1_000;

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
 * - volumes and the last check day: read models change only when events are projected. When the
 *   log's last position is not past the projected position read with them, nothing can have been
 *   projected since (one cheap event-store read, the common case). Otherwise the stored checkpoint
 *   says whether the projector moved; while it has not, or while the events it projected since
 *   write none of the parts' rows, the parts still hold.
 */
@Injectable()
export class ProjectDetailCache {
  private readonly rendered = new StateCache(CACHE_BYTES);
  /** Parts being read, per project: concurrent first requests share one read. */
  private readonly reading = new Map<string, PartsRead>();

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly volumes: KeywordVolumes,
    private readonly checkProgress: CheckProgressReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The body for the project as loaded now (access already checked by the caller). */
  async body(projectId: string, project: ProjectRecord, content: ProjectContentState): Promise<Buffer> {
    const cached = this.rendered.get<Rendered>(projectId)?.value;
    const parts = await this.currentParts(projectId, content.keywords, cached?.parts);
    if (cached && cached.parts === parts && cached.project === project && cached.keywords === content.keywords) return cached.body;

    const detail = toProjectDetail(project, content, parts.volumes, parts.lastCheckDay);
    const body = Buffer.from(JSON.stringify({ success: true, project: detail }));
    // The parts' maps are about as large again as the body.
    this.rendered.set(projectId, { project, keywords: content.keywords, parts, body } satisfies Rendered, 2 * body.length);
    return body;
  }

  private async currentParts(projectId: string, keywords: Keywords, known: ReadModelParts | undefined): Promise<ReadModelParts> {
    let projectedNow: number | undefined;
    if (known && known.keywords === keywords) {
      if ((await this.eventStore.lastPosition()) <= known.projectedUpTo) return known;
      projectedNow = await projectedPosition(this.readStore);
      if (projectedNow <= known.projectedUpTo) return known;
      if (await this.untouchedBetween(projectId, known.projectedUpTo, projectedNow)) {
        known.projectedUpTo = Math.max(known.projectedUpTo, projectedNow);
        return known;
      }
    }
    // A read under way serves this request too while its queries have not started: they then see
    // at least what this request's own would.
    const pending = this.reading.get(projectId);
    if (pending && pending.keywords === keywords && !pending.queried) return pending.parts;
    const entry = { keywords, queried: false } as PartsRead;
    entry.parts = this.readParts(projectId, keywords, projectedNow, entry);
    this.reading.set(projectId, entry);
    try {
      return await entry.parts;
    } finally {
      if (this.reading.get(projectId) === entry) this.reading.delete(projectId);
    }
  }

  private async readParts(
    projectId: string,
    keywords: Keywords,
    projectedNow: number | undefined,
    read: PartsRead,
  ): Promise<ReadModelParts> {
    // Read before the queries: whatever they see includes at least everything up to it.
    const projectedUpTo = projectedNow ?? (await projectedPosition(this.readStore));
    read.queried = true;
    const [stored, lastCheckDay] = await Promise.all([
      this.volumes.ofKeywords(keywords),
      this.checkProgress.lastCheckDay(projectId, this.clock.now()),
    ]);
    const volumes = new Map([...stored].map(([keywordId, v]) => [keywordId, averageMonthlySearches(v)]));
    return { projectedUpTo, keywords, volumes, lastCheckDay };
  }

  /** Whether the events after `from` up to `to` (projected positions) leave this project's parts unchanged. */
  private async untouchedBetween(projectId: string, from: number, to: number): Promise<boolean> {
    let after = from;
    for (let looked = 0; looked < MAX_EVENTS_LOOKED_AT;) {
      const events = await this.eventStore.readAll({ afterPosition: after, maxCount: 100 });
      if (events.length === 0) return true;
      for (const event of events) {
        if (event.position > to) return true;
        if (touchesParts(event, projectId)) return false;
        after = event.position;
      }
      looked += events.length;
    }
    return false;
  }
}

/** Whether projecting the event writes or deletes rows the project's parts are read from. */
function touchesParts(event: RecordedEvent, projectId: string): boolean {
  try {
    return PART_PROJECTIONS.some((projection) =>
      projection
        .project(event)
        .some(
          (change) =>
            PART_TABLES.has(change.table) &&
            !(change.kind === 'insert' && change.table === 'check_progress' && change.row.project_id !== projectId),
        ),
    );
  } catch {
    // An event a projection cannot map is set aside by the projector; reading again costs only time.
    return true;
  }
}
