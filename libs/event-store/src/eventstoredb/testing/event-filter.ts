/**
 * Server-side `$all` filters, as the Streams `Read` and the PersistentSubscriptions `Create` requests
 * describe them: on the stream name or on the event type, by prefixes or by a regular expression.
 * Like the server (`EventFilter.StreamName.Prefixes` / `.Regex`), a non-empty regex wins over the
 * prefixes, prefixes compare ordinally, and a regex matches anywhere unless anchored (.NET `IsMatch`
 * and JavaScript `test` agree on that for the patterns clients send).
 */
import type { LogRecord } from './transaction-log';

export interface EventFilter {
  readonly description: string;
  matches(record: LogRecord): boolean;
}

interface Expression {
  getRegex(): string;
  getPrefixList(): string[];
}

/** The shape both `ReadReq.Options.FilterOptions` and `CreateReq.AllOptions.FilterOptions` share. */
export interface FilterOptionsMessage {
  hasStreamIdentifier(): boolean;
  getStreamIdentifier(): Expression | undefined;
  hasEventType(): boolean;
  getEventType(): Expression | undefined;
  getMax(): number;
  hasCount(): boolean;
  getCheckpointintervalmultiplier(): number;
}

export function eventFilterFrom(options: FilterOptionsMessage): EventFilter {
  const filter = options.hasStreamIdentifier()
    ? expressionFilter('stream', options.getStreamIdentifier()!, (record) => record.streamName)
    : options.hasEventType()
      ? expressionFilter('event type', options.getEventType()!, (record) => record.eventType)
      : undefined;
  if (!filter) throw new TypeError('a filter must be on the stream name or on the event type');
  // Every `$all` filter is combined with the server's default one (`EventFilter.DefaultAllFilter`).
  return { description: filter.description, matches: (record) => allowedByDefaultAllFilter(record) && filter.matches(record) };
}

/**
 * The server's `DefaultAllFilter`: filtered `$all` reads and subscriptions, and every persistent
 * subscription to `$all`, never see the persistent subscriptions' own checkpoint and parked streams
 * (nor `$epoch-information`, which the double does not write), whatever the filter says.
 */
export function allowedByDefaultAllFilter(record: LogRecord): boolean {
  const stream = record.streamName;
  if (!stream.startsWith('$')) return true;
  if (stream === '$epoch-information') return false;
  return !(stream.startsWith('$persistentsubscription-$all::') && (stream.endsWith('-checkpoint') || stream.endsWith('-parked')));
}

/**
 * How many records a filtered subscription reads between two checkpoint messages: the search window
 * (`max`, 32 when the client asks for `count`) times the checkpoint interval multiplier.
 */
export function checkpointIntervalOf(options: FilterOptionsMessage): number {
  const window = options.hasCount() ? 32 : Math.max(1, options.getMax());
  return window * Math.max(1, options.getCheckpointintervalmultiplier());
}

function expressionFilter(on: string, expression: Expression, field: (record: LogRecord) => string): EventFilter {
  const regex = expression.getRegex();
  if (regex) {
    const pattern = new RegExp(regex);
    return { description: `${on} regex ${regex}`, matches: (record) => pattern.test(field(record)) };
  }
  const prefixes = expression.getPrefixList();
  return {
    description: `${on} prefixes ${prefixes.join(', ')}`,
    matches: (record) => prefixes.some((prefix) => field(record).startsWith(prefix)),
  };
}
