import { CircleCheck, ClipboardPaste, Eye, EyeOff, LoaderCircle, PlugZap } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { IconButton } from '@/components/ui/IconButton';
import { Input, Textarea } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/Select';
import { importConnection } from '@/lib/connection/import';
import { checkApiKey, maskApiKey, normalizeApiKey } from '@/lib/connection/key-check';
import { storedError, type StoredError } from '@/lib/conversations/records';
import { GatewayError, createGatewayClient, endpointUrl, sendsKeyInClear, tryResolveGatewayAddress, type ApiStyle } from '@/lib/gateway';
import { newId } from '@/lib/conversations/store';
import type { Profile } from '@/lib/settings/schema';
import { requestGatewayAccess } from '@/lib/settings/permissions.adapter';
import { saveCatalogue } from '@/lib/settings/storage.adapter';
import { firstChatModel } from '@/lib/catalogue/filter';

interface ConnectionFormProps {
  /** The profile being edited; a new one when absent. */
  profile?: Profile;
  /** Persist the profile; returns an error sentence when it could not be saved. */
  onSave(profile: Profile): Promise<string | undefined>;
  /** After a save: where the connection ended (the first run goes on to its first prompt). */
  onSaved?: (profile: Profile, models: number | undefined) => void;
}

type TestState = { state: 'idle' } | { state: 'testing' } | { state: 'ok'; count: number; firstModel?: string } | { state: 'failed'; error: StoredError };

function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/**
 * Gateway address and API key, checked as the user types; paste to import; test the
 * connection; save (asking the browser for access to that one origin first).
 *
 * The key stays with its address: the form remembers which origin the key was entered for,
 * and when the address moves to another origin, nothing is sent (Test and Save wait) until
 * the user clears the key or says it belongs to the new address too.
 */
export function ConnectionForm({ profile, onSave, onSaved }: ConnectionFormProps) {
  // The profile's id is fixed when the form opens, so saving twice never makes two profiles.
  const [profileId] = useState(() => profile?.id ?? newId());
  const [name, setName] = useState(profile?.name ?? '');
  const [address, setAddress] = useState(profile?.baseUrl ?? '');
  const [key, setKey] = useState(profile?.apiKey ?? '');
  /** The origin the key was entered for; null when it was typed before any address. */
  const [keyFor, setKeyFor] = useState<string | null>(() => (profile !== undefined && profile.apiKey !== '' ? originOf(profile.baseUrl) : null));
  const [keyCleared, setKeyCleared] = useState<{ from: string; to: string } | undefined>();
  const [apiStyle, setApiStyle] = useState<ApiStyle>(profile?.apiStyle ?? 'chat');
  const [reveal, setReveal] = useState(false);
  const [pasted, setPasted] = useState('');
  const [imported, setImported] = useState<{ ok: boolean; text: string; warning?: string } | undefined>();
  const [test, setTest] = useState<TestState>({ state: 'idle' });
  const [saveNote, setSaveNote] = useState<{ ok: boolean; text: string } | undefined>();

  const resolved = address.trim() === '' ? undefined : tryResolveGatewayAddress(address);
  const origin = resolved?.ok === true ? originOf(resolved.baseUrl) : undefined;
  const keyIssue = key === '' ? undefined : checkApiKey(key);
  /** The key was entered for another origin than the one the address now names. */
  const keyElsewhere = key !== '' && keyFor !== null && origin !== undefined && origin !== keyFor ? { from: keyFor, to: origin } : undefined;
  const ready = resolved?.ok === true && keyIssue === undefined && key !== '' && keyElsewhere === undefined;
  const cleartext = resolved?.ok === true && sendsKeyInClear(resolved.baseUrl);

  // A test still running for an address or key that has since changed must not report.
  const testRun = useRef<{ controller: AbortController } | undefined>(undefined);
  const cancelTest = (): void => {
    testRun.current?.controller.abort();
    testRun.current = undefined;
    setTest({ state: 'idle' });
  };
  useEffect(() => () => testRun.current?.controller.abort(), []);

  const changeAddress = (value: string): void => {
    setAddress(value);
    setKeyCleared(undefined);
    cancelTest();
  };
  const changeKey = (value: string): void => {
    setKey(value);
    setKeyFor(origin ?? null);
    setKeyCleared(undefined);
    cancelTest();
  };
  const endpoint = resolved?.ok === true ? endpointUrl(resolved.baseUrl, apiStyle === 'responses' ? '/responses' : '/chat/completions') : undefined;

  const doImport = (): void => {
    const result = importConnection(pasted);
    if (!result.ok) {
      setImported({ ok: false, text: result.message });
      return;
    }
    const found = result.found;
    const foundOrigin = found.baseUrl === undefined ? undefined : originOf(found.baseUrl);
    if (found.baseUrl !== undefined) setAddress(found.baseUrl);
    if (found.apiKey !== undefined) {
      setKey(found.apiKey);
      setKeyFor(foundOrigin ?? origin ?? null);
      setKeyCleared(undefined);
    } else if (foundOrigin !== undefined && key !== '' && keyFor !== foundOrigin) {
      // An address without a key: the key in the field belongs to another gateway.
      setKey('');
      setKeyCleared({ from: keyFor ?? origin ?? 'the previous address', to: foundOrigin });
    }
    if (name === '' && found.siteUrl !== undefined) setName(new URL(found.siteUrl).host);
    const parts = [found.baseUrl !== undefined ? `address ${found.baseUrl}` : undefined, found.apiKey !== undefined ? `key ${maskApiKey(found.apiKey)}` : undefined].filter(Boolean);
    const missing = found.baseUrl === undefined ? ' No address was in it: enter the gateway address.' : found.apiKey === undefined ? ' No key was in it: paste the API key.' : '';
    setImported({ ok: true, text: `Found in the ${found.source}: ${parts.join(', ')}.${missing}`, warning: found.keyIssue?.message });
    cancelTest();
  };

  const profileFromForm = (): Profile | undefined => {
    if (resolved?.ok !== true) return undefined;
    return {
      id: profileId,
      name: name.trim() === '' ? new URL(resolved.siteUrl).host : name.trim(),
      siteUrl: resolved.siteUrl,
      baseUrl: resolved.baseUrl,
      apiKey: normalizeApiKey(key),
      apiStyle,
      // A new gateway starts with its first chat model (changeable), so the first Send works.
      defaultModel: profile?.defaultModel ?? (test.state === 'ok' ? test.firstModel : undefined),
      actionModel: profile?.actionModel,
      confirmedImageModels: profile?.confirmedImageModels ?? [],
      ...(profile?.favouriteModels === undefined ? {} : { favouriteModels: profile.favouriteModels }),
      ...(profile?.recentModels === undefined ? {} : { recentModels: profile.recentModels }),
    };
  };

  const testConnection = async (): Promise<void> => {
    const draft = profileFromForm();
    if (draft === undefined || !ready) return;
    testRun.current?.controller.abort();
    const run = { controller: new AbortController() };
    testRun.current = run;
    // Asked first, while the click still counts as a user gesture.
    const granted = await requestGatewayAccess(draft.baseUrl);
    if (testRun.current !== run) return;
    if (!granted) {
      setTest({ state: 'failed', error: storedError(new GatewayError({ kind: 'network', url: endpointUrl(draft.baseUrl, '/models'), siteUrl: draft.siteUrl, detail: `access to ${new URL(draft.baseUrl).origin} was not granted, so the extension may not call it` })) });
      return;
    }
    setTest({ state: 'testing' });
    try {
      const models = await createGatewayClient({ baseUrl: draft.baseUrl, siteUrl: draft.siteUrl, apiKey: draft.apiKey }).listModels({ signal: run.controller.signal });
      if (testRun.current !== run) return;
      setSaveNote(undefined);
      setTest({ state: 'ok', count: models.length, firstModel: firstChatModel(models) });
      await saveCatalogue(profileId, draft.baseUrl, models);
    } catch (error) {
      if (testRun.current !== run) return;
      setSaveNote(undefined);
      const e = error instanceof GatewayError ? error : new GatewayError({ kind: 'bad_response', url: endpointUrl(draft.baseUrl, '/models'), siteUrl: draft.siteUrl, detail: String(error) });
      setTest({ state: 'failed', error: storedError(e, draft.apiKey) });
    }
  };

  const [confirmSave, setConfirmSave] = useState(false);
  const save = async (confirmed = false): Promise<void> => {
    const draft = profileFromForm();
    if (draft === undefined || !ready) return;
    // The key or address just failed its test: saving it is the user's explicit choice.
    if (test.state === 'failed' && !confirmed) {
      setConfirmSave(true);
      return;
    }
    setConfirmSave(false);
    const granted = await requestGatewayAccess(draft.baseUrl);
    if (!granted) {
      setSaveNote({ ok: false, text: `Not saved: without access to ${new URL(draft.baseUrl).origin} the extension cannot call the gateway. Click Save again and allow access.` });
      return;
    }
    const failure = await onSave(draft);
    // One status per form: the save's replaces the test's.
    if (failure === undefined) {
      onSaved?.(draft, test.state === 'ok' ? test.count : undefined);
      setTest({ state: 'idle' });
    }
    setSaveNote(failure === undefined ? { ok: true, text: `Saved. Requests go to ${draft.baseUrl} only.` } : { ok: false, text: failure });
  };

  return (
    <form className="connection flex flex-col gap-4" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <section aria-label="Paste to import" className="flex flex-col gap-2 rounded-lg border border-dashed border-line-strong bg-surface p-3">
        <Field label={<span className="inline-flex items-center gap-1.5"><ClipboardPaste aria-hidden className="size-4 text-muted" />Paste what the keys page gave you</span>} hint="A “Use Key” link, the connection info, a curl command or OPENAI_* lines: the address and key are picked out.">
          {(control) => <Textarea {...control} aria-label="Paste to import" rows={2} value={pasted} onChange={(e) => setPasted(e.target.value)} className="font-mono text-xs" />}
        </Field>
        <div className="flex items-center gap-2">
          <Button size="sm" onClick={doImport} disabled={pasted.trim() === ''}>Import</Button>
        </div>
        {imported !== undefined && (
          <Callout role={imported.ok ? 'status' : 'alert'} tone={imported.ok ? 'success' : 'danger'} className={imported.ok ? 'ok' : 'problem'}>{imported.text}</Callout>
        )}
        {imported?.warning !== undefined && <Callout role="alert" tone="warning" className="problem">{imported.warning}</Callout>}
      </section>

      <Field label="Gateway address" error={resolved?.ok === false ? resolved.error.message : undefined} hint={endpoint !== undefined ? <span role="note" aria-label="Endpoint">Requests go to <code>{endpoint}</code></span> : 'The site’s address, with or without /v1.'}>
        {(control) => <Input {...control} value={address} onChange={(e) => changeAddress(e.target.value)} placeholder="https://your-gateway.example" spellCheck={false} autoComplete="off" />}
      </Field>
      {cleartext && (
        <Callout role="note" tone="warning" label="Security warning">
          This address uses plain http:// to another machine: the API key would cross the network unencrypted. Use https:// if the gateway offers it.
        </Callout>
      )}

      <Field label="API key" error={keyIssue?.message} hint="Kept in this browser only, sent to this gateway only.">
        {(control) => (
          <div className="key-row flex gap-1.5">
            <Input {...control} type={reveal ? 'text' : 'password'} value={key} onChange={(e) => changeKey(e.target.value)} spellCheck={false} autoComplete="off" placeholder="sk-…" className="font-mono" />
            <IconButton variant="secondary" label={reveal ? 'Hide key' : 'Show key'} aria-pressed={reveal} icon={reveal ? <EyeOff aria-hidden /> : <Eye aria-hidden />} onClick={() => setReveal(!reveal)} />
          </div>
        )}
      </Field>
      {keyElsewhere !== undefined && (
        <Callout role="alert" tone="warning" label="Key for another address" className="key-elsewhere">
          <p>This key was entered for <code>{keyElsewhere.from}</code>, but the address now points at <code>{keyElsewhere.to}</code>. Nothing is sent until you choose: paste the key for the new address, or keep this key if it belongs there too.</p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => { setKey(''); setKeyCleared(keyElsewhere); }}>Clear the key</Button>
            <Button size="sm" onClick={() => setKeyFor(keyElsewhere.to)}>Keep the key for the new address</Button>
          </div>
        </Callout>
      )}
      {keyCleared !== undefined && key === '' && (
        <Callout role="status" tone="warning" className="problem">The key for {keyCleared.from} was cleared: paste the key for {keyCleared.to}.</Callout>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Profile name" hint="Shown where you pick a gateway.">
          {(control) => <Input {...control} value={name} onChange={(e) => setName(e.target.value)} placeholder="My gateway" />}
        </Field>
        <Field label="API style" hint="Most gateways speak Chat Completions.">
          {(control) => (
            <NativeSelect {...control} value={apiStyle} onChange={(e) => setApiStyle(e.target.value as ApiStyle)}>
              <option value="chat">Chat Completions (/chat/completions)</option>
              <option value="responses">Responses API (/responses)</option>
            </NativeSelect>
          )}
        </Field>
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void testConnection()} disabled={!ready || test.state === 'testing'}>
          {test.state === 'testing' ? <LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /> : <PlugZap aria-hidden />}Test connection
        </Button>
        <Button type="submit" variant="primary" disabled={!ready}>Save</Button>
      </div>
      {test.state === 'testing' && <p role="status" className="text-sm text-muted">Testing…</p>}
      {test.state === 'ok' && <Callout role="status" tone="success" className="ok" title={<span className="inline-flex items-center gap-1">Connected: {test.count} {test.count === 1 ? 'model' : 'models'} available.</span>} />}
      {test.state === 'failed' && <ErrorCallout error={test.error} />}
      {confirmSave && test.state === 'failed' && (
        <Callout role="alert" tone="warning" label="Save after a failed test" title="The connection test just failed. Save these settings anyway?">
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="primary" onClick={() => void save(true)}>Save anyway</Button>
            <Button size="sm" onClick={() => setConfirmSave(false)}>Cancel</Button>
          </div>
        </Callout>
      )}
      {saveNote !== undefined && (
        <Callout role={saveNote.ok ? 'status' : 'alert'} tone={saveNote.ok ? 'success' : 'danger'} className={saveNote.ok ? 'ok' : 'problem'}>
          {saveNote.ok && <CircleCheck aria-hidden className="sr-only" />}{saveNote.text}
        </Callout>
      )}
    </form>
  );
}
