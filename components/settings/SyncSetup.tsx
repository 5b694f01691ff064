import { KeyRound, LoaderCircle, PlugZap, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { Input } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { useWords } from '@/components/i18n/words';
import { syncFailureText, syncStepText } from '@/components/i18n/sync';
import { sendsKeyInClear } from '@/lib/gateway';
import { gatewayAccessHolder, type AccessHolder } from '@/lib/protocol/background.adapter';
import { requestGatewayAccess } from '@/lib/settings/permissions.adapter';
import { newDeviceId, storageFor, SyncConfigSchema, syncOrigin, type SyncConfig } from '@/lib/sync/config';
import { joinSync, testSync, type SyncFailure } from '@/lib/sync/setup';
import { saveSyncConfig, saveSyncKey } from '@/lib/sync/sync.adapter';

type Service = SyncConfig['service'];

type TestState =
  | { state: 'idle' }
  | { state: 'testing' }
  | { state: 'no_access'; origin: string }
  | { state: 'failed'; failure: SyncFailure; service: Service }
  | { state: 'ok'; firstDevice: boolean; config: SyncConfig };

type StartState =
  | { state: 'idle' }
  | { state: 'starting' }
  | { state: 'failed'; failure: SyncFailure; service: Service }
  | { state: 'not_kept'; detail: string };

/** The fields the form checks itself (the schema's, plus a folder it can name). */
type Checked = 'address' | 'endpoint' | 'bucket' | 'folder';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Setting sync up on this device: the storage's details, "Test sync" (host access to that one
 * origin asked for on the click, held while the form is open), then the encryption passphrase
 * (twice on the first device) and "Start syncing", which keeps the key the passphrase gives and
 * then the details: the background starts syncing when the details appear. `initial`: details
 * to start from ("Set up again" after the passphrase was lost); never a passphrase.
 */
export function SyncSetup({ initial }: { initial?: SyncConfig }) {
  const w = useWords();
  const webdav = initial?.service === 'webdav' ? initial : undefined;
  const s3 = initial?.service === 's3' ? initial : undefined;
  const [service, setService] = useState<Service>(initial?.service ?? 'webdav');
  const [address, setAddress] = useState(webdav?.address ?? '');
  const [username, setUsername] = useState(webdav?.username ?? '');
  const [password, setPassword] = useState(webdav?.password ?? '');
  const [endpoint, setEndpoint] = useState(s3?.endpoint ?? '');
  const [bucket, setBucket] = useState(s3?.bucket ?? '');
  const [region, setRegion] = useState(s3?.region ?? 'auto');
  const [accessKeyId, setAccessKeyId] = useState(s3?.accessKeyId ?? '');
  const [secretAccessKey, setSecretAccessKey] = useState(s3?.secretAccessKey ?? '');
  const [folder, setFolder] = useState(initial?.folder ?? 'Gateway Chat');
  // A fresh device each time sync is set up here (what it synced before was forgotten with its key).
  const [deviceId] = useState(newDeviceId);
  const [test, setTest] = useState<TestState>({ state: 'idle' });
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [confirmTried, setConfirmTried] = useState(false);
  const [start, setStart] = useState<StartState>({ state: 'idle' });

  const draft = service === 'webdav'
    ? { service, address: address.trim(), username, password, folder: folder.trim(), deviceId, syncSettings: false }
    : { service, endpoint: endpoint.trim(), bucket: bucket.trim(), region: region.trim() === '' ? 'auto' : region.trim(), accessKeyId: accessKeyId.trim(), secretAccessKey, folder: folder.trim(), deviceId, syncSettings: false };
  const parsed = SyncConfigSchema.safeParse(draft);
  const invalid = new Set<Checked>(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0]).filter((field): field is Checked => field === 'address' || field === 'endpoint' || field === 'bucket'));
  if (folder.trim() === '') invalid.add('folder');
  /** Said once the user has typed something there: an empty field just keeps "Test sync" waiting. */
  const errorFor = (field: Checked, value: string): string | undefined => (invalid.has(field) && (value.trim() !== '' || field === 'folder') ? w.t(`sync.invalid.${field}`) : undefined);
  const complete = service === 'webdav' ? address.trim() !== '' : endpoint.trim() !== '' && bucket.trim() !== '' && accessKeyId.trim() !== '' && secretAccessKey !== '';
  const config = parsed.success && invalid.size === 0 && complete ? parsed.data : undefined;
  const target = service === 'webdav' ? address.trim() : endpoint.trim();
  const cleartext = config !== undefined && sendsKeyInClear(target);

  // Host access to the storage's origin is this form's while it is open: the background gives it
  // back when the form goes away, unless sync was set up there meanwhile.
  const holder = useRef<AccessHolder | undefined>(undefined);
  useEffect(() => {
    const held = gatewayAccessHolder();
    holder.current = held;
    return () => held.release();
  }, []);

  // A test or a start still running when the details change must not report for the new ones.
  const run = useRef(0);
  const changed = (set: (value: string) => void) => (value: string): void => {
    set(value);
    run.current++;
    setTest({ state: 'idle' });
    setStart({ state: 'idle' });
  };

  const runTest = async (): Promise<void> => {
    if (config === undefined) return;
    // First, while the click still counts as the user's gesture.
    const asking = requestGatewayAccess(target);
    holder.current?.hold(target);
    const mine = ++run.current;
    setTest({ state: 'testing' });
    setStart({ state: 'idle' });
    const granted = await asking;
    if (run.current !== mine) return;
    if (!granted) {
      setTest({ state: 'no_access', origin: syncOrigin(config) });
      return;
    }
    const result = await testSync(storageFor(config));
    if (run.current !== mine) return;
    setPassphrase('');
    setConfirm('');
    setConfirmTried(false);
    setTest(result.ok ? { state: 'ok', firstDevice: result.firstDevice, config } : { state: 'failed', failure: result, service: config.service });
  };

  const mismatch = test.state === 'ok' && test.firstDevice && confirm !== passphrase;
  const startSyncing = async (): Promise<void> => {
    if (test.state !== 'ok' || passphrase === '') return;
    if (mismatch) {
      setConfirmTried(true);
      return;
    }
    const tested = test.config;
    const mine = ++run.current;
    setStart({ state: 'starting' });
    const joined = await joinSync(storageFor(tested), passphrase, test.firstDevice);
    if (run.current !== mine) return;
    if (!joined.ok) {
      setStart({ state: 'failed', failure: joined, service: tested.service });
      return;
    }
    // The key first: the background starts as soon as the details appear.
    try {
      await saveSyncKey(joined.key);
      await saveSyncConfig(tested);
    } catch (error) {
      if (run.current === mine) setStart({ state: 'not_kept', detail: describe(error) });
      return;
    }
    // Sync is on: the section shows its status instead of this form.
    if (run.current === mine) setStart({ state: 'idle' });
  };

  const showMismatch = mismatch && confirm !== '' && (confirmTried || !passphrase.startsWith(confirm));
  const busy = test.state === 'testing' || start.state === 'starting';
  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => { e.preventDefault(); if (test.state === 'ok') void startSyncing(); else void runTest(); }}>
      <Field label={w.t('sync.service')} hint={w.t('sync.serviceHint')}>
        {(control) => (
          <NativeSelect {...control} value={service} onChange={(e) => changed((v) => setService(v as Service))(e.target.value)}>
            <option value="webdav">{w.t('sync.serviceName.webdav')}</option>
            <option value="s3">{w.t('sync.serviceName.s3')}</option>
          </NativeSelect>
        )}
      </Field>

      {service === 'webdav' ? (
        <>
          <Field label={w.t('sync.address')} hint={w.t('sync.addressHint')} error={errorFor('address', address)}>
            {(control) => <Input {...control} value={address} onChange={(e) => changed(setAddress)(e.target.value)} spellCheck={false} autoComplete="off" />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={w.t('sync.username')}>
              {(control) => <Input {...control} value={username} onChange={(e) => changed(setUsername)(e.target.value)} spellCheck={false} autoComplete="off" />}
            </Field>
            <Field label={w.t('sync.password')} hint={w.t('sync.passwordHint')}>
              {(control) => <Input {...control} type="password" value={password} onChange={(e) => changed(setPassword)(e.target.value)} autoComplete="off" />}
            </Field>
          </div>
        </>
      ) : (
        <>
          <Field label={w.t('sync.endpoint')} hint={w.t('sync.endpointHint')} error={errorFor('endpoint', endpoint)}>
            {(control) => <Input {...control} value={endpoint} onChange={(e) => changed(setEndpoint)(e.target.value)} spellCheck={false} autoComplete="off" />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={w.t('sync.bucket')} error={errorFor('bucket', bucket)}>
              {(control) => <Input {...control} value={bucket} onChange={(e) => changed(setBucket)(e.target.value)} spellCheck={false} autoComplete="off" />}
            </Field>
            <Field label={w.t('sync.region')} hint={w.t('sync.regionHint')}>
              {(control) => <Input {...control} value={region} onChange={(e) => changed(setRegion)(e.target.value)} spellCheck={false} autoComplete="off" />}
            </Field>
            <Field label={w.t('sync.accessKeyId')}>
              {(control) => <Input {...control} value={accessKeyId} onChange={(e) => changed(setAccessKeyId)(e.target.value)} spellCheck={false} autoComplete="off" className="font-mono" />}
            </Field>
            <Field label={w.t('sync.secretAccessKey')}>
              {(control) => <Input {...control} type="password" value={secretAccessKey} onChange={(e) => changed(setSecretAccessKey)(e.target.value)} autoComplete="off" className="font-mono" />}
            </Field>
          </div>
        </>
      )}

      <Field label={w.t('sync.folder')} hint={w.t('sync.folderHint')} error={errorFor('folder', folder)}>
        {(control) => <Input {...control} value={folder} onChange={(e) => changed(setFolder)(e.target.value)} spellCheck={false} autoComplete="off" />}
      </Field>
      {cleartext && <Callout role="note" tone="warning" label={w.t('connection.cleartext.label')}>{w.t('sync.cleartext')}</Callout>}
      <p className="text-xs text-muted">{w.t('sync.detailsKept')}</p>

      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void runTest()} disabled={config === undefined || busy}>
          {test.state === 'testing' ? <LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /> : <PlugZap aria-hidden />}{w.t('sync.test')}
        </Button>
      </div>
      {test.state === 'testing' && <p role="status" className="text-sm text-muted">{w.t('sync.testing')}</p>}
      {test.state === 'no_access' && <Callout role="alert" tone="danger">{w.t('sync.noAccess', { origin: test.origin })}</Callout>}
      {test.state === 'failed' && (
        <Callout role="alert" tone="danger">
          <p>{syncFailureText(w, test.failure, test.service)}</p>
          {test.failure.step !== undefined && <p className="text-xs text-muted">{syncStepText(w, test.failure.step)}</p>}
        </Callout>
      )}
      {test.state === 'ok' && (
        <>
          <Callout role="status" tone="success">{test.firstDevice ? w.t('sync.firstDevice') : w.t('sync.dataFound')}</Callout>
          <div className="flex flex-col gap-4 border-t border-line pt-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={<span className="inline-flex items-center gap-1.5"><KeyRound aria-hidden className="size-4 text-muted" />{w.t('sync.passphrase')}</span>} hint={test.firstDevice ? w.t('sync.passphraseHint') : undefined}>
                {(control) => <Input {...control} type="password" value={passphrase} onChange={(e) => { setPassphrase(e.target.value); setStart({ state: 'idle' }); }} autoComplete="off" />}
              </Field>
              {test.firstDevice && (
                <Field label={w.t('sync.confirmPassphrase')} error={showMismatch ? w.t('sync.mismatch') : undefined}>
                  {(control) => <Input {...control} type="password" value={confirm} onChange={(e) => { setConfirm(e.target.value); setStart({ state: 'idle' }); }} onBlur={() => setConfirmTried(true)} autoComplete="off" />}
                </Field>
              )}
            </div>
            <Callout role="note" tone="info">{w.t('sync.passphraseNote')}</Callout>
            <div className="flex flex-wrap items-center gap-2">
              <Button type="submit" variant="primary" disabled={passphrase === '' || (test.firstDevice && confirm === '') || busy}>
                {start.state === 'starting' ? <LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /> : <RefreshCw aria-hidden />}{w.t('sync.start')}
              </Button>
            </div>
            {start.state === 'starting' && <p role="status" className="text-sm text-muted">{w.t('sync.starting')}</p>}
            {start.state === 'failed' && <Callout role="alert" tone="danger">{syncFailureText(w, start.failure, start.service)}</Callout>}
            {start.state === 'not_kept' && <Callout role="alert" tone="danger">{w.t('sync.notKept', { detail: start.detail })}</Callout>}
          </div>
        </>
      )}
    </form>
  );
}
