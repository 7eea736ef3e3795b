import { foldEvents } from '@rank/domain/decider';
import { deciderSpec } from '@rank/domain/testing/decider-spec';
import {
  drawOutcome,
  MonthlyTokensCommand,
  monthlyTokensDecider,
  MonthlyTokensEvent,
  monthlyTokensStreamName,
  tokenMonthOf,
} from './monthly-tokens';

const now = new Date('2026-05-01T12:00:30.000Z');
const at = now.toISOString();
const spec = deciderSpec(monthlyTokensDecider, now);

const draw = (
  projectId: string,
  slotKey: string,
  keywordCount: number,
  options: { serpTop?: 50 | 100; total?: number; refreshesPerMonth?: number } = {},
): MonthlyTokensCommand => ({
  type: 'DrawTokens',
  accountId: 'a',
  month: '2026-05',
  projectId,
  slotKey,
  keywordCount,
  serpTop: options.serpTop ?? 50,
  refreshesPerMonth: options.refreshesPerMonth ?? 30,
  total: options.total ?? 10,
});
const drawn = (projectId: string, slotKey: string, amount: number, total = 10): MonthlyTokensEvent => ({
  type: 'MonthlyTokensDrawn',
  data: { accountId: 'a', month: '2026-05', projectId, slotKey, amount, total, drawnAt: at },
});
const refused = (projectId: string, slotKey: string, needed: number, available: number, total = 10): MonthlyTokensEvent => ({
  type: 'MonthlyTokensRefused',
  data: { accountId: 'a', month: '2026-05', projectId, slotKey, needed, available, total, refusedAt: at },
});

describe('Monthly SERP-check tokens', () => {
  it("draws a slot's tokens: one per keyword", () => {
    spec
      .given([])
      .when(draw('p', '2026-05-01', 4))
      .then([drawn('p', '2026-05-01', 4)]);
  });

  it('draws two per keyword when the project scrapes 100 deep', () => {
    spec
      .given([])
      .when(draw('p', '2026-05-01', 4, { serpTop: 100 }))
      .then([drawn('p', '2026-05-01', 8)]);
  });

  it('draws up to exactly the total', () => {
    spec
      .given([drawn('p', '2026-05-01', 6)])
      .when(draw('q', '2026-05-01', 4))
      .then([drawn('q', '2026-05-01', 4)]);
  });

  it('refuses a slot that would go past the total, saying what it needed and what was left', () => {
    spec
      .given([drawn('p', '2026-05-01', 6)])
      .when(draw('p', '2026-05-02', 5))
      .then([refused('p', '2026-05-02', 5, 4)]);
  });

  it('refuses everything on a plan without tokens', () => {
    spec
      .given([])
      .when(draw('p', '2026-05-01', 1, { total: 0 }))
      .then([refused('p', '2026-05-01', 1, 0, 0)]);
  });

  it("counts nothing as available when a smaller plan's total is below what was drawn", () => {
    spec
      .given([drawn('p', '2026-05-01', 8)])
      .when(draw('p', '2026-05-02', 1, { total: 5 }))
      .then([refused('p', '2026-05-02', 1, 0, 5)]);
  });

  it('grants a slot already drawn again without drawing twice, even if the tokens ran out since', () => {
    spec
      .given([drawn('p', '2026-05-01', 6), drawn('q', '2026-05-01', 4)])
      .when(draw('p', '2026-05-01', 6))
      .then([]);
    const state = foldEvents(monthlyTokensDecider, [drawn('p', '2026-05-01', 6), drawn('q', '2026-05-01', 4)]);
    expect(drawOutcome(draw('p', '2026-05-01', 6), state)).toEqual({ kind: 'drawn', amount: 6 });
  });

  it('keeps a refused slot refused, even after a plan with more tokens', () => {
    const past = [drawn('p', '2026-05-01', 9), refused('q', '2026-05-01', 2, 1)];
    spec
      .given(past)
      .when(draw('q', '2026-05-01', 2, { total: 100 }))
      .then([]);
    expect(drawOutcome(draw('q', '2026-05-01', 2, { total: 100 }), foldEvents(monthlyTokensDecider, past))).toEqual({
      kind: 'refused',
      needed: 2,
      available: 1,
    });
  });

  it('lets the next slot draw on a plan with more tokens', () => {
    spec
      .given([drawn('p', '2026-05-01', 9), refused('p', '2026-05-02', 9, 1)])
      .when(draw('p', '2026-05-03', 9, { total: 100 }))
      .then([drawn('p', '2026-05-03', 9, 100)]);
  });

  it('tells slots apart by project and by slot key', () => {
    spec
      .given([drawn('p', '2026-05-01', 2)])
      .when(draw('q', '2026-05-01', 2))
      .then([drawn('q', '2026-05-01', 2)]);
    spec
      .given([drawn('p', '2026-05-01', 2)])
      .when(draw('p', '2026-05-02', 2))
      .then([drawn('p', '2026-05-02', 2)]);
  });

  it("draws a slot beyond the month's booked refreshes at 0 (a 31st daily check, a 5th weekly one), so a fully booked account loses none", () => {
    // Given a weekly project (4 refreshes a month booked) that has drawn 4 slots of 2 tokens, all of an 8-token total
    const weekly = { refreshesPerMonth: 4, total: 8 };
    const four = ['2026-05-01', '2026-05-08', '2026-05-15', '2026-05-22'].map((day) => drawn('p', day, 2, 8));
    // when its 5th slot of the month comes due, then it is drawn free instead of refused
    spec
      .given(four)
      .when(draw('p', '2026-05-29', 2, weekly))
      .then([drawn('p', '2026-05-29', 0, 8)]);
    // and another project's slot still pays, and is refused when nothing is left
    spec
      .given(four)
      .when(draw('q', '2026-05-29', 2, weekly))
      .then([refused('q', '2026-05-29', 2, 0, 8)]);
    // a project under its booked refreshes pays as before
    spec
      .given(four.slice(0, 3))
      .when(draw('p', '2026-05-22', 2, weekly))
      .then([drawn('p', '2026-05-22', 2, 8)]);
  });

  it('draws nothing and records nothing for a project without keywords, even with no tokens left', () => {
    spec
      .given([drawn('p', '2026-05-01', 10)])
      .when(draw('q', '2026-05-01', 0))
      .then([]);
    expect(drawOutcome(draw('q', '2026-05-01', 0), foldEvents(monthlyTokensDecider, [drawn('p', '2026-05-01', 10)]))).toEqual({
      kind: 'drawn',
      amount: 0,
    });
  });

  it('rejects a malformed command', () => {
    spec
      .given([])
      .when({ ...draw('p', '2026-05-01', 1), month: '2026-13' })
      .thenThrows('invalid', /month/);
    spec
      .given([])
      .when(draw('p', '2026-05-01', -1))
      .thenThrows('invalid', /keywordCount/);
    spec
      .given([])
      .when(draw('p', '2026-05-01', 1, { total: 1.5 }))
      .thenThrows('invalid', /total/);
  });
});

describe('tokenMonthOf', () => {
  it("is the UTC calendar month of the due time, whatever the project's zone", () => {
    // 2026-06-01 01:00 in Berlin is still May in UTC.
    expect(tokenMonthOf(new Date('2026-05-31T23:00:00.000Z'))).toBe('2026-05');
    expect(tokenMonthOf(new Date('2026-06-01T00:00:00.000Z'))).toBe('2026-06');
    expect(monthlyTokensStreamName('a', '2026-06')).toBe('tokens-a-2026-06');
  });
});
