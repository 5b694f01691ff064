import { describe, expect, it } from 'vitest';
import { SyncCryptoError } from '@/lib/sync/crypto';
import { CHANGE_DELAY_MS, FIRST_RETRY_MS, MAX_RETRY_MS, SyncScheduler, type SchedulerClock, type SyncStatus } from '@/lib/sync/scheduler';
import { SyncStorageError } from '@/lib/sync/storage';

/** A clock the test moves by hand. */
function manualClock() {
  let now = 1_000_000;
  const timers = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  const clock: SchedulerClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      timers.set(next, { at: now + ms, run });
      return next++;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  const advance = async (ms: number): Promise<void> => {
    now += ms;
    for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.run();
      await settle();
    }
  };
  return { clock, advance, pending: () => [...timers.values()].map((t) => t.at - now) };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('when sync runs', () => {
  it('on start, a minute after changes (several changes, one round), on the alarm; one round at a time', async () => {
    const { clock, advance } = manualClock();
    let rounds = 0;
    let release: () => void = () => undefined;
    const scheduler = new SyncScheduler(() => {
      rounds++;
      return new Promise<void>((r) => {
        release = r;
      });
    }, undefined, clock);
    scheduler.start();
    expect(rounds).toBe(1);
    // A trigger during a round asks for one more after it, not a second at once.
    scheduler.alarm();
    scheduler.now();
    expect(rounds).toBe(1);
    release();
    await settle();
    await settle();
    expect(rounds).toBe(2);
    release();
    await settle();
    scheduler.changed();
    scheduler.changed();
    await advance(CHANGE_DELAY_MS - 1);
    expect(rounds).toBe(2);
    await advance(1);
    expect(rounds).toBe(3);
    release();
    await settle();
    expect(scheduler.status).toEqual({ state: 'idle', lastSyncedAt: clock.now() });
  });

  it('a server down is tried again later and later (capped); a refused password pauses until the user acts', async () => {
    const { clock, advance, pending } = manualClock();
    const statuses: SyncStatus[] = [];
    let fail: Error | undefined = new SyncStorageError('unreachable', 'https://dav.example.com/sync/');
    let rounds = 0;
    const scheduler = new SyncScheduler(async () => {
      rounds++;
      if (fail !== undefined) throw fail;
    }, (s) => statuses.push(s), clock);
    scheduler.start();
    await settle();
    expect(scheduler.status).toMatchObject({ state: 'retrying', code: 'unreachable', address: 'https://dav.example.com/sync/' });
    expect(pending()).toEqual([FIRST_RETRY_MS]);
    await advance(FIRST_RETRY_MS);
    expect(pending()).toEqual([FIRST_RETRY_MS * 2]);
    for (let i = 0; i < 10; i++) await advance(pending()[0]!);
    expect(pending()).toEqual([MAX_RETRY_MS]);
    // The alarm does not add rounds while it waits to retry.
    const before = rounds;
    scheduler.alarm();
    await settle();
    expect(rounds).toBe(before);

    fail = new SyncStorageError('unauthorized', 'https://dav.example.com/sync/', 401);
    await advance(MAX_RETRY_MS);
    expect(scheduler.status).toEqual({ state: 'paused', code: 'unauthorized', address: 'https://dav.example.com/sync/', status: 401 });
    expect(pending()).toEqual([]);
    scheduler.changed();
    scheduler.alarm();
    await settle();
    expect(pending()).toEqual([]);
    // The user mends the password and asks: it runs.
    fail = undefined;
    scheduler.now();
    await settle();
    expect(scheduler.status.state).toBe('idle');
    expect(statuses.some((s) => s.state === 'syncing')).toBe(true);
  });

  it('a wrong passphrase pauses too, with its code', async () => {
    const scheduler = new SyncScheduler(() => Promise.reject(new SyncCryptoError('wrong_passphrase')), undefined, manualClock().clock);
    scheduler.start();
    await settle();
    expect(scheduler.status).toEqual({ state: 'paused', code: 'wrong_passphrase' });
  });

  it('a round that could not read some files says how many (they are read again next round)', async () => {
    const { clock } = manualClock();
    const scheduler = new SyncScheduler(async () => ({ unreadable: 2 }), undefined, clock);
    scheduler.start();
    await settle();
    expect(scheduler.status).toMatchObject({ state: 'idle', unreadable: 2 });
  });
});
