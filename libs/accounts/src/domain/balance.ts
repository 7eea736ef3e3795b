/**
 * The largest scrape balance an operator may set: far above any real need, and well inside the
 * integers a number holds exactly, so that charges and refunds always add up (1e300 - 1 is 1e300).
 */
export const MAX_BALANCE = 1_000_000_000;

export const isBalance = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_BALANCE;

export const BALANCE_RULE = `balance must be a whole number from 0 to ${MAX_BALANCE}`;
