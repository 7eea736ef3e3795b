import { Logger } from '@nestjs/common';
import { PlanCatalogue } from './domain/plans';
import { planOfAccount } from './plan-of-account';

describe('planOfAccount', () => {
  const plans = new PlanCatalogue([
    { id: 'free', name: 'Free', apiAccess: false, monthlySerpTokens: 0 },
    { id: 'team', name: 'Team', apiAccess: true, monthlySerpTokens: 50_000 },
  ]);
  let warnings: string[];
  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());

  it("is the catalogue's plan of the account, without a word in the log", () => {
    expect(planOfAccount(plans, { accountId: 'a1', plan: 'team' })).toEqual({
      id: 'team',
      name: 'Team',
      apiAccess: true,
      monthlySerpTokens: 50_000,
    });
    expect(warnings).toEqual([]);
  });

  it('is undefined for a plan PLANS_FILE dropped, and tells the operator once per plan', () => {
    // Given accounts on plans the catalogue no longer has
    // When the guard and the scheduler meet them, again and again
    expect(planOfAccount(plans, { accountId: 'a1', plan: 'pro' })).toBeUndefined();
    expect(planOfAccount(plans, { accountId: 'a2', plan: 'pro' })).toBeUndefined();
    expect(planOfAccount(plans, { accountId: 'a3', plan: 'agency' })).toBeUndefined();
    // then each plan is logged once, naming an account, what it stops and the plans there are
    expect(warnings).toEqual([
      'account a1 is on plan "pro", which the plan catalogue (PLANS_FILE) does not have: its API calls answer 403 planRequired and its projects get no monthly tokens until it is moved to a plan of free, team',
      'account a3 is on plan "agency", which the plan catalogue (PLANS_FILE) does not have: its API calls answer 403 planRequired and its projects get no monthly tokens until it is moved to a plan of free, team',
    ]);
  });
});
