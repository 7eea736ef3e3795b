import type { ProxyConfig } from './serp-fetcher-config';

/** One way out to Google: a proxy, or the machine's own connection when no proxies are set. */
export interface Egress {
  /** Stable key; one browser context is kept per egress. */
  id: string;
  /** For logs and failure reasons; never holds credentials. */
  label: string;
  proxy?: ProxyConfig;
}

/** Keys of `EgressPool`'s turns beside the countries' own: a search of no named country, and of a country without proxies. */
const ANY_COUNTRY = '*';
const OTHER_COUNTRY = '-';

export const DIRECT_EGRESS: Egress = Object.freeze({ id: 'direct', label: 'direct connection' });

/**
 * Hands out egresses in turn and benches the ones Google blocked.
 *
 * The direct connection is benched too: after a captcha, asking again from the same address only
 * lengthens the block, so every check fails fast until the rest is over instead of hammering Google.
 *
 * A search names its country: proxies said to be in that country serve it alone (resting or
 * not), so its page comes from an address there; without such proxies, the proxies of no country
 * serve it, and without those, every proxy (an answer from abroad beats none). Each country's
 * egresses take turns among themselves; a rest is the egress's, whichever country it served.
 */
export class EgressPool {
  private readonly egresses: readonly Egress[];
  private readonly restingUntil = new Map<string, number>();
  /** Countries some proxy is in. */
  private readonly countries: ReadonlySet<string>;
  /** The egresses serving each of `countries` (and any other, and any at all), and whose turn is next among them. */
  private readonly turns = new Map<string, { serving: readonly Egress[]; cursor: number }>();

  constructor(
    proxies: readonly ProxyConfig[],
    private readonly restMs: number,
    private readonly now: () => number,
    /** The way out when there are no proxies: the machine's connection, or a scraping API. */
    direct: Egress = DIRECT_EGRESS,
  ) {
    this.egresses =
      proxies.length === 0
        ? [direct]
        : proxies.map((proxy, index) => ({
            id: `proxy-${index + 1}`,
            label: proxy.country ? `proxy ${proxy.label} (${proxy.country})` : `proxy ${proxy.label}`,
            proxy,
          }));
    this.countries = new Set(proxies.flatMap((proxy) => (proxy.country ? [proxy.country] : [])));
  }

  get usesProxies(): boolean {
    return this.egresses.some((egress) => egress.proxy !== undefined);
  }

  /**
   * The next egress in turn that serves `country` (any, when absent), is not resting and passes
   * `usable` (e.g. has budget left), or `undefined`.
   */
  next(country?: string, usable: (egress: Egress) => boolean = () => true): Egress | undefined {
    const turn = this.turnOf(country);
    for (let tried = 0; tried < turn.serving.length; tried++) {
      const egress = turn.serving[turn.cursor];
      turn.cursor = (turn.cursor + 1) % turn.serving.length;
      if (!this.isResting(egress) && usable(egress)) return egress;
    }
    return undefined;
  }

  /** Every egress that serves `country` (every one, when absent), resting or not. */
  all(country?: string): readonly Egress[] {
    return this.turnOf(country).serving;
  }

  /** Egresses serving `country` (all, when absent) not resting right now. */
  availableCount(country?: string): number {
    return this.all(country).filter((egress) => !this.isResting(egress)).length;
  }

  /** Benches an egress after a block; returns when it may be used again (epoch ms). */
  rest(egress: Egress): number {
    const until = this.now() + this.restMs;
    this.restingUntil.set(egress.id, until);
    return until;
  }

  /** When the first resting egress serving `country` (any, when absent) comes back (epoch ms), or `undefined` if none rests. */
  firstReturn(country?: string): number | undefined {
    const times = this.all(country)
      .filter((egress) => this.isResting(egress))
      .map((egress) => this.restingUntil.get(egress.id) as number);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** When a resting egress may be used again (epoch ms), or undefined if it does not rest. */
  restEnd(egress: Egress): number | undefined {
    return this.isResting(egress) ? this.restingUntil.get(egress.id) : undefined;
  }

  /**
   * Countries with no proxy of their own share one turn over the proxies of no country (or over
   * all), so that a French check and an Italian one do not both start with the first of them.
   */
  private turnOf(country: string | undefined): { serving: readonly Egress[]; cursor: number } {
    const upper = country?.toUpperCase();
    const key = upper === undefined ? ANY_COUNTRY : this.countries.has(upper) ? upper : OTHER_COUNTRY;
    let turn = this.turns.get(key);
    if (!turn) {
      turn = { serving: this.servingOf(key), cursor: 0 };
      this.turns.set(key, turn);
    }
    return turn;
  }

  private servingOf(key: string): readonly Egress[] {
    if (key === ANY_COUNTRY) return this.egresses;
    if (key !== OTHER_COUNTRY) return this.egresses.filter((egress) => egress.proxy?.country === key);
    const placeless = this.egresses.filter((egress) => egress.proxy?.country === undefined);
    return placeless.length > 0 ? placeless : this.egresses;
  }

  isResting(egress: Egress): boolean {
    const until = this.restingUntil.get(egress.id);
    if (until === undefined) return false;
    if (this.now() >= until) {
      this.restingUntil.delete(egress.id);
      return false;
    }
    return true;
  }
}
