import type { EventStore } from '@rank/event-store/event-store.port';
import type { ReadStore } from '@rank/read-store/read-store.port';

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

/** One part of a process's readiness: what its roles need, asked now. */
export type ReadinessProbe = () => ReadinessPart | Promise<ReadinessPart>;

/** A probe answers within this, whatever a store does: a hung store is a part that is not ready. */
export const PART_TIMEOUT_MS = 3_000;

/**
 * Asks every part at once, each bounded by PART_TIMEOUT_MS; ready when every part is. A probe that
 * throws is a part that is not ready, with the error's message.
 */
export async function checkReadiness(probes: Record<string, ReadinessProbe>): Promise<ReadinessReport> {
  const names = Object.keys(probes);
  const parts = await Promise.all(names.map((name) => bounded(probes[name]!)));
  const byName = Object.fromEntries(names.map((name, i) => [name, parts[i]!]));
  return { status: parts.every((p) => p.ok) ? 'ready' : 'not ready', parts: byName };
}

/** The event store answers a one-event read. */
export function eventStoreProbe(eventStore: EventStore): ReadinessProbe {
  return async () => {
    await eventStore.readAll({ maxCount: 1 });
    return { ok: true };
  };
}

/** The read store answers `SELECT 1`. */
export function readStoreProbe(readStore: ReadStore): ReadinessProbe {
  return async () => {
    await readStore.query('SELECT 1 AS one');
    return { ok: true };
  };
}

/** What the projections part needs of the projection runner. */
export interface FollowerOfTheLog {
  readonly name: string;
  lag(): Promise<{ events: number; seconds: number }>;
}

/** The projections are within READY_MAX_LAG_EVENTS and READY_MAX_LAG_SECONDS of the log. */
export function projectionsProbe(runner: FollowerOfTheLog, maxLag: { events: number; seconds: number }): ReadinessProbe {
  return async () => {
    const lag = await runner.lag();
    const ok = lag.events <= maxLag.events && lag.seconds <= maxLag.seconds;
    const behind = { events: lag.events, seconds: Math.round(lag.seconds * 10) / 10, ok };
    return {
      ok,
      maxLag: { events: maxLag.events, seconds: maxLag.seconds },
      [runner.name]: behind,
      ...(ok ? {} : { error: `${runner.name} is ${lag.events} events and ${Math.round(lag.seconds)} s behind the log` }),
    };
  };
}

async function bounded(probe: ReadinessProbe): Promise<ReadinessPart> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReadinessPart>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${PART_TIMEOUT_MS} ms` }), PART_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(probe)
        .catch((error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : String(error) })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
