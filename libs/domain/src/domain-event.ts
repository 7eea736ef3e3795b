/** The shape of every event a decider decides: a type name and its data. */
export interface DomainEvent {
  type: string;
  data: object;
}

/**
 * What the domain needs of an event read back from the log: structurally the event store's
 * `RecordedEvent` (libs/event-store), which the domain does not import.
 */
export interface StoredEvent {
  readonly type: string;
  readonly data: object;
  readonly streamName: string;
}

/**
 * A context's list of its event types, checked against its events union at compile time: a type
 * the list misses is an error (`missing`), and so is a name the union does not have.
 *
 *   export const WORKSPACE_EVENT_TYPES = eventTypes<WorkspaceEvent>()(['FolderCreated', …]);
 */
export function eventTypes<E extends DomainEvent>() {
  return <const L extends readonly E['type'][]>(types: L & MissingNone<E['type'], L[number]>): readonly E['type'][] => types;
}

type MissingNone<All extends string, Listed extends string> = [Exclude<All, Listed>] extends [never]
  ? unknown
  : { missing: Exclude<All, Listed> };

/**
 * The typed event of a stored one, when its type is one of `types`; undefined otherwise (another
 * context's event, or one this code does not know). Routing is by type alone: type names are unique
 * across the contexts. The data is not checked: the log holds only what this service's deciders
 * wrote, so a known type vouches for the shape of its data.
 *
 *   const event = parseEvent<WorkspaceEvent>(recorded, WORKSPACE_EVENT_TYPES);
 */
export function parseEvent<E extends DomainEvent>(stored: Pick<StoredEvent, 'type' | 'data'>, types: readonly E['type'][]): E | undefined {
  if (!types.includes(stored.type)) return undefined;
  return { type: stored.type, data: stored.data } as E;
}
