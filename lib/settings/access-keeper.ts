/**
 * Least privilege over time: host access to a gateway's origin is given back as soon as no saved
 * profile uses it and no open connection form is working on it. The background owns one keeper;
 * it reconciles when the settings change, when a form lets go of an address, and when it starts.
 * Framework-free: the browser's side (granted patterns, giving one back) is passed in.
 */
import { patternsToRelease } from './origins';

export interface AccessKeeperDeps {
  /** The saved profiles' addresses; undefined when the settings cannot be read (then nothing is given back). */
  savedAddresses(): Promise<readonly string[] | undefined>;
  /** The host patterns granted now. */
  granted(): Promise<readonly string[]>;
  /** Gives one pattern back; rejects when the browser refuses (access the manifest itself grants). */
  release(pattern: string): Promise<unknown>;
}

export class AccessKeeper {
  private readonly holds = new Map<symbol, string>();
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly deps: AccessKeeperDeps) {}

  /**
   * An address a connection form is working on (tested, or about to be saved): kept until the
   * returned function lets go of it, which reconciles.
   */
  hold(address: string): () => void {
    const key = Symbol(address);
    this.holds.set(key, address);
    return () => {
      if (this.holds.delete(key)) void this.reconcile();
    };
  }

  /**
   * Gives back what nothing uses. One pass at a time: a call during a pass asks for one more
   * after it (the settings or the holds may have changed meanwhile), and resolves when that one ends.
   */
  reconcile(): Promise<void> {
    this.again = true;
    this.running ??= this.passes();
    return this.running;
  }

  private async passes(): Promise<void> {
    try {
      while (this.again) {
        this.again = false;
        await this.pass().catch(() => undefined);
      }
    } finally {
      // In the same step as the last check of `again`: a call in between would find no pass to wait on.
      this.running = undefined;
    }
  }

  private async pass(): Promise<void> {
    // What was held when the settings are read counts too: a form lets go as soon as its save
    // lands, which may be after this read and before the grants are looked at.
    const heldBefore = [...this.holds.values()];
    const saved = await this.deps.savedAddresses();
    if (saved === undefined) return;
    const granted = await this.deps.granted();
    // One at a time: the manifest's own grants refuse, and must not take the others with them.
    // The holds are read again before each: a form that took hold of an address meanwhile keeps it.
    for (const pattern of granted) {
      if (patternsToRelease([pattern], [...saved, ...heldBefore, ...this.holds.values()]).length === 0) continue;
      await this.deps.release(pattern).catch(() => undefined);
    }
  }
}
