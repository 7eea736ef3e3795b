/**
 * An agent reads an answer whole, within a context window: a year of keyword updates for a large
 * project is megabytes. Answers above the limit are cut, and say so, with a hint how to narrow the query.
 */
export const MAX_ANSWER_CHARS = 60_000;

export interface Cut {
  /** Where the cut collection is, e.g. `data` or `data.<keywordId>.updates`. */
  path: string;
  kept: number;
  total: number;
}

export interface FittedJson {
  value: unknown;
  cuts: Cut[];
}

interface Collection {
  keys: string[];
  size: number;
  /** The serialized length of each entry (an object's with its key), in order: one per entry. */
  entrySizes: number[];
  parent: unknown[] | Record<string, unknown>;
}

/**
 * Shrinks a JSON value under `limit` characters by keeping the first entries of its largest
 * collections (arrays, or objects keyed by id), one at a time, largest first. Order is kept: the
 * REST answer's own sorting decides what is shown.
 */
export function fitJson(value: unknown, limit = MAX_ANSWER_CHARS): FittedJson {
  let current: unknown = structuredClone(value);
  const cuts = new Map<string, Cut>();
  for (let round = 0; round < 100; round++) {
    const collections: Collection[] = [];
    const size = measure(current, [], collections);
    if (size <= limit) break;
    const cuttable = collections.filter((c) => c.entrySizes.length > 1).sort((a, b) => b.size - a.size);
    // A list (its size spread over its entries), not a wrapper such as {success, data}: a collection
    // mostly made of one entry is cut inside that entry, in a later round.
    const largest = cuttable.find((c) => largestOf(c.entrySizes) * 2 < c.size) ?? cuttable[0];
    if (!largest) break;
    const keep = entriesThatFit(largest, largest.size - (size - limit));
    const path = largest.keys.join('.');
    cuts.set(path, { path, kept: keep, total: cuts.get(path)?.total ?? largest.entrySizes.length });
    current = replaceAt(current, largest.keys, shorten(largest.parent, keep));
  }
  return { value: current, cuts: [...cuts.values()] };
}

/**
 * How many first entries of a collection keep it within `budget` characters: as many as fit, at
 * least one (a single entry too large is cut inside in a later round) and at most all but one.
 */
function entriesThatFit(collection: Collection, budget: number): number {
  let size = 2;
  let keep = 0;
  for (const entry of collection.entrySizes) {
    const next = size + entry + (keep > 0 ? 1 : 0);
    if (next > budget) break;
    size = next;
    keep += 1;
  }
  return Math.max(1, Math.min(collection.entrySizes.length - 1, keep));
}

// Not Math.max(...sizes): a list of a million entries would overflow the call's arguments.
const largestOf = (sizes: number[]) => sizes.reduce((a, b) => (b > a ? b : a), 0);

/** Cuts plain text (CSV, Markdown) at a line boundary under the limit. */
export function fitText(text: string, limit = MAX_ANSWER_CHARS): { text: string; cut: boolean } {
  if (text.length <= limit) return { text, cut: false };
  const slice = text.slice(0, limit);
  const lastLine = slice.lastIndexOf('\n');
  return { text: lastLine > 0 ? slice.slice(0, lastLine + 1) : slice, cut: true };
}

function shorten(collection: unknown[] | Record<string, unknown>, keep: number): unknown {
  if (Array.isArray(collection)) return collection.slice(0, keep);
  return Object.fromEntries(Object.entries(collection).slice(0, keep));
}

/** The serialized length of a value (as JSON.stringify writes it), noting every collection with its size. */
function measure(value: unknown, keys: string[], collections: Collection[]): number {
  if (Array.isArray(value)) {
    let size = 2 + Math.max(0, value.length - 1);
    const entrySizes: number[] = [];
    for (let i = 0; i < value.length; i++) {
      const entry = measure(value[i], [...keys, String(i)], collections);
      size += entry;
      entrySizes.push(entry);
    }
    collections.push({ keys, size, entrySizes, parent: value });
    return size;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    let size = 2 + Math.max(0, entries.length - 1);
    const entrySizes: number[] = [];
    for (const [key, v] of entries) {
      const entry = JSON.stringify(key).length + 1 + measure(v, [...keys, key], collections);
      size += entry;
      entrySizes.push(entry);
    }
    collections.push({
      keys,
      size,
      entrySizes,
      parent: value as Record<string, unknown>,
    });
    return size;
  }
  return (JSON.stringify(value) ?? 'null').length;
}

function replaceAt(root: unknown, keys: string[], replacement: unknown): unknown {
  if (keys.length === 0) return replacement;
  let node = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]!] = replacement;
  return root;
}
