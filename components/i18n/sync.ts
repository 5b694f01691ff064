/**
 * Words for sync's codes (issue 31): lib/sync returns a failure's code with its step, address and
 * HTTP status, and the background's status as a state with a code; this turns them into the
 * current language, for the options page's Sync section and the chat page's indicator.
 */
import type { Words } from '@/lib/i18n/messages';
import { ownValue } from '@/lib/shared/own-keys';
import type { SyncFailure } from '@/lib/sync/setup';
import { MIN_PASSPHRASE_LENGTH } from '@/lib/sync/limits';
import type { SyncServiceStatus } from '@/lib/sync/service';
import type { ProbeStep } from '@/lib/sync/storage';

type Service = 'webdav' | 's3';

/** Every code a sync failure or status may carry (storage, crypto, setup), and its words. */
const CODES = ['unreachable', 'unauthorized', 'forbidden', 'missing', 'insufficient_storage', 'server', 'not_storage', 'wrong_passphrase', 'bad_key_check', 'tampered', 'not_sealed', 'no_key', 'erased', 'passphrase_changed', 'old_passphrase', 'reused_passphrase', 'empty_passphrase', 'short_passphrase', 'unexpected'] as const;
type Code = (typeof CODES)[number];
const KNOWN: Readonly<Record<string, Code>> = Object.fromEntries(CODES.map((code) => [code, code]));

/** A code from storage as one we word: anything else is `unexpected`. */
function known(code: string): Code {
  return ownValue(KNOWN, code) ?? 'unexpected';
}

/** The failures that mean the passphrase must be entered again on this device. */
export function needsPassphrase(code: string): boolean {
  return code === 'no_key' || code === 'wrong_passphrase' || code === 'bad_key_check' || code === 'passphrase_changed';
}

export function serviceName(w: Words, service: Service): string {
  return w.t(`sync.serviceName.${service}`);
}

const STEPS: Record<ProbeStep, number> = { list: 1, write: 2, read: 3, remove: 4 };

/** Which step of "Test sync" stopped, in a sentence. */
export function syncStepText(w: Words, step: ProbeStep): string {
  return w.t('sync.step.failed', { n: STEPS[step], step: w.t(`sync.step.${step}`) });
}

/**
 * What went wrong, what it was at and what to do: a whole sentence, for "Test sync", "Start
 * syncing" and "Erase" (the status code, or "no HTTP status" where the server gave none).
 */
export function syncFailureText(w: Words, failure: SyncFailure, service: Service): string {
  const code = known(failure.code);
  const status = failure.status === undefined ? w.t('sync.noStatus') : String(failure.status);
  const params = { status, address: failure.address ?? '', service: serviceName(w, service), detail: failure.detail ?? failure.code, min: MIN_PASSPHRASE_LENGTH };
  if (code === 'unexpected') return failure.address === undefined ? w.t('sync.failure.unexpected', params) : w.t('sync.failure.unexpectedAt', params);
  return w.t(`sync.failure.${code}`, params);
}

/** Why sync stopped, in a few words (inside a status line). */
export function syncReason(w: Words, code: string): string {
  return w.t(`sync.reason.${known(code)}`);
}

function where(w: Words, status: { status?: number; address?: string }): string | undefined {
  const parts = [status.status === undefined ? undefined : String(status.status), status.address].filter((p) => p !== undefined && p !== '');
  return parts.length === 0 ? undefined : parts.join(w.t('sync.status.separator'));
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** "just now", "2 minutes ago" ("2 min. ago" short), "yesterday": in the interface's language. */
export function syncedWhen(w: Words, at: number, now: number, style: 'long' | 'short' = 'long'): string {
  const key = `${w.locale} ${style}`;
  let format = relativeFormats.get(key);
  if (format === undefined) {
    format = new Intl.RelativeTimeFormat(w.locale, { numeric: 'auto', style });
    relativeFormats.set(key, format);
  }
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return w.t('sync.status.justNow');
  if (minutes < 60) return format.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return format.format(-hours, 'hour');
  return format.format(-Math.floor(hours / 24), 'day');
}

function clockTime(w: Words, at: number): string {
  return new Intl.DateTimeFormat(w.locale, { hour: 'numeric', minute: '2-digit' }).format(at);
}

/** The background's status in a sentence: "Synced 2 minutes ago", "Sync paused: … (401, https://…)". */
export function syncStatusText(w: Words, status: SyncServiceStatus, now: number): string {
  switch (status.state) {
    case 'syncing':
      return status.progress === undefined ? w.t('sync.status.syncing') : w.t(status.progress.phase === 'up' ? 'sync.status.sending' : status.progress.phase === 'rekey' ? 'sync.status.reencrypting' : 'sync.status.receiving', { done: status.progress.done.toLocaleString(w.locale), total: status.progress.total.toLocaleString(w.locale) });
    case 'paused': {
      const at = where(w, status);
      const reason = syncReason(w, status.code);
      return at === undefined ? w.t('sync.status.paused', { reason }) : w.t('sync.status.pausedWhere', { reason, where: at });
    }
    case 'retrying': {
      const at = where(w, status);
      const params = { reason: syncReason(w, status.code), time: clockTime(w, status.retryAt) };
      return at === undefined ? w.t('sync.status.retrying', params) : w.t('sync.status.retryingWhere', { ...params, where: at });
    }
    case 'idle':
      return status.lastSyncedAt === undefined ? w.t('sync.status.never') : w.t('sync.status.synced', { when: syncedWhen(w, status.lastSyncedAt, now) });
    // Set up, and the background has not said anything yet.
    case 'off':
      return w.t('sync.status.never');
  }
}

/** The same in a few words, for the chat page's indicator. */
export function syncStatusShort(w: Words, status: SyncServiceStatus, now: number): string {
  switch (status.state) {
    case 'syncing':
      return w.t('sync.status.syncing');
    case 'paused':
      return w.t('sync.short.paused');
    case 'retrying':
      return w.t('sync.short.retrying');
    case 'idle':
      return status.lastSyncedAt === undefined ? w.t('sync.status.never') : w.t('sync.status.synced', { when: syncedWhen(w, status.lastSyncedAt, now, 'short') });
    case 'off':
      return w.t('sync.status.never');
  }
}
