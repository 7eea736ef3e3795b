import { characterCount } from '@rank/domain/text-length';

/**
 * The plan catalogue. A plan decides API access and the monthly SERP-check tokens
 * (`capacity.total`); every other limit is the spec's and the same for all paid plans.
 * Operators replace or extend it with a JSON file (`PLANS_FILE`), see the README.
 */
export interface Plan {
  id: string;
  name: string;
  /** False for the Free plan: every API call answers 403 planRequired. */
  apiAccess: boolean;
  monthlySerpTokens: number;
}

export const BUILT_IN_PLANS: readonly Plan[] = [
  { id: 'free', name: 'Free', apiAccess: false, monthlySerpTokens: 0 },
  { id: 'starter', name: 'Starter', apiAccess: true, monthlySerpTokens: 30_000 },
  { id: 'pro', name: 'Pro', apiAccess: true, monthlySerpTokens: 150_000 },
  { id: 'agency', name: 'Agency', apiAccess: true, monthlySerpTokens: 1_000_000 },
];

/** A new account's plan when the operator names none, if the catalogue has it. */
const PREFERRED_DEFAULT_PLAN_ID = 'pro';

export class PlanCatalogue {
  private readonly byId: ReadonlyMap<string, Plan>;
  /**
   * A new account's plan when the operator names none: `pro`, or, in a catalogue without it, the
   * first plan with API access (an account that cannot call the API is rarely what was meant), or
   * `free` when no plan has any.
   */
  readonly defaultPlanId: string;

  constructor(plans: readonly Plan[]) {
    if (!plans.some((p) => p.id === 'free' && !p.apiAccess)) {
      throw new Error('The plan catalogue must contain a "free" plan without API access');
    }
    this.byId = new Map(plans.map((p) => [p.id, p]));
    this.defaultPlanId = this.byId.has(PREFERRED_DEFAULT_PLAN_ID)
      ? PREFERRED_DEFAULT_PLAN_ID
      : (plans.find((p) => p.apiAccess)?.id ?? 'free');
  }

  find(planId: string): Plan | undefined {
    return this.byId.get(planId);
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }
}

/** Reads an operator's catalogue: a JSON array of plans. Throws with a message naming the fault. */
export function parsePlanCatalogue(json: string): PlanCatalogue {
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value)) throw new Error('the plan catalogue must be a JSON array of plans');
  const seen = new Set<string>();
  const plans = value.map((entry: unknown, index): Plan => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`plan ${index} must be a JSON object`);
    const p = entry as Partial<Record<keyof Plan, unknown>>;
    if (typeof p.id !== 'string' || !/^[a-z0-9_-]{1,40}$/.test(p.id)) throw new Error(`plan ${index}: "id" must be a short lowercase word`);
    if (seen.has(p.id)) throw new Error(`plan ${p.id} appears twice`);
    seen.add(p.id);
    if (p.name !== undefined && (typeof p.name !== 'string' || p.name.trim() === '' || characterCount(p.name) > 100)) {
      throw new Error(`plan ${p.id}: "name" must be text of 1 to 100 characters`);
    }
    if (typeof p.apiAccess !== 'boolean') throw new Error(`plan ${p.id}: "apiAccess" must be true or false`);
    if (!Number.isSafeInteger(p.monthlySerpTokens) || (p.monthlySerpTokens as number) < 0) {
      throw new Error(`plan ${p.id}: "monthlySerpTokens" must be a whole number >= 0`);
    }
    return {
      id: p.id,
      name: (p.name as string | undefined) ?? p.id,
      apiAccess: p.apiAccess,
      monthlySerpTokens: p.monthlySerpTokens as number,
    };
  });
  return new PlanCatalogue(plans);
}
