/** The port for a website's monthly traffic (Similarweb's total traffic and engagement). */

export interface MonthlyTraffic {
  /** `YYYY-MM` */
  month: string;
  /** Visits in the month, desktop and mobile web, worldwide, subdomains included. */
  visits: number | null;
  /** 0–1 */
  bounceRate: number | null;
  /** seconds */
  avgVisitDuration: number | null;
}

export interface DomainTraffic {
  domain: string;
  /** At most the last 12 complete months, oldest first. */
  months: MonthlyTraffic[];
}

export interface TrafficProvider {
  /** False when neither SIMILARWEB_API_KEY nor SIMILARWEB_BASE_URL is set: every call answers null. */
  readonly configured: boolean;
  /**
   * The last 12 complete months before `now` for `domain` (a bare host, `example.com`). Null when
   * the provider has no data for the domain or is not configured; throws `UpstreamError` when the
   * provider failed, or was cut off by `signal` (the service stopping).
   */
  monthlyTraffic(domain: string, now: Date, signal?: AbortSignal): Promise<DomainTraffic | null>;
}
