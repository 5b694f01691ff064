import { Cloud, CloudAlert, CloudCheck, CloudOff, KeyRound, LoaderCircle, LockOpen, RefreshCw, Trash2, Unplug } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { ConfirmDialog, Dialog } from '@/components/ui/Dialog';
import { Field } from '@/components/ui/Field';
import { Input } from '@/components/ui/Input';
import { Switch } from '@/components/ui/Switch';
import { useNow } from '@/components/hooks/useNow';
import { useWords } from '@/components/i18n/words';
import { needsPassphrase, serviceName, syncedWhen, syncFailureText, syncStatusText } from '@/components/i18n/sync';
import { useSync, type SyncSummary } from '@/components/stores/sync';
import { askBackground } from '@/lib/protocol/background.adapter';
import { storageFor, type SyncConfig } from '@/lib/sync/config';
import type { SyncServiceStatus } from '@/lib/sync/service';
import { changeSyncPassphrase, eraseSyncData, publishSyncKeyCheck, unlockSync, type SyncFailure } from '@/lib/sync/setup';
import { loadSyncConfig, loadSyncKey, saveSyncConfig, saveSyncKey, stopSyncHere } from '@/lib/sync/sync.adapter';
import type { SyncKeyring } from '@/lib/sync/crypto';
import type { SyncStorage } from '@/lib/sync/storage';
import { Section } from './Section';
import { SyncSetup } from './SyncSetup';

/** What happened last in this section, said above it until the next action. */
type Note = { ok: true; text: 'erased' | 'stopped' | 'changed' | 'unlocked' } | { ok: false; text: 'nowFailed' };
/** The notes that are news once sync is off (the others, while it is on). */
const OFF_NOTES: readonly Note['text'][] = ['erased', 'stopped'];

type KeyStep = (storage: SyncStorage, had: SyncKeyring | undefined) => Promise<{ ok: true; key: SyncKeyring } | ({ ok: false } & SyncFailure)>;

/**
 * A step with the storage and this device's keys (read only now: no view keeps them): the keys
 * it gives are kept, and the background asked to sync. The failure, if any.
 */
async function withKeys(step: KeyStep): Promise<{ failure: SyncFailure; service: SyncConfig['service'] } | undefined> {
  const config = await loadSyncConfig();
  if (config === undefined) return undefined;
  const storage = storageFor(config);
  const result = await step(storage, await loadSyncKey());
  if (!result.ok) return { failure: result, service: config.service };
  // Kept first: a new passphrase's key check is written only once its keys are (closed in
  // between, the background writes it before it syncs).
  await saveSyncKey(result.key);
  if (result.key.pending !== undefined) {
    const published = await publishSyncKeyCheck(storage, result.key);
    if (published.ok) await saveSyncKey(published.key);
  }
  await askBackground({ type: 'sync.now' });
  return undefined;
}

/**
 * Before this device forgets its details: the background says on the server that it stopped
 * (so the others no longer wait on it), waited for a few seconds at most.
 */
async function leaveServer(): Promise<void> {
  await Promise.race([askBackground({ type: 'sync.leave' }).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, LEAVE_WAIT_MS))]);
}
const LEAVE_WAIT_MS = 5_000;

/** "Change passphrase": the new one typed twice; the background then re-encrypts this device's files. */
function ChangePassphraseDialog({ open, onOpenChange, onChanged }: { open: boolean; onOpenChange(open: boolean): void; onChanged(): void }) {
  const w = useWords();
  const [current, setCurrent] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [changing, setChanging] = useState(false);
  const [failure, setFailure] = useState<{ failure: SyncFailure; service: SyncConfig['service'] } | undefined>();
  const close = (next: boolean): void => {
    if (changing) return;
    if (!next) {
      setCurrent('');
      setPassphrase('');
      setConfirm('');
      setFailure(undefined);
    }
    onOpenChange(next);
  };
  const mismatch = confirm !== '' && confirm !== passphrase;
  const change = async (): Promise<void> => {
    setChanging(true);
    setFailure(undefined);
    try {
      const failed = await withKeys((storage, had) => changeSyncPassphrase(storage, had, current, passphrase));
      if (failed !== undefined) {
        setFailure(failed);
        return;
      }
      setCurrent('');
      setPassphrase('');
      setConfirm('');
      onOpenChange(false);
      onChanged();
    } finally {
      setChanging(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={w.t('sync.changeTitle')}
      description={w.t('sync.changeText')}
      footer={
        <>
          <Button onClick={() => close(false)} disabled={changing}>{w.t('common.cancel')}</Button>
          <Button variant="primary" disabled={current === '' || passphrase === '' || confirm !== passphrase || changing} onClick={() => void change()}>
            {changing ? <LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /> : <KeyRound aria-hidden />}{w.t('sync.changeConfirm')}
          </Button>
        </>
      }
    >
      <Field label={w.t('sync.currentPassphrase')}>
        {(control) => <Input {...control} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />}
      </Field>
      <Field label={w.t('sync.newPassphrase')} hint={w.t('sync.passphraseHint')}>
        {(control) => <Input {...control} type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />}
      </Field>
      <Field label={w.t('sync.confirmNewPassphrase')} error={mismatch ? w.t('sync.mismatch') : undefined}>
        {(control) => <Input {...control} type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />}
      </Field>
      {changing && <p role="status" className="text-sm text-muted">{w.t('sync.changing')}</p>}
      {failure !== undefined && <Callout role="alert" tone="danger">{syncFailureText(w, failure.failure, failure.service)}</Callout>}
    </Dialog>
  );
}

/** The passphrase entered again (the key lost, or the passphrase changed on another device): sync goes on where it stopped. */
function UnlockForm({ onUnlocked }: { onUnlocked(): void }) {
  const w = useWords();
  const [passphrase, setPassphrase] = useState('');
  const [unlocking, setUnlocking] = useState(false);
  const [failure, setFailure] = useState<{ failure: SyncFailure; service: SyncConfig['service'] } | undefined>();
  const unlock = async (): Promise<void> => {
    setUnlocking(true);
    setFailure(undefined);
    try {
      const failed = await withKeys((storage, had) => unlockSync(storage, passphrase, had));
      if (failed !== undefined) {
        setFailure(failed);
        return;
      }
      setPassphrase('');
      onUnlocked();
    } finally {
      setUnlocking(false);
    }
  };
  return (
    <form className="flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); void unlock(); }}>
      <Field label={w.t('sync.passphrase')} hint={w.t('sync.unlockHint')}>
        {(control) => <Input {...control} type="password" autoComplete="off" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />}
      </Field>
      <p>
        <Button type="submit" size="sm" variant="primary" disabled={passphrase === '' || unlocking}>
          {unlocking ? <LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /> : <LockOpen aria-hidden />}{w.t('sync.unlock')}
        </Button>
      </p>
      {failure !== undefined && <Callout role="alert" tone="danger">{syncFailureText(w, failure.failure, failure.service)}</Callout>}
    </form>
  );
}

function StatusIcon({ status }: { status: SyncServiceStatus }) {
  const icon = 'size-4 shrink-0';
  switch (status.state) {
    case 'syncing': return <RefreshCw aria-hidden className={`${icon} animate-spin text-accent motion-reduce:animate-none`} />;
    case 'paused': return <CloudOff aria-hidden className={`${icon} text-warning`} />;
    case 'retrying': return <CloudAlert aria-hidden className={`${icon} text-warning`} />;
    case 'idle': return status.lastSyncedAt === undefined ? <Cloud aria-hidden className={`${icon} text-muted`} /> : <CloudCheck aria-hidden className={`${icon} text-success`} />;
    case 'off': return <Cloud aria-hidden className={`${icon} text-muted`} />;
  }
}

function Summary({ summary }: { summary: SyncSummary }) {
  const w = useWords();
  const rows: [string, ReactNode][] = [
    [w.t('sync.summary.service'), serviceName(w, summary.service)],
    ...(summary.service === 'webdav'
      ? [[w.t('sync.summary.address'), <code key="a" className="text-xs">{summary.address}</code>] as [string, ReactNode]]
      : [[w.t('sync.summary.endpoint'), <code key="e" className="text-xs">{summary.endpoint}</code>], [w.t('sync.summary.bucket'), <code key="b" className="text-xs">{summary.bucket}</code>]] as [string, ReactNode][]),
    [w.t('sync.summary.folder'), summary.folder === '' ? w.t('sync.summary.noFolder') : summary.folder],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted">{term}</dt>
          <dd className="min-w-0 [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** "Erase synced data on the server": the folder's name typed, then every device's synced files go. */
function EraseDialog({ folder, open, onOpenChange, onErased }: { folder: string; open: boolean; onOpenChange(open: boolean): void; onErased(): void }) {
  const w = useWords();
  const [typed, setTyped] = useState('');
  const [erasing, setErasing] = useState(false);
  const [failure, setFailure] = useState<{ failure: SyncFailure; service: SyncConfig['service'] } | undefined>();
  const close = (next: boolean): void => {
    if (erasing) return;
    if (!next) {
      setTyped('');
      setFailure(undefined);
    }
    onOpenChange(next);
  };
  const erase = async (): Promise<void> => {
    setErasing(true);
    setFailure(undefined);
    try {
      // The credentials are read only now: no view keeps them.
      const config = await loadSyncConfig();
      if (config === undefined) {
        onOpenChange(false);
        return;
      }
      const result = await eraseSyncData(storageFor(config));
      if (!result.ok) {
        setFailure({ failure: result, service: config.service });
        return;
      }
      setTyped('');
      onOpenChange(false);
      onErased();
      await stopSyncHere();
    } finally {
      setErasing(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={w.t('sync.eraseTitle')}
      description={w.t('sync.eraseText', { folder })}
      footer={
        <>
          <Button onClick={() => close(false)} disabled={erasing}>{w.t('common.cancel')}</Button>
          <Button variant="danger" disabled={typed !== folder || erasing} onClick={() => void erase()}>
            {erasing ? <LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /> : <Trash2 aria-hidden />}{w.t('sync.eraseConfirm')}
          </Button>
        </>
      }
    >
      <Field label={w.t('sync.eraseType')}>
        {(control) => <Input {...control} value={typed} onChange={(e) => setTyped(e.target.value)} spellCheck={false} autoComplete="off" />}
      </Field>
      {failure !== undefined && <Callout role="alert" tone="danger">{syncFailureText(w, failure.failure, failure.service)}</Callout>}
    </Dialog>
  );
}

/** Sync is on here: where to, how it goes, and what the user can do about it. */
function SyncOn({ summary, status, seenAt, onNote, onSetUpAgain }: { summary: SyncSummary; status: SyncServiceStatus; seenAt: number; onNote(note: Note | undefined): void; onSetUpAgain(config: SyncConfig | undefined): void }) {
  const w = useWords();
  const now = Math.max(useNow(30_000), seenAt);
  const [stopping, setStopping] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [changing, setChanging] = useState(false);
  const paused = status.state === 'paused' ? status : undefined;
  const last = status.state !== 'off' && status.state !== 'idle' ? status.lastSyncedAt : undefined;

  const syncNow = async (): Promise<void> => {
    onNote(undefined);
    const answer = await askBackground({ type: 'sync.now' });
    if (!answer.ok) onNote({ ok: false, text: 'nowFailed' });
  };
  // The note shows once sync is off (the form is back).
  const stop = async (): Promise<void> => {
    onNote({ ok: true, text: 'stopped' });
    await leaveServer();
    await stopSyncHere();
  };
  const setUpAgain = async (): Promise<void> => {
    // The details go to the form (this page's memory only), which shows once they are gone from
    // storage with the key and the device's state.
    onSetUpAgain(await loadSyncConfig());
    await leaveServer();
    await stopSyncHere();
  };

  // "Sync settings": the config as stored now, with the switch's value (the background syncs on the change).
  const syncSettings = async (on: boolean): Promise<void> => {
    const config = await loadSyncConfig();
    if (config !== undefined) await saveSyncConfig({ ...config, syncSettings: on });
  };

  return (
    <>
      <Summary summary={summary} />
      <Field label={w.t('sync.syncSettings')} hint={w.t('sync.syncSettingsHint')}>
        {(control) => <Switch {...control} checked={summary.syncSettings} onCheckedChange={(on) => void syncSettings(on)} />}
      </Field>
      <div className="flex flex-col gap-1 rounded-md border border-line bg-surface px-3 py-2.5">
        <div className="flex items-center gap-2">
          <StatusIcon status={status} />
          <p role="status" aria-label={w.t('sync.status.label')} className="min-w-0 text-sm font-medium [overflow-wrap:anywhere]">{syncStatusText(w, status, now)}</p>
        </div>
        {last !== undefined && <p className="pl-6 text-xs text-muted">{w.t('sync.lastSynced', { when: syncedWhen(w, last, now) })}</p>}
        {status.state === 'idle' && status.unreadable !== undefined && <p className="pl-6 text-xs text-warning">{w.plural('sync.unreadable', status.unreadable)}</p>}
      </div>
      {paused !== undefined && (
        <Callout role="note" tone="warning">
          {needsPassphrase(paused.code)
            ? <UnlockForm onUnlocked={() => onNote({ ok: true, text: 'unlocked' })} />
            : <p>{w.t('sync.pausedHint')}</p>}
          <p><Button size="sm" onClick={() => void setUpAgain()}>{w.t('sync.setUpAgain')}</Button></p>
        </Callout>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" onClick={() => void syncNow()}><RefreshCw aria-hidden />{w.t('sync.now')}</Button>
        <Button onClick={() => setChanging(true)}><KeyRound aria-hidden />{w.t('sync.changePassphrase')}</Button>
        <Button onClick={() => setStopping(true)}><Unplug aria-hidden />{w.t('sync.stop')}</Button>
        <Button variant="danger" onClick={() => setErasing(true)}><Trash2 aria-hidden />{w.t('sync.erase')}</Button>
      </div>
      <ConfirmDialog
        open={stopping}
        onOpenChange={setStopping}
        title={w.t('sync.stopTitle')}
        description={w.t('sync.stopText')}
        confirm={w.t('sync.stopConfirm')}
        onConfirm={() => void stop()}
      />
      <EraseDialog folder={summary.folder} open={erasing} onOpenChange={setErasing} onErased={() => onNote({ ok: true, text: 'erased' })} />
      <ChangePassphraseDialog open={changing} onOpenChange={setChanging} onChanged={() => onNote({ ok: true, text: 'changed' })} />
    </>
  );
}

/**
 * The options page's "Sync" section (issue 31): the setup form while sync is off on this device,
 * its summary, status and controls while it is on. End-to-end encrypted; API keys never sync.
 */
export function SyncSection() {
  const w = useWords();
  const { loaded, summary, status, seenAt } = useSync();
  const [note, setNote] = useState<Note | undefined>();
  // "Set up again": the old details, to start the form from (its remount starts it afresh).
  const [again, setAgain] = useState<{ config: SyncConfig | undefined; n: number }>({ config: undefined, n: 0 });

  // Opened at #sync (the chat page's indicator links here): the section is drawn after the page
  // loaded, too late for the browser's own jump.
  useEffect(() => {
    if (loaded && location.hash === '#sync') document.getElementById('sync')?.scrollIntoView();
  }, [loaded]);

  // Stopping and erasing are news while sync is off; a failed "Sync now" while it is on.
  const shown = note !== undefined && OFF_NOTES.includes(note.text) === (summary === undefined) ? note : undefined;
  return (
    <Section id="sync" title={w.t('options.section.sync')} intro={w.t('sync.intro')}>
      {shown !== undefined && (
        <Callout role={shown.ok ? 'status' : 'alert'} tone={shown.ok ? 'success' : 'danger'}>{w.t(`sync.note.${shown.text}`)}</Callout>
      )}
      {!loaded
        ? <div aria-busy="true" className="h-24" />
        : summary === undefined
          ? <SyncSetup key={again.n} {...(again.config === undefined ? {} : { initial: again.config })} />
          : <SyncOn summary={summary} status={status} seenAt={seenAt} onNote={setNote} onSetUpAgain={(config) => { setNote(undefined); setAgain((a) => ({ config, n: a.n + 1 })); }} />}
    </Section>
  );
}
