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
