import { checkCost, SerpDepth } from '@rank/projects/domain/project-settings';
import { assertNever, invalid } from '@rank/domain/domain-error';
import { Decider } from '@rank/domain/decider';
import { eventTypes } from '@rank/domain/domain-event';
import { STREAM_CATEGORIES } from '@rank/domain/stream-categories';

/**
 * An account's monthly SERP-check tokens (`capacity.total`, from its plan), as scheduled checks draw
 * them: stream `tokens-<accountId>-<YYYY-MM>`, one per UTC calendar month, so a new month starts at
 * zero without any reset event. Every slot of a project is decided here once: drawn or refused.
 * Racing schedulers append with the same expected revision, so the first decision for a slot is the
 * only one, and asking again (a scheduler that crashed between drawing and requesting the slot)
 * gives that decision back without drawing twice.
 */
export type MonthlyTokensEvent =
  | {
      type: 'MonthlyTokensDrawn';
      data: { accountId: string; month: string; projectId: string; slotKey: string; amount: number; total: number; drawnAt: string };
    }
  | {
      /** Not enough tokens left for the slot: it is skipped, and stays skipped for the rest of the month. */
      type: 'MonthlyTokensRefused';
      data: {
        accountId: string;
        month: string;
        projectId: string;
        slotKey: string;
        needed: number;
        available: number;
        total: number;
        refusedAt: string;
      };
    };

export const MONTHLY_TOKENS_EVENT_TYPES = eventTypes<MonthlyTokensEvent>()(['MonthlyTokensDrawn', 'MonthlyTokensRefused']);

/**
 * Draws a slot's tokens: every keyword of the project at its depth (`slotTokenCost`), against
 * `total`, the plan's monthly tokens read at the time of the draw. `refreshesPerMonth` is what
 * `capacity.booked` counts of the project's frequency (30 a month daily, 4 weekly, …): a month
 * with more due days than that (a 31st daily check, a 5th weekly one) gets the extra slots free,
 * so an account whose booked tokens fit its total never has a slot refused for the calendar.
 */
export type MonthlyTokensCommand = {
  type: 'DrawTokens';
  accountId: string;
  month: string;
  projectId: string;
  slotKey: string;
  keywordCount: number;
  serpTop: SerpDepth;
  refreshesPerMonth: number;
  total: number;
};

/** What a slot got from the month's tokens. */
export type SlotTokens = { kind: 'drawn'; amount: number } | { kind: 'refused'; needed: number; available: number };

interface SlotDecision {
  projectId: string;
  slotKey: string;
  tokens: SlotTokens;
}

/** Newest first; each state shares the older list, so folding a month of decisions stays linear. */
type DecisionList = { decision: SlotDecision; older: DecisionList } | null;

export interface MonthlyTokensState {
  /** Tokens drawn so far this month. */
  drawn: number;
  decisions: DecisionList;
}

export const monthlyTokensStreamName = STREAM_CATEGORIES.tokens;

/** The month whose tokens a slot draws on: the UTC calendar month (`YYYY-MM`) of its due time. */
export const tokenMonthOf = (dueAt: Date) => dueAt.toISOString().slice(0, 7);

/**
 * A slot's key in the ledger: its local day and the zone it is a day of. After a time-zone change
 * the same date is another day, a new slot for the schedule; keyed by the date alone it was handed
 * the old zone's decision (refused: the day skipped after an upgrade; drawn: the day run unpaid).
 */
export const tokenSlotKey = (day: string, timeZone: string) => `${day}@${timeZone}`;

/** Tokens a scheduled check of a project costs: the on-demand cost rule, for every keyword. */
export const slotTokenCost = (keywordCount: number, serpTop: SerpDepth) => keywordCount * checkCost(serpTop);

/** The decision recorded for a slot, if any. */
export function slotDecision(state: MonthlyTokensState, projectId: string, slotKey: string): SlotTokens | undefined {
  for (let node = state.decisions; node; node = node.older) {
    if (node.decision.projectId === projectId && node.decision.slotKey === slotKey) return node.decision.tokens;
  }
  return undefined;
}

/** The project's slots this month that were paid for (drawn at more than 0). */
function paidSlots(state: MonthlyTokensState, projectId: string): number {
  let count = 0;
  for (let node = state.decisions; node; node = node.older) {
    const { decision } = node;
    if (decision.projectId === projectId && decision.tokens.kind === 'drawn' && decision.tokens.amount > 0) count++;
  }
  return count;
}

/**
 * What a `DrawTokens` command got, read from the state after it was handled. A slot that costs
 * nothing (a project without keywords) is drawn at 0 without being recorded.
 */
export const drawOutcome = (command: MonthlyTokensCommand, state: MonthlyTokensState): SlotTokens =>
  slotDecision(state, command.projectId, command.slotKey) ?? { kind: 'drawn', amount: 0 };

const isCount = (n: number) => Number.isInteger(n) && n >= 0;

export function decideMonthlyTokens(command: MonthlyTokensCommand, state: MonthlyTokensState, now: Date): MonthlyTokensEvent[] {
  switch (command.type) {
    case 'DrawTokens': {
      const { accountId, month, projectId, slotKey, keywordCount, serpTop, refreshesPerMonth, total } = command;
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw invalid(`month must be YYYY-MM (got "${month}")`);
      if (!isCount(keywordCount)) throw invalid(`keywordCount must be a whole number >= 0 (got ${keywordCount})`);
      if (!isCount(total)) throw invalid(`total must be a whole number >= 0 (got ${total})`);
      if (slotDecision(state, projectId, slotKey)) return [];
      const cost = slotTokenCost(keywordCount, serpTop);
      if (cost === 0) return [];
      // Beyond the month's booked refreshes a slot is free, and recorded so that it is counted.
      const amount = paidSlots(state, projectId) >= refreshesPerMonth ? 0 : cost;
      const available = Math.max(0, total - state.drawn);
      if (amount > available) {
        return [
          {
            type: 'MonthlyTokensRefused',
            data: { accountId, month, projectId, slotKey, needed: amount, available, total, refusedAt: now.toISOString() },
          },
        ];
      }
      return [{ type: 'MonthlyTokensDrawn', data: { accountId, month, projectId, slotKey, amount, total, drawnAt: now.toISOString() } }];
    }
    default:
      return assertNever(command.type);
  }
}

export function evolveMonthlyTokens(state: MonthlyTokensState, event: MonthlyTokensEvent): MonthlyTokensState {
  switch (event.type) {
    case 'MonthlyTokensDrawn': {
      const { projectId, slotKey, amount } = event.data;
      return {
        drawn: state.drawn + amount,
        decisions: { decision: { projectId, slotKey, tokens: { kind: 'drawn', amount } }, older: state.decisions },
      };
    }
    case 'MonthlyTokensRefused': {
      const { projectId, slotKey, needed, available } = event.data;
      return {
        drawn: state.drawn,
        decisions: { decision: { projectId, slotKey, tokens: { kind: 'refused', needed, available } }, older: state.decisions },
      };
    }
    default:
      return assertNever(event);
  }
}

export const monthlyTokensDecider: Decider<MonthlyTokensCommand, MonthlyTokensEvent, MonthlyTokensState> = {
  decide: decideMonthlyTokens,
  evolve: evolveMonthlyTokens,
  initialState: () => ({ drawn: 0, decisions: null }),
  eventTypes: MONTHLY_TOKENS_EVENT_TYPES,
};
