/** The snapshot rules of position-history, apart from I/O so that they can be tested on their own. */

/** Results shown: the top 30 (spec, Limits), plus the project's own result when it ranks deeper. */
export const SNAPSHOT_DEPTH = 30;

export interface SerpItem {
  position: number;
  title: string;
  domain: string;
  url: string;
}

export type MovementType = 'up' | 'down' | 'same' | 'new' | 'gone';
export interface Movement {
  type: MovementType;
  value: number | null;
}

export interface ComparedItem extends SerpItem {
  previousPosition: number | null;
  movement: Movement;
}

export interface DroppedDomain {
  domain: string;
  previousPosition: number;
  movement: Movement;
}

/** Up/down carry the number of places moved (always positive), same carries 0, new carries null. */
export function movementOf(position: number, previousPosition: number | null): Movement {
  if (previousPosition === null) return { type: 'new', value: null };
  if (previousPosition === position) return { type: 'same', value: 0 };
  return previousPosition > position
    ? { type: 'up', value: previousPosition - position }
    : { type: 'down', value: position - previousPosition };
}

/** Each domain's positions in a list, best first. */
function positionsByDomain(items: readonly SerpItem[]): Map<string, number[]> {
  const byDomain = new Map<string, number[]>();
  for (const item of [...items].sort((a, b) => a.position - b.position)) {
    byDomain.set(item.domain, [...(byDomain.get(item.domain) ?? []), item.position]);
  }
  return byDomain;
}

/**
 * Compares a check's results with the previous successful check of the same keyword, by domain.
 * A domain that appears several times (a site's indented second result) is matched occurrence by
 * occurrence: its first result now with its first result then, its second with its second; an extra
 * occurrence is `new`. Previous positions are looked up in the previous check's whole depth, so a
 * domain climbing from 42 to 12 shows "up 30" rather than "new". `droppedDomains` are the domains of
 * the previous top 30 that have no result in the list shown now, best previous position first.
 *
 * `previous` null means there is no previous successful check: every result is `new` and nothing
 * is dropped (the caller reports `hasPreviousData: false`).
 */
export function compareSnapshots(
  current: readonly SerpItem[],
  previous: readonly SerpItem[] | null,
  ownPosition: number,
): { resultList: ComparedItem[]; droppedDomains: DroppedDomain[] } {
  const shown = [...current]
    .sort((a, b) => a.position - b.position)
    .filter((item) => item.position <= SNAPSHOT_DEPTH || (ownPosition > SNAPSHOT_DEPTH && item.position === ownPosition));
  const before = positionsByDomain(previous ?? []);
  const seen = new Map<string, number>();
  const resultList = shown.map((item) => {
    const occurrence = seen.get(item.domain) ?? 0;
    seen.set(item.domain, occurrence + 1);
    const previousPosition = before.get(item.domain)?.[occurrence] ?? null;
    return { ...item, previousPosition, movement: movementOf(item.position, previousPosition) };
  });

  const droppedDomains: DroppedDomain[] = [];
  for (const [domain, positions] of before) {
    const best = positions[0]!;
    if (best > SNAPSHOT_DEPTH || seen.has(domain)) continue;
    droppedDomains.push({ domain, previousPosition: best, movement: { type: 'gone', value: null } });
  }
  droppedDomains.sort((a, b) => a.previousPosition - b.previousPosition);
  return { resultList, droppedDomains };
}
