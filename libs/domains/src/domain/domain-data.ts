import type { Decider } from '@rank/domain/decider';
import { assertNever } from '@rank/domain/domain-error';
import {
  CruxPoint,
  DOMAIN_DATA_EVENT_TYPES,
  DomainDataEvent,
  DomainDataKind,
  FetchOrigin,
  PageSpeedFigures,
  PageSpeedLevel,
  TrafficMonth,
} from './domain-data.events';

/**
 * The decider of one domain's stream. Fetching happens outside (providers are slow and fail); the
 * decider records what came back, and keeps per fetch (kind and target) when it last succeeded and
 * how many times it has failed since, so that failures are numbered for backoff and a worker can
 * tell whether a record is fresh without a read model.
 */
export type DomainDataCommand =
  | { type: 'RecordTraffic'; domain: string; months: TrafficMonth[] }
  | { type: 'RecordPageSpeed'; domain: string; url: string; level: PageSpeedLevel; figures: PageSpeedFigures }
  | { type: 'RecordCruxHistory'; domain: string; target: 'origin' | 'url'; url: string; points: CruxPoint[] }
  | {
      type: 'RecordFetchFailure';
      domain: string;
      kind: DomainDataKind;
      target: string;
      level?: PageSpeedLevel;
      reason: string;
      origin: FetchOrigin;
    };

export interface FetchRecord {
  /** Epoch ms of the last success; null when it never succeeded. */
  lastSuccessAt: number | null;
  /** Failures since the last success. */
  failures: number;
}

export interface DomainDataState {
  fetches: ReadonlyMap<string, FetchRecord>;
}

/** The key of one fetch in the state: its kind and what it fetched (the domain, or a URL). */
export const fetchKey = (kind: DomainDataKind, target: string) => `${kind} ${target}`;

export const fetchRecordOf = (state: DomainDataState, kind: DomainDataKind, target: string): FetchRecord =>
  state.fetches.get(fetchKey(kind, target)) ?? { lastSuccessAt: null, failures: 0 };

function withFetch(state: DomainDataState, key: string, record: FetchRecord): DomainDataState {
  return { fetches: new Map(state.fetches).set(key, record) };
}

/** Failure reasons are shown to operators; long provider bodies are cut. */
const MAX_REASON = 300;

export const domainDataDecider: Decider<DomainDataCommand, DomainDataEvent, DomainDataState> = {
  eventTypes: DOMAIN_DATA_EVENT_TYPES,
  initialState: () => ({ fetches: new Map() }),

  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.type) {
      case 'RecordTraffic':
        return [{ type: 'DomainTrafficFetched', data: { domain: command.domain, fetchedAt: at, months: command.months } }];
      case 'RecordPageSpeed':
        return [
          {
            type: 'DomainPageSpeedMeasured',
            data: { domain: command.domain, url: command.url, level: command.level, measuredAt: at, figures: command.figures },
          },
        ];
      case 'RecordCruxHistory':
        return [
          {
            type: 'DomainCruxHistoryFetched',
            data: { domain: command.domain, target: command.target, url: command.url, fetchedAt: at, points: command.points },
          },
        ];
      case 'RecordFetchFailure': {
        const attempt = fetchRecordOf(state, command.kind, command.target).failures + 1;
        return [
          {
            type: 'DomainDataFetchFailed',
            data: {
              domain: command.domain,
              kind: command.kind,
              target: command.target,
              ...(command.level ? { level: command.level } : {}),
              reason: command.reason.slice(0, MAX_REASON),
              failedAt: at,
              attempt,
              origin: command.origin,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DomainTrafficFetched':
        return withFetch(state, fetchKey('traffic', event.data.domain), { lastSuccessAt: Date.parse(event.data.fetchedAt), failures: 0 });
      case 'DomainPageSpeedMeasured':
        return withFetch(state, fetchKey('pagespeed', event.data.url), { lastSuccessAt: Date.parse(event.data.measuredAt), failures: 0 });
      case 'DomainCruxHistoryFetched':
        return withFetch(state, fetchKey('crux', event.data.url), { lastSuccessAt: Date.parse(event.data.fetchedAt), failures: 0 });
      case 'DomainDataFetchFailed': {
        const key = fetchKey(event.data.kind, event.data.target);
        const before = state.fetches.get(key) ?? { lastSuccessAt: null, failures: 0 };
        return withFetch(state, key, { ...before, failures: before.failures + 1 });
      }
      default:
        return assertNever(event);
    }
  },
};
