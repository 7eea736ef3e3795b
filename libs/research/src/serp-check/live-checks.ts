import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { parseEvent } from '@rank/domain/domain-event';
import type { EventStore } from '@rank/event-store/event-store.port';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG, CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { LIVE_CHECK_ANSWER_TYPES, LiveCheckAnswer, LiveCheckRequested, liveCheckStream } from './live-check.events';

export interface LiveCheckTarget {
  accountId: string;
  keyword: string;
  geoCode: string;
  langCode: string;
}

/** The answer, or `timeout` when no scraper answered in time (none running, or all of them busy or blocked). */
export type LiveCheckOutcome = LiveCheckAnswer | { type: 'timeout'; waitedMs: number };

/** The first reads come quickly (a standalone scraper answers in one page load); later ones back off to spare the store. */
const POLL_DELAYS_MS = [20, 20, 40, 40, 80, 80, 160, 250];

/**
 * The api's side of a live check: it appends the request to a stream of its own and reads that
 * stream until a scraper's answer is there. No browser in the api, so this works the same on a
 * standalone run (the scraper role in this process) and on api replicas with scrapers elsewhere.
 */
@Injectable()
export class LiveChecks {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'serpCheckTimeoutMs'>,
  ) {}

  async check(target: LiveCheckTarget, timeoutMs = this.config.serpCheckTimeoutMs): Promise<LiveCheckOutcome> {
    const requestId = randomUUID();
    const now = this.clock.now();
    const request: LiveCheckRequested = {
      type: 'LiveCheckRequested',
      data: { requestId, ...target, requestedAt: now.toISOString(), expiresAt: new Date(now.getTime() + timeoutMs).toISOString() },
    };
    const stream = liveCheckStream(requestId);
    const started = Date.now();
    await this.store.appendToStream(stream, [{ id: requestId, type: request.type, data: request.data }], { expectedRevision: 'no_stream' });
    for (let attempt = 0; ; attempt++) {
      const [, ...answers] = await this.store.readStream(stream, { fromRevision: 0, maxCount: 2 });
      const answer = answers.map((e) => parseEvent<LiveCheckAnswer>(e, LIVE_CHECK_ANSWER_TYPES)).find((e) => e !== undefined);
      if (answer) return answer;
      const waitedMs = Date.now() - started;
      if (waitedMs >= timeoutMs) return { type: 'timeout', waitedMs };
      const delay = POLL_DELAYS_MS[Math.min(attempt, POLL_DELAYS_MS.length - 1)]!;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, timeoutMs - waitedMs)));
    }
  }
}
