import { processSpec } from '@rank/domain/testing/process-spec';
import { DEFAULT_SETTINGS } from '@rank/projects/domain/project-settings';
import type { FetchRecord } from '../domain/domain-data';
import { domainWorkOf, DomainWorkTrigger, pageSpeedRequestOf, pageSpeedRunsAt, ScheduledJob, shouldFetch } from './domain-work.process';

const settings = { ...DEFAULT_SETTINGS, name: 'Shop', domain: 'Shop.example' };
const created: DomainWorkTrigger = {
  type: 'ProjectCreated',
  data: { projectId: 'p1', accountId: 'a1', settings, folder: null, createdAt: '2026-03-01T00:00:00.000Z' },
};
const failure = (attempt: number, origin: 'background' | 'retry' | 'request' = 'background', round?: number): DomainWorkTrigger => ({
  type: 'DomainDataFetchFailed',
  data: {
    domain: 'shop.example',
    kind: 'pagespeed',
    target: 'https://shop.example/',
    level: 'domain',
    reason: 'lighthouse: timeout',
    failedAt: '2026-03-01T10:00:00.000Z',
    attempt,
    origin,
    ...(round === undefined ? {} : { round }),
  },
});

describe('domain work process', () => {
  const work = processSpec(domainWorkOf);

  it("when a project is created, fetches its domain's traffic, home-page speed and origin CrUX history at once", () => {
    work.when(created).then([
      { job: { kind: 'traffic', domain: 'shop.example' }, notBefore: null },
      { job: { kind: 'pagespeed', domain: 'shop.example', url: 'https://shop.example/', level: 'domain' }, notBefore: null },
      { job: { kind: 'crux', domain: 'shop.example', target: 'origin', url: 'https://shop.example' }, notBefore: null },
    ]);
  });

  it('asks nothing for a domain that is not a public site', () => {
    for (const domain of ['localhost', '10.0.0.5', 'intranet.corp', 'printer.local']) {
      work.when({ ...created, data: { ...created.data, settings: { ...settings, domain } } } as DomainWorkTrigger).then([]);
    }
  });

  it("when competitors change, fetches each competitor's traffic once, normalised", () => {
    const updated: DomainWorkTrigger = {
      type: 'ProjectUpdated',
      data: {
        projectId: 'p1',
        settings,
        folder: null,
        competitors: ['https://www.Rival.com/x', 'rival.com', 'shop.example', 'other.org'],
        createdAt: '',
        updatedAt: '',
      },
    };
    const jobs = work
      .when(updated)
      .outcome()
      .map((s) => s.job);
    expect(jobs.filter((j) => j.kind === 'traffic').map((j) => j.domain)).toEqual(['shop.example', 'rival.com', 'other.org']);
  });

  it('when a check completes with a ranking page, measures that page and its CrUX history; without one, nothing', () => {
    const completed = (url: string): DomainWorkTrigger => ({
      type: 'CheckCompleted',
      data: {
        checkId: 'c',
        batchId: 'b',
        projectId: 'p1',
        keywordId: 'k',
        completedAt: '2026-03-01T00:00:00.000Z',
        serpTop: 50,
        position: { position: url ? 3 : 0, url, title: '', domain: url ? 'shop.example' : '' },
        results: [],
        aiOverview: [],
      },
    });
    work.when(completed('https://www.shop.example/shoes')).then([
      { job: { kind: 'pagespeed', domain: 'shop.example', url: 'https://www.shop.example/shoes', level: 'page' }, notBefore: null },
      { job: { kind: 'crux', domain: 'shop.example', target: 'url', url: 'https://www.shop.example/shoes' }, notBefore: null },
    ]);
    work.when(completed('')).then([]);
  });

  it("when a background fetch fails, retries it with a growing delay, five times a round at most; a request's failure is not retried", () => {
    work.when(failure(1, 'background', 1)).then([
      {
        job: { kind: 'pagespeed', domain: 'shop.example', url: 'https://shop.example/', level: 'domain' },
        notBefore: '2026-03-01T10:01:00.000Z',
        retryOfRound: 1,
      },
    ]);
    expect(work.when(failure(3, 'retry', 3)).outcome()[0]!.notBefore).toBe('2026-03-01T10:30:00.000Z');
    expect(work.when(failure(5, 'retry', 5)).outcome()[0]!.notBefore).toBe('2026-03-01T22:00:00.000Z');
    work.when(failure(6, 'retry', 6)).then([]);
    work.when(failure(1, 'request')).then([]);
  });

  it("when a trigger's fetch fails after earlier failures (a round spent, traffic-checks that failed), its retries start again from the first", () => {
    // Before, the delay went by the failures since the last success: the 7th failure got no retry at all.
    work.when(failure(7, 'background', 1)).then([
      {
        job: { kind: 'pagespeed', domain: 'shop.example', url: 'https://shop.example/', level: 'domain' },
        notBefore: '2026-03-01T10:01:00.000Z',
        retryOfRound: 1,
      },
    ]);
  });

  it('when a failure recorded before rounds existed is read again, its attempt stands for its round', () => {
    expect(work.when(failure(2)).outcome()[0]).toMatchObject({ notBefore: '2026-03-01T10:05:00.000Z', retryOfRound: 2 });
  });
});

describe('whether a due job still fetches', () => {
  const at = new Date('2026-03-31T00:00:00.000Z');
  const day = 24 * 3600 * 1000;
  const record = (lastSuccessAt: number | null, failures = 0, round = failures): FetchRecord => ({ lastSuccessAt, failures, round });
  const domainJob: ScheduledJob = { job: { kind: 'traffic', domain: 'shop.example' }, notBefore: null };
  const pageJob: ScheduledJob = {
    job: { kind: 'pagespeed', domain: 'shop.example', url: 'https://shop.example/a', level: 'page' },
    notBefore: null,
  };

  it('given a fresh record (30 days for a domain, 7 for a ranking page), skips it', () => {
    expect(shouldFetch(domainJob, record(at.getTime() - 29 * day), at)).toBe(false);
    expect(shouldFetch(domainJob, record(at.getTime() - 30 * day), at)).toBe(true);
    expect(shouldFetch(pageJob, record(at.getTime() - 6 * day), at)).toBe(false);
    expect(shouldFetch(pageJob, record(at.getTime() - 7 * day), at)).toBe(true);
    expect(shouldFetch(domainJob, record(null), at)).toBe(true);
  });

  it('given a retry overtaken since (a later try of its round, a new round, a success), skips it', () => {
    expect(shouldFetch({ ...domainJob, retryOfRound: 2 }, record(null, 2), at)).toBe(true);
    expect(shouldFetch({ ...domainJob, retryOfRound: 1 }, record(null, 2), at)).toBe(false);
    expect(shouldFetch({ ...domainJob, retryOfRound: 3 }, record(null, 7, 1), at)).toBe(false);
    expect(shouldFetch({ ...domainJob, retryOfRound: 1 }, record(at.getTime() - day, 0), at)).toBe(false);
  });

  it("given a round's retries waiting, a trigger's fetch waits for them; once they are spent, it starts a new round", () => {
    // Two failed tries of the round so far: its third waits 30 minutes.
    expect(shouldFetch(pageJob, record(null, 2), at)).toBe(false);
    expect(shouldFetch(pageJob, record(at.getTime() - 8 * day, 1), at)).toBe(false);
    // The first try and its five retries failed: the next trigger fetches, starting a new round.
    expect(shouldFetch(pageJob, record(null, 5, 5), at)).toBe(false);
    expect(shouldFetch(pageJob, record(null, 6, 6), at)).toBe(true);
    // A request's failures (traffic-check) start no round: a trigger still fetches.
    expect(shouldFetch(domainJob, record(null, 2, 0), at)).toBe(true);
  });

  it("given a request's failure since the failure a retry waits on, still fetches: a traffic-check's failure is no try of the round", () => {
    // Three failures since the last success, the third a request's: the round is still at 2.
    expect(shouldFetch({ ...domainJob, retryOfRound: 2 }, record(null, 3, 2), at)).toBe(true);
  });
});

describe('where page speed is measured', () => {
  it("runs PageSpeed Insights anywhere, and Lighthouse only where a scraper's Chromium is", () => {
    expect(pageSpeedRunsAt('psi', false)).toBe('here');
    expect(pageSpeedRunsAt('lighthouse', true)).toBe('here');
    expect(pageSpeedRunsAt('lighthouse', false)).toBe('scrapers');
  });

  it('asks the scrapers once per URL, level, day and retry', () => {
    const job: ScheduledJob = {
      job: { kind: 'pagespeed', domain: 'shop.example', url: 'https://shop.example/', level: 'domain' },
      notBefore: null,
    };
    const morning = pageSpeedRequestOf(job, new Date('2026-03-01T08:00:00.000Z'))!;
    const evening = pageSpeedRequestOf(job, new Date('2026-03-01T20:00:00.000Z'))!;
    const retry = pageSpeedRequestOf({ ...job, retryOfRound: 1 }, new Date('2026-03-01T20:00:00.000Z'))!;
    expect(morning).toEqual({
      requestId: morning.requestId,
      domain: 'shop.example',
      url: 'https://shop.example/',
      level: 'domain',
      requestedAt: '2026-03-01T08:00:00.000Z',
    });
    expect(evening.requestId).toBe(morning.requestId);
    expect(retry.requestId).not.toBe(morning.requestId);
    // The same home page ranking that day is a page-level request of its own, not a repeat of the snapshot's.
    const asPage = pageSpeedRequestOf(
      { ...job, job: { ...job.job, level: 'page' } as ScheduledJob['job'] },
      new Date('2026-03-01T20:00:00.000Z'),
    )!;
    expect(asPage.requestId).not.toBe(morning.requestId);
    expect(pageSpeedRequestOf({ job: { kind: 'traffic', domain: 'shop.example' }, notBefore: null }, new Date())).toBeNull();
  });
});
