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
  node: unknown[] | Record<string, unknown>;
  /** The serialized length of each entry (an object's with its key), in order. */
  entrySizes: number[];
  size: number;
}

/**
 * Shrinks a JSON value under `limit` characters by keeping the first entries of a large collection
 * (an array, or an object keyed by id), one collection a round. Order is kept: the REST answer's own
 * sorting decides what is shown. The input is not changed: each cut copies only the containers on
 * its way from the root.
 */
export function fitJson(value: unknown, limit = MAX_ANSWER_CHARS): FittedJson {
  let current: unknown = value;
  const cuts = new Map<string, Cut>();
  for (let round = 0; round < 100; round++) {
    const { size, collection } = survey(current);
    if (size <= limit || !collection) break;
    const keep = entriesThatFit(collection.entrySizes, collection.size - (size - limit));
    const path = collection.keys.join('.');
    cuts.set(path, { path, kept: keep, total: cuts.get(path)?.total ?? collection.entrySizes.length });
    current = replaceAt(current, collection.keys, shorten(collection.node, keep));
  }
  return { value: current, cuts: [...cuts.values()] };
}

/**
 * The answer's serialized length, and the collection a round cuts: going down from the root into the largest entry, the first
 * collection of several entries none of which holds half of it (a list, its size spread over its
 * entries, not a wrapper such as `{success, data}`), else the first of several entries met. Sizes
 * come from JSON.stringify, entry by entry: an answer of tens of megabytes is serialized a few
 * times natively rather than walked node by node in script, since the service waits while it is.
 */
function survey(root: unknown): { size: number; collection: Collection | undefined } {
  let rootSize: number | undefined;
  let first: Collection | undefined;
  let node = root;
  const keys: string[] = [];
  while (node !== null && typeof node === 'object') {
    const container = node as unknown[] | Record<string, unknown>;
    const entries = Array.isArray(container)
      ? container.map((entry, index) => [String(index), entry, serializedSize(entry)] as const)
      : Object.entries(container)
          .filter(([, entry]) => entry !== undefined)
          .map(([key, entry]) => [key, entry, JSON.stringify(key).length + 1 + serializedSize(entry)] as const);
    if (entries.length === 0) break;
    const entrySizes = entries.map(([, , size]) => size);
    const size = 2 + entries.length - 1 + entrySizes.reduce((a, b) => a + b, 0);
    rootSize ??= size;
    let largest = 0;
    for (let i = 1; i < entrySizes.length; i++) if (entrySizes[i]! > entrySizes[largest]!) largest = i;
    if (entries.length > 1) {
      const collection = { keys: [...keys], node: container, entrySizes, size };
      if (entrySizes[largest]! * 2 < size) return { size: rootSize, collection };
      first ??= collection;
    }
    keys.push(entries[largest]![0]);
    node = entries[largest]![1];
  }
  return { size: rootSize ?? serializedSize(root), collection: first };
}

/** The length of a value as JSON.stringify writes it (undefined as `null`, as inside a list). */
const serializedSize = (value: unknown): number => (JSON.stringify(value) ?? 'null').length;

/**
 * How many first entries of a collection keep it within `budget` characters: as many as fit, at
 * least one (a single entry too large is cut inside in a later round) and at most all but one.
 */
function entriesThatFit(entrySizes: number[], budget: number): number {
  let size = 2;
  let keep = 0;
  for (const entry of entrySizes) {
    const next = size + entry + (keep > 0 ? 1 : 0);
    if (next > budget) break;
    size = next;
    keep += 1;
  }
  return Math.max(1, Math.min(entrySizes.length - 1, keep));
}

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

/** The value with the node at `keys` replaced, each container on the way copied (the input stays as it was). */
function replaceAt(node: unknown, keys: string[], replacement: unknown, depth = 0): unknown {
  if (depth === keys.length) return replacement;
  const key = keys[depth]!;
  if (Array.isArray(node)) {
    const copy = node.slice();
    copy[Number(key)] = replaceAt(copy[Number(key)], keys, replacement, depth + 1);
    return copy;
  }
  const record = node as Record<string, unknown>;
  return { ...record, [key]: replaceAt(record[key], keys, replacement, depth + 1) };
}
