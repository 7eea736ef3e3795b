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
  /**
   * Failed tries of the current background round since the last success: a trigger's fetch starts a
   * round, each retry adds to it; a request's failure leaves it alone (it neither spends the
   * background retries nor stands in for them).
   */
  round: number;
}

export interface DomainDataState {
  fetches: ReadonlyMap<string, FetchRecord>;
}

/**
 * The key of one fetch in the state: its kind and what it fetched (the domain, or a URL), and for a
 * page speed its level. A home page is measured at both levels, as the domain's snapshot and, when it
 * ranks, as a ranking page: before, the snapshot counted as the page's fresh measurement, so a
 * ranking home page was never measured as a page and pages-pagespeed left it out.
 */
export const fetchKey = (kind: DomainDataKind, target: string, level?: PageSpeedLevel) =>
  kind === 'pagespeed' && level === 'page' ? `${kind} page ${target}` : `${kind} ${target}`;

export const fetchRecordOf = (state: DomainDataState, kind: DomainDataKind, target: string, level?: PageSpeedLevel): FetchRecord =>
  state.fetches.get(fetchKey(kind, target, level)) ?? NEVER_FETCHED;

const NEVER_FETCHED: FetchRecord = { lastSuccessAt: null, failures: 0, round: 0 };

/** The round a failure of this origin makes: none for a request's. */
function roundAfter(record: FetchRecord, origin: FetchOrigin): number | undefined {
  switch (origin) {
    case 'request':
      return undefined;
    case 'background':
      return 1;
    case 'retry':
      return record.round + 1;
    default:
      return assertNever(origin);
  }
}

const succeededAt = (at: string): FetchRecord => ({ lastSuccessAt: Date.parse(at), failures: 0, round: 0 });

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
        const record = fetchRecordOf(state, command.kind, command.target, command.level);
        const attempt = record.failures + 1;
        const round = roundAfter(record, command.origin);
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
              ...(round === undefined ? {} : { round }),
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
        return withFetch(state, fetchKey('traffic', event.data.domain), succeededAt(event.data.fetchedAt));
      case 'DomainPageSpeedMeasured':
        return withFetch(state, fetchKey('pagespeed', event.data.url, event.data.level), succeededAt(event.data.measuredAt));
      case 'DomainCruxHistoryFetched':
        return withFetch(state, fetchKey('crux', event.data.url), succeededAt(event.data.fetchedAt));
      case 'DomainDataFetchFailed': {
        const key = fetchKey(event.data.kind, event.data.target, event.data.level);
        const before = state.fetches.get(key) ?? NEVER_FETCHED;
        // A failure from before rounds: its attempt was its round, as the retries then counted.
        const round = event.data.origin === 'request' ? before.round : (event.data.round ?? event.data.attempt);
        return withFetch(state, key, { ...before, failures: before.failures + 1, round });
      }
      default:
        return assertNever(event);
    }
  },
};
