import { BUILT_IN_PLANS, parsePlanCatalogue, PlanCatalogue } from './plans';

const FREE = { id: 'free', name: 'Free', apiAccess: false, monthlySerpTokens: 0 };

describe('parsePlanCatalogue (PLANS_FILE)', () => {
  it('reads an operator catalogue, a plan without a name named by its id', () => {
    const catalogue = parsePlanCatalogue(JSON.stringify([FREE, { id: 'team', apiAccess: true, monthlySerpTokens: 50_000 }]));
    expect(catalogue.ids()).toEqual(['free', 'team']);
    expect(catalogue.find('team')).toEqual({ id: 'team', name: 'team', apiAccess: true, monthlySerpTokens: 50_000 });
  });

  it('counts a name in characters, not UTF-16 units', () => {
    const named = (name: string) => JSON.stringify([FREE, { id: 'team', name, apiAccess: true, monthlySerpTokens: 1 }]);
    expect(parsePlanCatalogue(named('⭐'.repeat(50) + '🚀'.repeat(50))).find('team')?.name).toHaveLength(150);
    expect(() => parsePlanCatalogue(named('🚀'.repeat(101)))).toThrow('plan team: "name" must be text of 1 to 100 characters');
  });

  it.each([
    ['{}', 'the plan catalogue must be a JSON array of plans'],
    ['[null]', 'plan 0 must be a JSON object'],
    ['[[]]', 'plan 0 must be a JSON object'],
    [JSON.stringify([FREE, { id: 'Team X', apiAccess: true, monthlySerpTokens: 1 }]), 'plan 1: "id" must be a short lowercase word'],
    [JSON.stringify([FREE, FREE]), 'plan free appears twice'],
    [
      JSON.stringify([FREE, { id: 'team', name: 5, apiAccess: true, monthlySerpTokens: 1 }]),
      'plan team: "name" must be text of 1 to 100 characters',
    ],
    [JSON.stringify([FREE, { id: 'team', apiAccess: 'yes', monthlySerpTokens: 1 }]), 'plan team: "apiAccess" must be true or false'],
    [
      JSON.stringify([FREE, { id: 'team', apiAccess: true, monthlySerpTokens: 1e300 }]),
      'plan team: "monthlySerpTokens" must be a whole number >= 0',
    ],
    [JSON.stringify([{ ...FREE, apiAccess: true }]), 'The plan catalogue must contain a "free" plan without API access'],
  ])('refuses %s, saying why', (json, message) => {
    expect(() => parsePlanCatalogue(json)).toThrow(message);
  });
});

describe('a new account without a plan', () => {
  it('gets pro in the built-in catalogue', () => {
    expect(new PlanCatalogue(BUILT_IN_PLANS).defaultPlanId).toBe('pro');
  });

  it('gets the first plan with API access in a catalogue without pro, and free only when nothing else is there', () => {
    const team = { id: 'team', name: 'Team', apiAccess: true, monthlySerpTokens: 50_000 };
    expect(new PlanCatalogue([FREE, team]).defaultPlanId).toBe('team');
    expect(new PlanCatalogue([FREE]).defaultPlanId).toBe('free');
    const readOnly = { id: 'viewer', name: 'Viewer', apiAccess: false, monthlySerpTokens: 0 };
    expect(new PlanCatalogue([readOnly, FREE]).defaultPlanId).toBe('free');
  });
});
