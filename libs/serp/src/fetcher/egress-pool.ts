import type { ProxyConfig } from './serp-fetcher-config';

/** One way out to Google: a proxy, or the machine's own connection when no proxies are set. */
export interface Egress {
  /** Stable key; one browser context is kept per egress. */
  id: string;
  /** For logs and failure reasons; never holds credentials. */
  label: string;
  proxy?: ProxyConfig;
}

export const DIRECT_EGRESS: Egress = Object.freeze({ id: 'direct', label: 'direct connection' });

/**
 * Hands out egresses in turn and benches the ones Google blocked.
 *
 * The direct connection is benched too: after a captcha, asking again from the same address only
 * lengthens the block, so every check fails fast until the rest is over instead of hammering Google.
 */
export class EgressPool {
  private readonly egresses: readonly Egress[];
  private readonly restingUntil = new Map<string, number>();
  private cursor = 0;

  constructor(
    proxies: readonly ProxyConfig[],
    private readonly restMs: number,
    private readonly now: () => number,
    /** The way out when there are no proxies: the machine's connection, or a scraping API. */
    direct: Egress = DIRECT_EGRESS,
  ) {
    this.egresses =
      proxies.length === 0 ? [direct] : proxies.map((proxy, index) => ({ id: `proxy-${index + 1}`, label: `proxy ${proxy.label}`, proxy }));
  }

  get usesProxies(): boolean {
    return this.egresses.some((egress) => egress.proxy !== undefined);
  }

  get size(): number {
    return this.egresses.length;
  }

  /** The next egress in turn that is not resting (and passes `usable`, e.g. has budget left), or `undefined`. */
  next(usable: (egress: Egress) => boolean = () => true): Egress | undefined {
    for (let tried = 0; tried < this.egresses.length; tried++) {
      const egress = this.egresses[this.cursor];
      this.cursor = (this.cursor + 1) % this.egresses.length;
      if (!this.isResting(egress) && usable(egress)) return egress;
    }
    return undefined;
  }

  /** Every egress, resting or not. */
  all(): readonly Egress[] {
    return this.egresses;
  }

  /** Egresses not resting right now. */
  availableCount(): number {
    return this.egresses.filter((egress) => !this.isResting(egress)).length;
  }

  /** Benches an egress after a block; returns when it may be used again (epoch ms). */
  rest(egress: Egress): number {
    const until = this.now() + this.restMs;
    this.restingUntil.set(egress.id, until);
    return until;
  }

  /** When the first resting egress comes back (epoch ms), or `undefined` if none rests. */
  firstReturn(): number | undefined {
    const times = this.egresses.filter((egress) => this.isResting(egress)).map((egress) => this.restingUntil.get(egress.id) as number);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** When a resting egress may be used again (epoch ms), or undefined if it does not rest. */
  restEnd(egress: Egress): number | undefined {
    return this.isResting(egress) ? this.restingUntil.get(egress.id) : undefined;
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
