import { randomUUID } from 'node:crypto';
import type { CheckEvent, RankedResult } from '@rank/tracking/domain/check.events';
import { checksStreamName, projectChecksStreamPrefix } from '@rank/tracking/domain/check.events';
import { newObjectId } from '@rank/domain/object-id';
import { domainOfUrl } from '@rank/domain/domain-name';
import type { EventStore, RecordedEvent } from '@rank/event-store/event-store.port';

/**
 * Writes check results straight into the event log, as the scraper would, for tests of the reads.
 * The projections turn them into ClickHouse rows (call the ProjectionRunner's waitUntilCaughtUp()).
 */
export interface SeededCheck {
  projectId: string;
  keywordId: string;
  /** ISO 8601 moment the check completed. */
  at: string;
  /** Result URLs in organic order (positions 1..n); domains are derived. */
  urls?: string[];
  /** The project's domain (and aliases): its best position is derived from `urls`. */
  projectDomains?: string[];
  aiOverviewUrls?: string[];
  serpTop?: 50 | 100;
  /** A failed check instead of a result. */
  failedReason?: string;
  checkId?: string;
}

const ranked = (urls: string[]): RankedResult[] =>
  urls.map((url, i) => ({ position: i + 1, url, title: `Title of ${url}`, domain: domainOfUrl(url) ?? '' }));

export function checkEventOf(check: SeededCheck): CheckEvent {
  const checkId = check.checkId ?? newObjectId(new Date(check.at));
  const base = { checkId, batchId: 'seed', projectId: check.projectId, keywordId: check.keywordId };
  if (check.failedReason !== undefined) {
    return { type: 'CheckFailed', data: { ...base, failedAt: check.at, reason: check.failedReason, accountId: 'seed', refundCredits: 0 } };
  }
  const results = ranked(check.urls ?? []);
  const own = new Set(check.projectDomains ?? []);
  const hit = results.find((r) => [...own].some((d) => r.domain === d || r.domain.endsWith(`.${d}`)));
  return {
    type: 'CheckCompleted',
    data: {
      ...base,
      completedAt: check.at,
      serpTop: check.serpTop ?? 50,
      position: hit ?? { position: 0, url: '', title: '', domain: '' },
      results,
      aiOverview: ranked(check.aiOverviewUrls ?? []),
    },
  };
}

/** Appends the checks (each its own event) to their projects' checks streams; returns the check ids. */
export async function seedChecks(store: EventStore, checks: SeededCheck[]): Promise<string[]> {
  const ids: string[] = [];
  for (const check of checks) {
    const event = checkEventOf(check);
    await store.appendToStream(
      checksStreamName(check.projectId, event.data.keywordId),
      [{ id: randomUUID(), type: event.type, data: event.data }],
      { expectedRevision: 'any' },
    );
    ids.push(event.data.checkId);
  }
  return ids;
}

/** Every stored check result of a project (all its keywords' streams), in log order. */
export async function checkResultsOf(store: EventStore, projectId: string): Promise<RecordedEvent[]> {
  const prefix = projectChecksStreamPrefix(projectId);
  return (await store.readAll()).filter((event) => event.streamName.startsWith(prefix));
}
