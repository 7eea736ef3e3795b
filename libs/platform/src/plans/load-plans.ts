import { readFileSync } from 'node:fs';
import { BUILT_IN_PLANS, parsePlanCatalogue, PlanCatalogue } from '@rank/accounts/domain/plans';
import { StartRefusal } from '../start-refusal';

/** The operator's catalogue from PLANS_FILE, else the built-in one. A bad file stops the start. */
export function loadPlans(plansFile: string | undefined): PlanCatalogue {
  if (plansFile === undefined) return new PlanCatalogue(BUILT_IN_PLANS);
  try {
    return parsePlanCatalogue(readFileSync(plansFile, 'utf8'));
  } catch (error) {
    throw new StartRefusal(`PLANS_FILE ${plansFile}: ${(error as Error).message}`);
  }
}
