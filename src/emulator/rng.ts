// The seeded PRNG (mulberry32) shared by all seeders, so the demo tenant is the same on every machine.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** 32 lower-case hex digits, like the service's GUIDs. */
  guid(): string;
  chance(p: number): boolean;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)],
    guid: () => {
      let s = '';
      for (let i = 0; i < 4; i++) s += Math.floor(next() * 0x100000000).toString(16).padStart(8, '0');
      return s;
    },
    chance: (p) => next() < p,
  };
}
