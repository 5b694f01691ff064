/**
 * A hybrid logical clock (Kulkarni et al., 2014): stamps that follow wall time where clocks agree,
 * never go backwards on one device, and order a change after every change its device had seen,
 * however wrong that device's clock. Stamps are strings that sort as they compare:
 * `{wall, 13 digits}-{counter, 4 digits}-{device}`.
 */
export interface Stamp {
  wall: number;
  counter: number;
  device: string;
}

/** A stamp from a clock this far ahead of ours is not believed (it would stop our clock for that long). */
export const MAX_DRIFT_MS = 24 * 60 * 60 * 1000;
const COUNTER_MAX = 9999;

export function formatStamp(stamp: Stamp): string {
  return `${String(stamp.wall).padStart(13, '0')}-${String(stamp.counter).padStart(4, '0')}-${stamp.device}`;
}

const STAMP = /^(\d{13})-(\d{4})-(.+)$/;

export function parseStamp(text: string): Stamp | undefined {
  const m = STAMP.exec(text);
  if (m === null) return undefined;
  return { wall: Number(m[1]), counter: Number(m[2]), device: m[3]! };
}

/** Negative when `a` is older than `b`. Equal stamps are the same change. */
export function compareStamps(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class HybridClock {
  private wall = 0;
  private counter = 0;

  constructor(private readonly device: string, private readonly now: () => number = Date.now) {}

  /** A stamp for a change made here now: later than every stamp this clock gave or saw. */
  tick(): string {
    const now = this.now();
    if (now > this.wall) {
      this.wall = now;
      this.counter = 0;
    } else {
      this.advanceCounter();
    }
    return formatStamp({ wall: this.wall, counter: this.counter, device: this.device });
  }

  /** Where the clock stands, to be saved (a clock restored from it never goes back). */
  position(): { wall: number; counter: number } {
    return { wall: this.wall, counter: this.counter };
  }

  /** Sets the clock to a saved position (never back). */
  restore(position: { wall: number; counter: number }): void {
    if (position.wall > this.wall || (position.wall === this.wall && position.counter > this.counter)) {
      this.wall = position.wall;
      this.counter = position.counter;
    }
  }

  /** Another device's stamp was read: what this clock stamps next comes after it. */
  observe(stamp: string): void {
    const seen = parseStamp(stamp);
    if (seen === undefined || seen.wall > this.now() + MAX_DRIFT_MS) return;
    if (seen.wall > this.wall) {
      this.wall = seen.wall;
      this.counter = seen.counter;
    } else if (seen.wall === this.wall && seen.counter > this.counter) {
      this.counter = seen.counter;
    }
  }

  private advanceCounter(): void {
    if (this.counter < COUNTER_MAX) {
      this.counter++;
    } else {
      // Ten thousand changes in one millisecond: the clock moves on by a millisecond.
      this.wall++;
      this.counter = 0;
    }
  }
}
