/**
 * When sync runs (issue 31): on start, a minute after a change, on "Sync now", and on a periodic
 * alarm; one round at a time (a trigger during a round asks for one more after it); after a
 * failure, again later with exponential backoff, except for failures only the user can mend
 * (a refused password, a wrong passphrase, a full disk), which pause sync until the settings
 * change or the user asks. Its status is a code with parameters, for the UI to word.
 */
import { SyncCryptoError } from './crypto';
import { SyncStorageError, type SyncStorageFailure } from './storage';

export const CHANGE_DELAY_MS = 60_000;
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 30 * 60_000;

/** What the user must mend: sync waits for them instead of trying again. */
const PAUSING: ReadonlySet<string> = new Set<SyncStorageFailure | string>(['unauthorized', 'forbidden', 'missing', 'insufficient_storage', 'wrong_passphrase', 'bad_key_check', 'no_key', 'erased', 'passphrase_changed']);

/** How far a round is: files of changes sent (`up`), read (`down`) or re-encrypted after a passphrase change (`rekey`), of how many. */
export interface SyncProgress {
  phase: 'up' | 'down' | 'rekey';
  done: number;
  total: number;
}

export type SyncStatus =
  | { state: 'idle'; lastSyncedAt?: number; /** Files of other devices this round could not read (tampered, missing, rolled back): read again next round. */ unreadable?: number }
  | { state: 'syncing'; lastSyncedAt?: number; progress?: SyncProgress }
  | { state: 'retrying'; lastSyncedAt?: number; code: string; address?: string; status?: number; retryAt: number }
  | { state: 'paused'; lastSyncedAt?: number; code: string; address?: string; status?: number };

/**
 * Whether a round is bringing more than one file of other devices' changes down (a device
 * catching up): pages then read their conversation list once it ends, not after each write.
 */
export function bringsManyDown(status: SyncStatus | { state: 'off' }): boolean {
  return status.state === 'syncing' && status.progress?.phase === 'down' && status.progress.total > 1;
}

export interface SchedulerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: SchedulerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class SyncScheduler {
  private running = false;
  private again = false;
  private timer: unknown;
  private failures = 0;
  private current: SyncStatus = { state: 'idle' };
  private settled: Promise<void> = Promise.resolve();

  /** Resolves once no round is running (the one running now, if any, has ended). */
  idle(): Promise<void> {
    return this.settled;
  }

  constructor(private readonly round: () => Promise<void | { unreadable: number }>, private readonly onStatus: (status: SyncStatus) => void = () => undefined, private readonly clock: SchedulerClock = realClock) {}

  get status(): SyncStatus {
    return this.current;
  }

  /** The browser started, or sync was just set up. */
  start(): void {
    void this.run();
  }

  /** Something changed locally: a round in a minute (changes meanwhile join it). */
  changed(): void {
    if (this.current.state === 'paused') return;
    if (this.timer === undefined) this.later(CHANGE_DELAY_MS);
  }

  /** The periodic alarm. */
  alarm(): void {
    if (this.current.state === 'paused' || this.current.state === 'retrying') return;
    void this.run();
  }

  /** "Sync now", or the settings changed: runs even when paused. */
  now(): void {
    this.failures = 0;
    void this.run();
  }

  private later(ms: number): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, ms);
  }

  private set(status: SyncStatus): void {
    this.current = status;
    this.onStatus(status);
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.running = true;
    let release = (): void => undefined;
    this.settled = new Promise((resolve) => {
      release = resolve;
    });
    const lastSyncedAt = this.current.lastSyncedAt;
    this.set({ state: 'syncing', ...(lastSyncedAt === undefined ? {} : { lastSyncedAt }) });
    try {
      const done = await this.round();
      this.failures = 0;
      const unreadable = done === undefined ? 0 : done.unreadable;
      this.set({ state: 'idle', lastSyncedAt: this.clock.now(), ...(unreadable > 0 ? { unreadable } : {}) });
    } catch (error) {
      const code = error instanceof SyncStorageError || error instanceof SyncCryptoError ? error.code : 'unexpected';
      const where = error instanceof SyncStorageError ? { address: error.address, ...(error.status === undefined ? {} : { status: error.status }) } : {};
      const since = lastSyncedAt === undefined ? {} : { lastSyncedAt };
      if (PAUSING.has(code)) {
        this.set({ state: 'paused', code, ...where, ...since });
      } else {
        const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures);
        this.failures++;
        this.set({ state: 'retrying', code, ...where, ...since, retryAt: this.clock.now() + wait });
        this.later(wait);
      }
    } finally {
      this.running = false;
      release();
    }
    if (this.again) {
      this.again = false;
      if (this.current.state === 'idle') void this.run();
    }
  }
}
