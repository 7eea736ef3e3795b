import { foldEvents } from '@rank/domain/decider';
import { deciderSpec } from '@rank/domain/testing/decider-spec';
import {
  allowanceUsage,
  countDomain,
  emptyAllowance,
  NEW_DOMAINS_WINDOW_MS,
  NewDomainAllowanceExhausted,
  newDomainAllowanceDecider,
} from './new-domain-allowance';

describe('New-domain allowance', () => {
  const t0 = Date.parse('2026-01-01T00:00:00Z');

  it('given nothing counted, it reports the full allowance and no reset time', () => {
    expect(allowanceUsage(emptyAllowance(), 400, t0)).toEqual({ limit: 400, used: 0, remaining: 400, resetsInSeconds: null });
  });

  it('counts each domain once, and each new domain re-arms the 24 h window', () => {
    let state = countDomain(emptyAllowance(), 'a.com', t0);
    state = countDomain(state, 'a.com', t0 + 1000);
    expect(allowanceUsage(state, 400, t0 + 1000)).toMatchObject({ used: 1, resetsInSeconds: 86_399 });
    state = countDomain(state, 'b.com', t0 + 3_600_000);
    expect(allowanceUsage(state, 400, t0 + 3_600_000)).toMatchObject({ used: 2, remaining: 398, resetsInSeconds: 86_400 });
  });

  it('clears once a whole window passes without a new domain', () => {
    const state = countDomain(emptyAllowance(), 'a.com', t0);
    expect(allowanceUsage(state, 400, t0 + NEW_DOMAINS_WINDOW_MS)).toEqual({ limit: 400, used: 0, remaining: 400, resetsInSeconds: null });
  });
});

describe('New-domain allowance decider', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const counted = (domains: string[], at: string) => ({ type: 'NewDomainsCounted' as const, data: { domains, countedAt: at } });
  const spec = deciderSpec(newDomainAllowanceDecider, now);

  it('counts only the domains not yet counted in the window, each once', () => {
    spec
      .given([counted(['a.com'], '2026-01-01T11:00:00.000Z')])
      .when({ type: 'CountNewDomains', domains: ['a.com', 'b.com', 'b.com'], limit: 3 })
      .then([counted(['b.com'], now.toISOString())]);
    spec
      .given([counted(['a.com'], '2026-01-01T11:00:00.000Z')])
      .when({ type: 'CountNewDomains', domains: ['a.com'], limit: 1 })
      .then([]);
  });

  it('refuses a request whose new domains do not all fit, counting none, with the time until the window clears', () => {
    let caught: unknown;
    try {
      newDomainAllowanceDecider.decide(
        { type: 'CountNewDomains', domains: ['c.com', 'd.com'], limit: 3 },
        foldEvents(newDomainAllowanceDecider, [counted(['a.com', 'b.com'], '2026-01-01T11:00:00.000Z')]),
        now,
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NewDomainAllowanceExhausted);
    expect((caught as NewDomainAllowanceExhausted).retryAfterSeconds).toBe(23 * 3600);
    // One place is left: the message says the request does not fit, not that the allowance is used up
    expect((caught as Error).message).toBe(
      'This request looks up 2 new domains, but the allowance of 3 new domains per 24 hours has 1 left; ask for fewer, or cached domains can still be read, new ones again in 82800 seconds',
    );
  });

  it('says the allowance is used up when no place is left', () => {
    expect(() =>
      newDomainAllowanceDecider.decide(
        { type: 'CountNewDomains', domains: ['d.com'], limit: 3 },
        foldEvents(newDomainAllowanceDecider, [counted(['a.com', 'b.com', 'c.com'], '2026-01-01T11:00:00.000Z')]),
        now,
      ),
    ).toThrow('The allowance of 3 new domains per 24 hours is used up; cached domains can still be read, new ones again in 82800 seconds');
  });

  it('starts afresh once 24 h pass after the newest counted domain', () => {
    spec
      .given([counted(['a.com', 'b.com'], '2025-12-31T11:59:59.000Z')])
      .when({ type: 'CountNewDomains', domains: ['c.com', 'a.com'], limit: 2 })
      .then([counted(['c.com', 'a.com'], now.toISOString())]);
  });
});
