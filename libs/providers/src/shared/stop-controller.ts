import { setMaxListeners } from 'node:events';

/**
 * The abort controller of a long-lived part's stop (the domain-data fetcher, the volume fetcher, the
 * suggestions runner). Its one signal goes to every provider call under way, each of which listens
 * to it while it runs (fetchJson removes its listener when done): more than Node's default of 10 at
 * once is normal there, not the leak Node's warning would report.
 */
export function stopController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
