import { allowanceUsage, countDomain, emptyAllowance, NEW_DOMAINS_WINDOW_MS } from './new-domain-allowance';

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
