import type { Decider } from '@rank/domain/decider';
import { eventTypes } from '@rank/domain/domain-event';

/**
 * The shared allowance of 400 new domains a day (spec: Limits). A domain counts once, when it is
 * first looked up; every newly counted domain re-arms the 24-hour window, and the count clears when a
 * whole window passes with no new domain. Pure: the state is folded from lookups, time passed in.
 */
export const NEW_DOMAINS_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface NewDomainAllowanceState {
  domains: ReadonlySet<string>;
  /** When the last newly counted domain was counted; null when nothing is counted. */
  lastCountedAt: number | null;
}

export const emptyAllowance = (): NewDomainAllowanceState => ({ domains: new Set(), lastCountedAt: null });

function current(state: NewDomainAllowanceState, now: number): NewDomainAllowanceState {
  return state.lastCountedAt !== null && now - state.lastCountedAt >= NEW_DOMAINS_WINDOW_MS ? emptyAllowance() : state;
}

export function countDomain(state: NewDomainAllowanceState, domain: string, now: number): NewDomainAllowanceState {
  const live = current(state, now);
  if (live.domains.has(domain)) return live;
  return { domains: new Set([...live.domains, domain]), lastCountedAt: now };
}

export function allowanceUsage(state: NewDomainAllowanceState, limit: number, now: number) {
  const live = current(state, now);
  const used = live.domains.size;
  return {
    limit,
    used,
    remaining: Math.max(0, limit - used),
    resetsInSeconds: live.lastCountedAt === null ? null : Math.ceil((live.lastCountedAt + NEW_DOMAINS_WINDOW_MS - now) / 1000),
  };
}

/**
 * The allowance as an aggregate, one stream per account (`new-domains-<accountId>`), so that every
 * API replica counts into the same bucket and the 401st domain is refused exactly once: two replicas
 * counting at the same moment conflict on the stream's revision and the loser decides again.
 */
export type NewDomainAllowanceEvent = { type: 'NewDomainsCounted'; data: { domains: string[]; countedAt: string } };
export const NEW_DOMAIN_ALLOWANCE_EVENT_TYPES = eventTypes<NewDomainAllowanceEvent>()(['NewDomainsCounted']);

/** Counts the domains a request looks up without a cached record; all of them or none. */
export type CountNewDomains = { type: 'CountNewDomains'; domains: readonly string[]; limit: number };

/** The allowance cannot take the request's new domains: nothing is counted and nothing may be fetched. */
export class NewDomainAllowanceExhausted extends Error {
  constructor(
    readonly limit: number,
    /** Seconds until the newest counted domain is 24 h old and the allowance clears. */
    readonly retryAfterSeconds: number,
    /** New domains the request would count, and how many the allowance has left: a request that does not fit is not an allowance used up. */
    fit: { asked: number; left: number },
  ) {
    const later = `cached domains can still be read, new ones again in ${retryAfterSeconds} seconds`;
    super(
      fit.left === 0
        ? `The allowance of ${limit} new domains per 24 hours is used up; ${later}`
        : `This request looks up ${fit.asked} new domains, but the allowance of ${limit} new domains per 24 hours has ${fit.left} left; ask for fewer, or ${later}`,
    );
    this.name = 'NewDomainAllowanceExhausted';
  }
}

export const newDomainAllowanceDecider: Decider<CountNewDomains, NewDomainAllowanceEvent, NewDomainAllowanceState> = {
  eventTypes: NEW_DOMAIN_ALLOWANCE_EVENT_TYPES,
  initialState: emptyAllowance,
  decide(command, state, now) {
    const live = current(state, now.getTime());
    const fresh = [...new Set(command.domains)].filter((domain) => !live.domains.has(domain));
    if (fresh.length === 0) return [];
    if (live.domains.size + fresh.length > command.limit) {
      const usage = allowanceUsage(live, command.limit, now.getTime());
      throw new NewDomainAllowanceExhausted(command.limit, Math.max(1, usage.resetsInSeconds ?? 1), {
        asked: fresh.length,
        left: Math.max(0, command.limit - live.domains.size),
      });
    }
    return [{ type: 'NewDomainsCounted', data: { domains: fresh, countedAt: now.toISOString() } }];
  },
  evolve(state, event) {
    const at = Date.parse(event.data.countedAt);
    return event.data.domains.reduce((next, domain) => countDomain(next, domain, at), state);
  },
};
