/**
 * A seeded PRNG (mulberry32): the same seed gives the same data set on every run, so figures from
 * two runs compare like for like, while the data still looks random to ClickHouse's compression.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** `count` random bytes as lowercase hex. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, '0');
    return out;
  }
}
