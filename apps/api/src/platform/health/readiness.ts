import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { ReadStore } from '@rank/read-store/read-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, EVENT_STORE, READ_STORE } from '@rank/platform/tokens';
import { ProjectionRunner } from '@rank/projector/projection-runner';
import { CheckWorkerLifecycle } from '@rank/tracking/check/check-worker.lifecycle';

export interface ReadinessPart {
  ok: boolean;
  /** Why not, when not. */
  error?: string;
  [detail: string]: unknown;
}

export interface ReadinessReport {
  status: 'ready' | 'not ready';
  parts: Record<string, ReadinessPart>;
}

/** A probe answers within this, whatever a store does: a hung store is a part that is not ready. */
const PART_TIMEOUT_MS = 3_000;

/**
 * Whether this process can do its work now, for the roles it runs: the event store answers a read,
 * the read store answers `SELECT 1`, the projections (role `projections`) are within
 * READY_MAX_LAG_EVENTS / READY_MAX_LAG_SECONDS of the log. Each part is probed at once, each bounded
 * by a timeout, and the browser (role `scraper`) was found at start or launched and is still
 * connected (a probe never launches one).
 */
@Injectable()
export class Readiness {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Optional() private readonly projections?: ProjectionRunner,
    @Optional() private readonly checkWorker?: CheckWorkerLifecycle,
  ) {}

  async check(): Promise<ReadinessReport> {
    const probes: Record<string, () => Promise<ReadinessPart>> = {
      eventStore: async () => {
        await this.eventStore.readAll({ maxCount: 1 });
        return { ok: true };
      },
      readStore: async () => {
        await this.readStore.query('SELECT 1 AS one');
        return { ok: true };
      },
      ...(this.projections && this.config.roles.has('projections') ? { projections: () => this.projectionsPart(this.projections!) } : {}),
      ...(this.checkWorker && this.config.roles.has('scraper') ? { browser: async () => this.checkWorker!.browserState() } : {}),
    };
    const names = Object.keys(probes);
    const parts = await Promise.all(names.map((name) => bounded(probes[name]!)));
    const byName = Object.fromEntries(names.map((name, i) => [name, parts[i]!]));
    return { status: parts.every((p) => p.ok) ? 'ready' : 'not ready', parts: byName };
  }

  private async projectionsPart(runner: ProjectionRunner): Promise<ReadinessPart> {
    const { events, seconds } = this.config.readyMaxLag;
    const lag = await runner.lag();
    const ok = lag.events <= events && lag.seconds <= seconds;
    const behind = { events: lag.events, seconds: Math.round(lag.seconds * 10) / 10, ok };
    return {
      ok,
      maxLag: { events, seconds },
      [runner.name]: behind,
      ...(ok ? {} : { error: `${runner.name} is ${lag.events} events and ${Math.round(lag.seconds)} s behind the log` }),
    };
  }
}

async function bounded(probe: () => Promise<ReadinessPart>): Promise<ReadinessPart> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReadinessPart>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${PART_TIMEOUT_MS} ms` }), PART_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      probe().catch((error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : String(error) })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
