import { domainOfUrl, normaliseDomain } from '@rank/domain/domain-name';
import { assertNever } from '@rank/domain/domain-error';
import { uuidFromName } from '@rank/domain/deterministic-uuid';
import type { WorkspaceEvent } from '@rank/projects/domain/workspace.events';
import type { CheckEvent } from '@rank/tracking/domain/check.events';
import { fetchKey, type FetchRecord } from '../domain/domain-data';
import type { DomainDataEvent, DomainDataKind, PageSpeedLevel } from '../domain/domain-data.events';
import type { PageSpeedWorkEvent } from '../domain/page-speed-work.events';
import { CACHE_FRESH_MS, isFresh, PAGE_REMEASURE_MS, retryDelayAfter } from '../domain/freshness';
import { isPublicHostname } from '../domain/public-hostname';

/**
 * The background work on domain data, as a pure process: what happened in the log (a project
 * created or its competitors changed, a check completed, a background fetch failed) gives the
 * fetches to make and from when; what the domain's stream knows then decides whether a fetch is
 * still needed. Fetching itself, and recording its outcome, is the worker's.
 */

/** The origin CrUX keeps a domain's history under, and the home page its page-speed snapshot measures. */
export const originOf = (domain: string) => `https://${domain}`;
export const homePageOf = (domain: string) => `https://${domain}/`;

export type DomainJob =
  | { kind: 'traffic'; domain: string }
  | { kind: 'pagespeed'; domain: string; url: string; level: PageSpeedLevel }
  | { kind: 'crux'; domain: string; target: 'origin' | 'url'; url: string };

export interface ScheduledJob {
  job: DomainJob;
  /** Not before this moment (ISO 8601); null: at once. */
  notBefore: string | null;
  /**
   * For a retry: the round of the failure it retries; it is dropped when its round moved on since (a
   * success, another try of the round, or a new round a trigger started).
   */
  retryOfRound?: number;
}

export type DomainWorkTrigger =
  | Extract<WorkspaceEvent, { type: 'ProjectCreated' | 'ProjectUpdated' }>
  | Extract<CheckEvent, { type: 'CheckCompleted' }>
  | Extract<DomainDataEvent, { type: 'DomainDataFetchFailed' }>;

/** What a job fetches, as the domain's stream keeps its fetches: its kind, target and page-speed level. */
export const fetchOf = (job: DomainJob): [DomainDataKind, string, PageSpeedLevel | undefined] => [
  job.kind,
  job.kind === 'traffic' ? job.domain : job.url,
  job.kind === 'pagespeed' ? job.level : undefined,
];

/** The key a job is known by: a second trigger of the same fetch while one waits adds nothing. */
export const jobKey = (job: DomainJob) => fetchKey(...fetchOf(job));

const now = (job: DomainJob): ScheduledJob => ({ job, notBefore: null });

/** A tracked domain's own data: traffic, the home page's speed, the origin's CrUX history. */
function ownDomainJobs(domain: string): ScheduledJob[] {
  return [
    now({ kind: 'traffic', domain }),
    now({ kind: 'pagespeed', domain, url: homePageOf(domain), level: 'domain' }),
    now({ kind: 'crux', domain, target: 'origin', url: originOf(domain) }),
  ];
}

/** The jobs a trigger asks for; never for a domain that is not a public site (an IP, an intranet name). */
export function domainWorkOf(trigger: DomainWorkTrigger): ScheduledJob[] {
  return jobsOf(trigger).filter((scheduled) => isPublicHostname(scheduled.job.domain));
}

function jobsOf(trigger: DomainWorkTrigger): ScheduledJob[] {
  switch (trigger.type) {
    case 'ProjectCreated': {
      const domain = normaliseDomain(trigger.data.settings.domain);
      return domain ? ownDomainJobs(domain) : [];
    }
    case 'ProjectUpdated': {
      // The domain may have changed too; what is still fresh is skipped when the job runs.
      const domain = normaliseDomain(trigger.data.settings.domain);
      const competitors = [
        ...new Set(trigger.data.competitors.map(normaliseDomain).filter((d): d is string => d !== null && d !== domain)),
      ];
      return [...(domain ? ownDomainJobs(domain) : []), ...competitors.map((c) => now({ kind: 'traffic', domain: c }))];
    }
    case 'CheckCompleted': {
      const url = trigger.data.position.url;
      const domain = url ? domainOfUrl(url) : null;
      if (!url || !domain) return [];
      return [now({ kind: 'pagespeed', domain, url, level: 'page' }), now({ kind: 'crux', domain, target: 'url', url })];
    }
    case 'DomainDataFetchFailed': {
      // A request's failure is the caller's answer (no data); only background fetches are retried.
      const failure = trigger.data;
      if (failure.origin === 'request') return [];
      const round = failure.round ?? failure.attempt;
      const delay = retryDelayAfter(round);
      if (delay === null) return [];
      const job = jobOfFailure(failure);
      return job ? [{ job, notBefore: new Date(Date.parse(failure.failedAt) + delay).toISOString(), retryOfRound: round }] : [];
    }
    default:
      return assertNever(trigger);
  }
}

function jobOfFailure(failure: Extract<DomainDataEvent, { type: 'DomainDataFetchFailed' }>['data']): DomainJob | null {
  switch (failure.kind) {
    case 'traffic':
      return { kind: 'traffic', domain: failure.domain };
    case 'pagespeed':
      return { kind: 'pagespeed', domain: failure.domain, url: failure.target, level: failure.level ?? 'domain' };
    case 'crux':
      return {
        kind: 'crux',
        domain: failure.domain,
        target: failure.target === originOf(failure.domain) ? 'origin' : 'url',
        url: failure.target,
      };
    default:
      return assertNever(failure.kind);
  }
}

/** What a background job's failure records itself as: the first try of a round, or a retry in it. */
export const fetchOriginOf = (scheduled: ScheduledJob): 'background' | 'retry' =>
  scheduled.retryOfRound === undefined ? 'background' : 'retry';

/** A ranking page is measured at most weekly; a domain's own data is refreshed when its cache goes stale. */
const freshFor = (job: DomainJob) =>
  (job.kind === 'pagespeed' && job.level === 'page') || (job.kind === 'crux' && job.target === 'url') ? PAGE_REMEASURE_MS : CACHE_FRESH_MS;

/**
 * Whether a due job still has to fetch, given what the domain's stream knows of that fetch: not when
 * its data is fresh, nor when it is a retry overtaken since (a success, a later try, a new round).
 */
export function shouldFetch(scheduled: ScheduledJob, record: FetchRecord, at: Date): boolean {
  if (scheduled.retryOfRound !== undefined) {
    if (record.round !== scheduled.retryOfRound) return false;
  } else if (record.round > 0 && retryDelayAfter(record.round) !== null) {
    // A round's retries are waiting: a trigger waits for them rather than start a round beside it.
    // Before, every completed check ranking with a page fetched its speed again while the provider
    // was down (58 failed calls for one page in 8 minutes), each failure a round of its own.
    return false;
  }
  return !isFresh(record.lastSuccessAt, at, freshFor(scheduled.job));
}

/**
 * Where a page-speed job runs: here when it is a PageSpeed Insights call, or a Lighthouse run in a
 * process that has the scraper role (and so a Chromium); otherwise it is handed to the scrapers.
 */
export const pageSpeedRunsAt = (source: 'psi' | 'lighthouse', hasScraperRole: boolean): 'here' | 'scrapers' =>
  source === 'lighthouse' && !hasScraperRole ? 'scrapers' : 'here';

/**
 * The request a page-speed job becomes at the scrapers. Its id is derived from the URL, the UTC day
 * and the retry it is, so the same job asked again the same day (a replay, a second trigger) is the
 * same request and is measured once, while a retry is a request of its own.
 */
export function pageSpeedRequestOf(scheduled: ScheduledJob, at: Date): PageSpeedWorkEvent['data'] | null {
  const { job } = scheduled;
  if (job.kind !== 'pagespeed') return null;
  // A ranking home page is measured at both levels: each level is a request of its own.
  const level = job.level === 'page' ? 'page:' : '';
  const requestId = uuidFromName(`pagespeed-work:${level}${job.url}:${at.toISOString().slice(0, 10)}:${scheduled.retryOfRound ?? 0}`);
  return {
    requestId,
    domain: job.domain,
    url: job.url,
    level: job.level,
    requestedAt: at.toISOString(),
    ...(scheduled.retryOfRound === undefined ? {} : { retry: true }),
  };
}
