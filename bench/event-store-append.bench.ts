/**
 * Embedded event store speed (SQLite, a temporary file, the settings the app uses: WAL,
 * synchronous=FULL): single-event appends with an expected revision spread over many small
 * streams (how command handlers write), batched appends of 100 events (how a scraper stores a
 * check's results), and reading back a 1,000-event stream (how a long-lived aggregate loads).
 * Takes a few seconds.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NewEvent } from '@rank/event-store/event-store.port';
import { SqliteEventStore } from '@rank/event-store/sqlite/sqlite-event-store';

const SMALL_STREAMS = 1_000;
const EVENTS_PER_SMALL_STREAM = 5;
const BATCHES = 100;
const BATCH_SIZE = 100;
const LONG_STREAM_EVENTS = 1_000;
const LONG_STREAM_READS = 50;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-bench-'));
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  try {
    const single = await singleEventAppends(store);
    const batched = await batchedAppends(store);
    const read = await longStreamReads(store);

    console.log('event store (SQLite, temporary file)');
    console.log(
      `  single-event appends, expected revision, ${SMALL_STREAMS} streams: ${rate(single.events, single.ms)} events/s ` +
        `(${(single.ms / single.events).toFixed(3)} ms per append)`,
    );
    console.log(`  batched appends of ${BATCH_SIZE}: ${rate(batched.events, batched.ms)} events/s`);
    console.log(
      `  readStream of a ${LONG_STREAM_EVENTS}-event stream: median ${read.medianMs.toFixed(2)} ms, worst ${read.worstMs.toFixed(2)} ms`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function singleEventAppends(store: SqliteEventStore): Promise<{ events: number; ms: number }> {
  const streams = Array.from({ length: SMALL_STREAMS }, (_, i) => `keyword-${i}-${randomUUID()}`);
  const started = performance.now();
  for (let revision = 0; revision < EVENTS_PER_SMALL_STREAM; revision++) {
    for (const stream of streams) {
      await store.appendToStream(stream, [event({ revision })], {
        expectedRevision: revision === 0 ? 'no_stream' : revision - 1,
      });
    }
  }
  return { events: SMALL_STREAMS * EVENTS_PER_SMALL_STREAM, ms: performance.now() - started };
}

async function batchedAppends(store: SqliteEventStore): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  for (let batch = 0; batch < BATCHES; batch++) {
    const events = Array.from({ length: BATCH_SIZE }, (_, index) => event({ batch, index }));
    await store.appendToStream(`check-results-${batch}-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
  }
  return { events: BATCHES * BATCH_SIZE, ms: performance.now() - started };
}

async function longStreamReads(store: SqliteEventStore): Promise<{ medianMs: number; worstMs: number }> {
  const stream = `project-${randomUUID()}`;
  for (let written = 0; written < LONG_STREAM_EVENTS; written += BATCH_SIZE) {
    const events = Array.from({ length: BATCH_SIZE }, (_, index) => event({ index: written + index }));
    await store.appendToStream(stream, events, { expectedRevision: written === 0 ? 'no_stream' : written - 1 });
  }
  const timings: number[] = [];
  for (let i = 0; i < LONG_STREAM_READS; i++) {
    const started = performance.now();
    const events = await store.readStream(stream);
    timings.push(performance.now() - started);
    if (events.length !== LONG_STREAM_EVENTS) throw new Error(`read ${events.length} events, expected ${LONG_STREAM_EVENTS}`);
  }
  timings.sort((a, b) => a - b);
  return { medianMs: timings[Math.floor(timings.length / 2)]!, worstMs: timings[timings.length - 1]! };
}

/** A payload about the size of a real keyword-position event. */
function event(data: Record<string, unknown>): NewEvent {
  return {
    id: randomUUID(),
    type: 'KeywordPositionRecorded',
    data: { ...data, keywordId: randomUUID(), position: 7, url: 'https://example.com/some/landing-page', device: 'desktop' },
    metadata: { correlationId: randomUUID() },
  };
}

function rate(events: number, ms: number): string {
  return Math.round((events / ms) * 1000).toLocaleString('en-US');
}
