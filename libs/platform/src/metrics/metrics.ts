import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read of a projection runner when they are scraped. */
export interface WatchedProjection {
  lag(): Promise<{ events: number; seconds: number }>;
  /** Events set aside since the process started. */
  readonly deadLetters: number;
}

/** A scrape reads the lag once even though two gauges show it, and at most once a second. */
const LAG_MEMO_MS = 1_000;

/**
 * The process's metrics, in a registry of its own: several apps in one process (the tests) never
 * share or reset a counter, and prom-client's global registry is not used. Names start with `rank_`.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'rank_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, and how long they took',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly checks = new Counter({
    name: 'rank_checks_total',
    help: 'Checks settled by this scraper: outcome completed, failed, retrying (a scheduled check tried again later the same day) or dropped (project gone); reason for failures and retries',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  readonly blockPages = new Counter({
    name: 'rank_block_pages_total',
    help: 'Pages on which Google blocked us (captcha, 403, 429), by egress: a proxy host or "direct"',
    labelNames: ['egress'] as const,
    registers: [this.registry],
  });

  readonly checksQueued = new Counter({
    name: 'rank_checks_queued_total',
    help: 'Checks queued for the scrapers by the work dispatcher; minus rank_checks_total over all scrapers, the checks waiting',
    registers: [this.registry],
  });

  readonly checksInFlight = new Gauge({
    name: 'rank_checks_in_flight',
    help: 'Checks this scraper is running now',
    registers: [this.registry],
  });

  readonly pageLoad = new Histogram({
    name: 'rank_scraper_page_load_seconds',
    help: 'One result page loaded in the browser, by outcome (loaded, timeout, load-error, browser-closed)',
    labelNames: ['outcome'] as const,
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    registers: [this.registry],
  });

  readonly browserLaunches = new Counter({
    name: 'rank_browser_launches_total',
    help: "The scraper's browser launches: outcome started or failed; relaunch true after the one before went away (crashed, killed)",
    labelNames: ['outcome', 'relaunch'] as const,
    registers: [this.registry],
  });

  readonly eventStoreAppend = new Histogram({
    name: 'rank_event_store_append_seconds',
    help: 'Appends to the event store, by outcome (ok, conflict, error)',
    labelNames: ['outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'rank_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (limiter "admin-token": wrong operator tokens from one address)',
    labelNames: ['limiter'] as const,
    registers: [this.registry],
  });

  private readonly projections = new Map<string, WatchedProjection>();
  private lagMemo: { at: number; lags: Promise<Map<string, { events: number; seconds: number }>> } | undefined;

  constructor() {
    const lagGauge = (name: string, help: string, pick: 'events' | 'seconds') => {
      const gauge: Gauge<'projection'> = new Gauge({
        name,
        help,
        labelNames: ['projection'] as const,
        registers: [this.registry],
        collect: async () => {
          gauge.reset();
          for (const [projection, lag] of await this.projectionLags()) gauge.set({ projection }, lag[pick]);
        },
      });
    };
    lagGauge('rank_projection_lag_events', 'Events in the log the projection has not written yet (counted up to 100,000)', 'events');
    lagGauge('rank_projection_lag_seconds', 'Age of the oldest event the projection has not written yet; 0 when caught up', 'seconds');
    const deadLetters: Gauge<'projection'> = new Gauge({
      name: 'rank_projection_dead_letters',
      help: 'Events the projection set aside in projection_dead_letters since the process started',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      collect: () => {
        deadLetters.reset();
        for (const [projection, watched] of this.projections) deadLetters.set({ projection }, watched.deadLetters);
      },
    });
  }

  /** Shows a projection runner's lag and dead letters at every scrape. */
  watchProjection(name: string, projection: WatchedProjection): void {
    this.projections.set(name, projection);
  }

  /** The Prometheus text exposition of every metric, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  private projectionLags(): Promise<Map<string, { events: number; seconds: number }>> {
    const now = Date.now();
    if (!this.lagMemo || now - this.lagMemo.at > LAG_MEMO_MS) {
      const read = async () => {
        const lags = new Map<string, { events: number; seconds: number }>();
        for (const [name, projection] of this.projections) {
          // A store that cannot be read leaves the projection out of this scrape rather than failing it.
          const lag = await projection.lag().catch(() => undefined);
          if (lag) lags.set(name, lag);
        }
        return lags;
      };
      this.lagMemo = { at: now, lags: read() };
    }
    return this.lagMemo.lags;
  }
}

/** Seconds since a `process.hrtime.bigint()` reading. */
export const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;
