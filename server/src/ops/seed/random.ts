/**
 * Deterministic randomness for the seeder: the same seed gives the same numbers on every machine
 * and Node.js version (no Math.random, no crypto randomness, integer arithmetic only).
 */

/** A 32-bit hash of a string (FNV-1a, then murmur3's finaliser so that near keys spread). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small, fast generator (mulberry32) with the draws the seeder needs. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)]!;
  }

  /** `n` different values, in random order (a partial Fisher–Yates shuffle). */
  sample<T>(values: readonly T[], n: number): T[] {
    const pool = [...values];
    const count = Math.min(n, pool.length);
    for (let i = 0; i < count; i++) {
      const j = i + this.int(pool.length - i);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, count);
  }

  /** A value drawn by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let point = this.next() * total;
    for (const [value, weight] of choices) {
      point -= weight;
      if (point < 0) return value;
    }
    return choices[choices.length - 1]![0];
  }

  /**
   * A whole number from a heavy-tailed (Lomax, i.e. shifted Pareto) distribution: most draws are
   * small, a few are very large, as vote and comment counts are in real products. Its mean is
   * scale / (shape - 1).
   */
  heavyTail(scale: number, shape: number): number {
    return Math.floor(scale * ((1 - this.next()) ** (-1 / shape) - 1));
  }
}
