/**
 * Aggregate states kept between loads, bounded by an estimate of their size in bytes, least recently
 * used first out. A count bound is not enough: one project with 3,500 keywords weighs about a
 * megabyte, an account a few hundred bytes. One cache serves every repository of a process (stream
 * names are unique across categories).
 */
export class StateCache {
  readonly #entries = new Map<string, { value: unknown; bytes: number }>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new Error(`StateCache maxBytes must be a non-negative number, got ${maxBytes}`);
  }

  /** The estimated bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get<T>(key: string): { value: T; bytes: number } | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry as { value: T; bytes: number };
  }

  set(key: string, value: unknown, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return; // larger than the whole budget: not worth evicting everything for
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

/**
 * What a folded event adds to a state, roughly: its data as JSON in UTF-16, plus a fixed overhead
 * for the objects around it. Measured against heap growth in aggregate-repository.spec.ts.
 */
export const estimatedEventBytes = (data: unknown): number => 2 * JSON.stringify(data ?? null).length + 64;
