/** Injection tokens for things that are interfaces, not classes. */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const EVENT_STORE = Symbol('EVENT_STORE');
export const READ_STORE = Symbol('READ_STORE');
export const PLAN_CATALOGUE = Symbol('PLAN_CATALOGUE');
export const CLOCK = Symbol('CLOCK');
/** The process's one StateCache of aggregate states (AGGREGATE_CACHE_MB). */
export const STATE_CACHE = Symbol('STATE_CACHE');

/** Time comes from here, so that tests can move it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
