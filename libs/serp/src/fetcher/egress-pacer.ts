/**
 * Keeps the requests of each egress apart: a minimum interval between two requests to Google from
 * one address (with jitter, so the rhythm does not look like a machine's), and an optional budget of
 * requests an hour. Google's "unusual traffic" page is triggered by rate from one address far more
 * than by volume spread out, so the interval is the cheapest protection a self-hoster has.
 */
export interface PacingSettings {
  /** Minimum time between two requests from one egress (`SCRAPER_MIN_INTERVAL_MS`); 0 turns pacing off. */
  minIntervalMs: number;
  /** Requests one egress may make in any hour (`SCRAPER_HOURLY_BUDGET`); 0 means no budget. */
  hourlyBudget: number;
}

/** The interval is stretched by up to half of itself at random: never shorter than the minimum. */
export const JITTER_SHARE = 0.5;
const HOUR_MS = 3_600_000;

export class EgressPacer {
  /** Per egress: when its next request may start (reservations already handed out included). */
  private readonly nextFreeAt = new Map<string, number>();
  /** Per egress: start times of its requests in the last hour, oldest first (for the budget). */
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly settings: PacingSettings,
    private readonly now: () => number,
    private readonly random: () => number,
  ) {}

  /**
   * Reserves the egress's next turn and says how long to wait for it (ms). Reserving at once,
   * before the wait, is what keeps two checks sharing an egress from both taking the same turn.
   */
  reserve(egressId: string): number {
    const now = this.now();
    const at = Math.max(now, this.nextFreeAt.get(egressId) ?? 0);
    const gap = this.settings.minIntervalMs * (1 + JITTER_SHARE * this.random());
    this.nextFreeAt.set(egressId, at + gap);
    if (this.settings.hourlyBudget > 0) this.windowOf(egressId, now).push(at);
    return at - now;
  }

  /** Whether the egress may make another request within its hourly budget now. */
  hasBudget(egressId: string): boolean {
    if (this.settings.hourlyBudget <= 0) return true;
    return this.windowOf(egressId, this.now()).length < this.settings.hourlyBudget;
  }

  /** When a budget-spent egress may make its next request (epoch ms), or undefined if it may now. */
  budgetBackAt(egressId: string): number | undefined {
    if (this.hasBudget(egressId)) return undefined;
    const window = this.windowOf(egressId, this.now());
    return window[window.length - this.settings.hourlyBudget] + HOUR_MS;
  }

  private windowOf(egressId: string, now: number): number[] {
    const times = (this.recent.get(egressId) ?? []).filter((at) => at > now - HOUR_MS);
    this.recent.set(egressId, times);
    return times;
  }
}
