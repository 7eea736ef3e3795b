import { stopController } from '@rank/providers/shared/stop-controller';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock } from '@rank/platform/tokens';
import type { CruxHistory } from '@rank/providers/crux/crux-history-provider';
import type { PageSpeedMeasurement } from '@rank/providers/pagespeed/page-speed-provider';
import { DOMAIN_DATA_PROVIDERS, DomainDataProviders } from '../domain-data-providers';
import { DomainDataRepository } from '../domain-data.repository';
import type { CruxPoint, DomainDataKind, FetchOrigin, PageSpeedFigures, PageSpeedLevel, TrafficMonth } from '../domain/domain-data.events';

/**
 * What one fetch gave: the data (recorded), nothing because no provider is configured, a failure
 * (recorded as one), or nothing because the service stopped first (nothing recorded: the work is not
 * done, and is asked again after the restart).
 */
export type FetchOutcome<T> =
  { kind: 'fetched'; value: T } | { kind: 'unconfigured' } | { kind: 'failed'; reason: string } | { kind: 'stopped' };

const figuresOf = (m: PageSpeedMeasurement): PageSpeedFigures => ({
  source: m.source,
  performanceScore: m.performanceScore,
  accessibilityScore: m.accessibilityScore,
  bestPracticesScore: m.bestPracticesScore,
  seoScore: m.seoScore,
  largestContentfulPaint: m.largestContentfulPaint,
  firstContentfulPaint: m.firstContentfulPaint,
  totalBlockingTime: m.totalBlockingTime,
  cumulativeLayoutShift: m.cumulativeLayoutShift,
  cruxFieldData: m.cruxFieldData,
  cruxScore: m.cruxScore,
});

/** How long a fetched answer stands for the same question: well past the read models' usual lag. */
const RECENT_MS = 60_000;

/** `https://www.example.com` for `https://example.com`; null for an origin already on `www.`. */
function wwwOriginOf(origin: string): string | null {
  const { protocol, host } = new URL(origin);
  return host.startsWith('www.') ? null : `${protocol}//www.${host}`;
}

/**
 * Asks a provider for one piece of a domain's data and records the answer in the domain's stream:
 * the data, or the failure (never as data, so it is never served from the cache). Used by the
 * traffic check on a cache miss and by the background worker. A failure never throws: callers
 * answer "no data" and the worker retries.
 */
@Injectable()
export class DomainDataFetcher {
  private readonly logger = new Logger('DomainData');
  /** Fetches under way by what they ask for, so that callers asking the same at once share one call. */
  private readonly running = new Map<string, Promise<FetchOutcome<unknown>>>();
  /** Answers fetched in the last RECENT_MS, by question: the read models show them only once projected. */
  private readonly recent = new Map<string, { outcome: FetchOutcome<unknown>; atMs: number }>();
  /** Aborted by `stop`: every provider call under way is cut off, and none starts after. */
  private readonly stopping = stopController();

  constructor(
    @Inject(DOMAIN_DATA_PROVIDERS) private readonly providers: DomainDataProviders,
    private readonly repository: DomainDataRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The domain's monthly traffic, and when it was recorded (the same for every caller sharing the
   * call); an empty list when the provider has no data for it (cached as such).
   */
  traffic(domain: string, origin: FetchOrigin): Promise<FetchOutcome<{ months: TrafficMonth[]; fetchedAt: Date }>> {
    if (!this.providers.traffic.configured) return Promise.resolve({ kind: 'unconfigured' });
    return this.attempt({ domain, kind: 'traffic', target: domain, origin }, 'domain', async () => {
      const traffic = await this.providers.traffic.monthlyTraffic(domain, this.clock.now(), this.stopping.signal);
      const months = traffic?.months ?? [];
      const fetchedAt = this.clock.now();
      await this.repository.record({ type: 'RecordTraffic', domain, months }, fetchedAt);
      return { months, fetchedAt };
    });
  }

  /** A page-speed measurement of `url`: the domain's home page (`domain`) or one ranking page (`page`). */
  pageSpeed(
    domain: string,
    url: string,
    level: PageSpeedLevel,
    origin: FetchOrigin,
  ): Promise<FetchOutcome<PageSpeedFigures & { measuredAt: string }>> {
    return this.attempt({ domain, kind: 'pagespeed', target: url, level, origin }, level, async () => {
      const figures = figuresOf(await this.providers.pageSpeed.measure(url, this.stopping.signal));
      const measuredAt = this.clock.now();
      await this.repository.record({ type: 'RecordPageSpeed', domain, url, level, figures }, measuredAt);
      return { ...figures, measuredAt: measuredAt.toISOString() };
    });
  }

  /** The CrUX history of the domain's origin or of one page; empty when CrUX has no data for it. */
  cruxHistory(domain: string, target: 'origin' | 'url', url: string, origin: FetchOrigin): Promise<FetchOutcome<CruxPoint[]>> {
    if (!this.providers.crux.configured) return Promise.resolve({ kind: 'unconfigured' });
    return this.attempt({ domain, kind: 'crux', target: url, origin }, target, async () => {
      const history =
        target === 'origin' ? await this.originHistory(url) : await this.providers.crux.history({ url }, this.stopping.signal);
      const points = (history?.points ?? []).map((p) => ({ date: p.date, lcp: p.lcp.p75, cls: p.cls.p75, inp: p.inp.p75 }));
      await this.repository.record({ type: 'RecordCruxHistory', domain, target, url, points }, this.clock.now());
      return points;
    });
  }

  /**
   * CrUX keeps a history per exact origin. A domain is named without `www.`, but a site served on
   * `www.` has its history under that origin (the bare one only redirects there): when the bare
   * origin has none, the `www.` origin is asked.
   */
  private async originHistory(origin: string): Promise<CruxHistory | null> {
    const history = await this.providers.crux.history({ origin }, this.stopping.signal);
    if (history) return history;
    const www = wwwOriginOf(origin);
    return www === null ? null : this.providers.crux.history({ origin: www }, this.stopping.signal);
  }

  /**
   * Cuts off the provider calls under way, and answers every later question `stopped`: at a SIGTERM
   * the background work would otherwise hold the closing for a whole Lighthouse run (up to 90 s)
   * or provider timeout, past SHUTDOWN_TIMEOUT_MS. What was cut off is not recorded as a failure.
   */
  stop(): void {
    this.stopping.abort();
  }

  /**
   * One provider call per question at a time: traffic checks of a new domain sent together, or a
   * check beside the background worker, would each go upstream (and each record the answer) for the
   * same figures. A later caller shares the call under way, and its outcome. `scope` tells apart
   * questions about one target (a page's speed as the domain's home page or as a ranking page, an
   * origin's CrUX history or a page's). A question answered in the last RECENT_MS gets that answer:
   * a traffic check sent right after another reads the read models before they show its record, and
   * would go upstream again (and answer an older fetchedAt after a newer one).
   */
  private attempt<T>(
    fetch: { domain: string; kind: DomainDataKind; target: string; level?: PageSpeedLevel; origin: FetchOrigin },
    scope: string,
    run: () => Promise<T>,
  ): Promise<FetchOutcome<T>> {
    const question = JSON.stringify([fetch.domain, fetch.kind, scope, fetch.target]);
    if (this.stopping.signal.aborted) return Promise.resolve({ kind: 'stopped' });
    const shared = this.running.get(question) as Promise<FetchOutcome<T>> | undefined;
    if (shared) return shared;
    const nowMs = this.clock.now().getTime();
    for (const [asked, { atMs }] of this.recent) if (nowMs - atMs >= RECENT_MS || nowMs < atMs) this.recent.delete(asked);
    const recent = this.recent.get(question);
    if (recent) return Promise.resolve(recent.outcome as FetchOutcome<T>);
    const call = this.settle(fetch, run).finally(() => this.running.delete(question));
    this.running.set(question, call);
    void call.then((outcome) => {
      if (outcome.kind === 'fetched') this.recent.set(question, { outcome, atMs: this.clock.now().getTime() });
    });
    return call;
  }

  private async settle<T>(
    fetch: { domain: string; kind: DomainDataKind; target: string; level?: PageSpeedLevel; origin: FetchOrigin },
    run: () => Promise<T>,
  ): Promise<FetchOutcome<T>> {
    try {
      return { kind: 'fetched', value: await run() };
    } catch (error) {
      if (this.stopping.signal.aborted) return { kind: 'stopped' };
      // Provider messages name the provider and path, never the query (where the keys travel).
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`${fetch.kind} of ${fetch.target} failed: ${reason}`);
      try {
        await this.repository.record({ type: 'RecordFetchFailure', ...fetch, reason }, this.clock.now());
      } catch (recordError) {
        this.logger.warn(`could not record the failed ${fetch.kind} of ${fetch.target}: ${String(recordError)}`);
      }
      return { kind: 'failed', reason };
    }
  }
}
