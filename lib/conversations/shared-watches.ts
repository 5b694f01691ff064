/**
 * One live query per key, however many watch it. A press on a conversation's row starts reading
 * its messages (`hold`): a live query reads in a task of its own, which the browser runs during
 * the press (some 100 ms), where after the click it would wait for the page to draw the click.
 * The view the click opens joins that read instead of starting its own.
 */
type Listener<T> = { next(value: T): void; fail(error: unknown): void };

interface Watch<T> {
  listeners: Set<Listener<T>>;
  /** Holds on it with no listener behind them (a preload waiting for its view). */
  holds: number;
  /** Its newest value, given at once to whoever joins. */
  last?: { value: T };
  stop(): void;
}

/** Starts watching `key`: `next` with each value, `fail` once if it fails; returns how to stop. */
export type StartWatch<T> = (key: string, next: (value: T) => void, fail: (error: unknown) => void) => () => void;

export class SharedWatches<T> {
  private readonly watches = new Map<string, Watch<T>>();

  constructor(private readonly start: StartWatch<T>) {}

  /** Watches `key`, sharing the query already running for it (its newest value comes at once, as a later one would: asynchronously). */
  watch(key: string, next: (value: T) => void, fail: (error: unknown) => void): () => void {
    const watch = this.watchOf(key);
    const listener: Listener<T> = { next, fail };
    watch.listeners.add(listener);
    const known = watch.last;
    if (known !== undefined) {
      queueMicrotask(() => {
        // (Unless it stopped, or a newer value reached it meanwhile.)
        if (watch.listeners.has(listener) && watch.last === known) next(known.value);
      });
    }
    return () => {
      if (!watch.listeners.delete(listener)) return;
      this.release(key, watch);
    };
  }

  /** Starts (or keeps) the query for `key` for `ms`, for a watcher about to come. */
  hold(key: string, ms: number): void {
    const watch = this.watchOf(key);
    watch.holds++;
    setTimeout(() => {
      watch.holds--;
      this.release(key, watch);
    }, ms);
  }

  private watchOf(key: string): Watch<T> {
    const known = this.watches.get(key);
    if (known !== undefined) return known;
    const watch: Watch<T> = { listeners: new Set(), holds: 0, stop: () => undefined };
    this.watches.set(key, watch);
    watch.stop = this.start(
      key,
      (value) => {
        watch.last = { value };
        for (const listener of [...watch.listeners]) listener.next(value);
      },
      (error) => {
        // A failed query is not kept: whoever watches next starts it again.
        if (this.watches.get(key) === watch) this.watches.delete(key);
        for (const listener of [...watch.listeners]) listener.fail(error);
      },
    );
    return watch;
  }

  private release(key: string, watch: Watch<T>): void {
    if (watch.listeners.size > 0 || watch.holds > 0) return;
    watch.stop();
    if (this.watches.get(key) === watch) this.watches.delete(key);
  }
}
