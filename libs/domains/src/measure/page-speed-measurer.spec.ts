import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from '@rank/event-store/create-event-store';
import type { EventStore } from '@rank/event-store/event-store.port';
import { pageSpeedWorkStreamName, PageSpeedWorkEvent } from '../domain/page-speed-work.events';
import { PageSpeedMeasurer } from './page-speed-measurer';

describe("page-speed measurer (a scraper's member of page-speed-measurers)", () => {
  let dir: string;
  let store: EventStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'page-speed-measurer-'));
    store = await createEventStore({ sqlitePath: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = (n: number): PageSpeedWorkEvent['data'] => ({
    requestId: `00000000-0000-4000-8000-00000000000${n}`,
    domain: 'shop.example',
    url: `https://shop.example/p${n}`,
    level: 'page',
    requestedAt: '2026-03-01T00:00:00.000Z',
  });
  const ask = (data: PageSpeedWorkEvent['data']) =>
    store.appendToStream(pageSpeedWorkStreamName(data.requestId), [{ id: data.requestId, type: 'PageSpeedMeasurementRequested', data }], {
      expectedRevision: 'any',
    });

  it("measures each request once, one at a time, and ignores other streams' events", async () => {
    const measured: string[] = [];
    let running = 0;
    let most = 0;
    const measurer = new PageSpeedMeasurer({
      store,
      measure: async (r) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        measured.push(r.url);
        running--;
      },
      log: () => undefined,
    });
    await ask(request(1));
    await ask(request(2));
    await ask(request(1)); // asked again: the same request, stored once
    measurer.start();
    const deadline = Date.now() + 10_000;
    while (measured.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await measurer.idle();
    await measurer.stop();
    expect(measured.sort()).toEqual(['https://shop.example/p1', 'https://shop.example/p2']);
    expect(most).toBe(1);
  });
});
