import { useEffect, useId, useRef, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
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
export function ConnectionForm({ profile, onSave }: ConnectionFormProps) {
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
  const ids = { address: useId(), key: useId(), name: useId(), style: useId(), paste: useId() };

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
    if (failure === undefined) setTest({ state: 'idle' });
    setSaveNote(failure === undefined ? { ok: true, text: `Saved. Requests go to ${draft.baseUrl} only.` } : { ok: false, text: failure });
  };

  return (
    <form className="connection" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <fieldset>
        <legend>Paste to import</legend>
        <label htmlFor={ids.paste}>Paste what the keys page gave you (a “Use Key” link, connection info, a curl command, OPENAI_* lines)</label>
        <textarea id={ids.paste} aria-label="Paste to import" rows={3} value={pasted} onChange={(e) => setPasted(e.target.value)} />
        <button type="button" onClick={doImport} disabled={pasted.trim() === ''}>Import</button>
        {imported !== undefined && (
          <p role={imported.ok ? 'status' : 'alert'} className={imported.ok ? 'ok' : 'problem'}>{imported.text}</p>
        )}
        {imported?.warning !== undefined && <p role="alert" className="problem">{imported.warning}</p>}
      </fieldset>

      <label htmlFor={ids.name}>Profile name</label>
      <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} placeholder="My gateway" />

      <label htmlFor={ids.address}>Gateway address</label>
      <input id={ids.address} value={address} onChange={(e) => changeAddress(e.target.value)} placeholder="https://your-gateway.example or https://your-gateway.example/v1" spellCheck={false} autoComplete="off" />
      {resolved?.ok === false && <p role="alert" className="problem">{resolved.error.message}</p>}
      {endpoint !== undefined && <p className="hint" aria-label="Endpoint">Requests go to <code>{endpoint}</code></p>}
      {cleartext && (
        <p role="note" aria-label="Security warning" className="problem">
          This address uses plain http:// to another machine: the API key would cross the network unencrypted. Use https:// if the gateway offers it.
        </p>
      )}

      <label htmlFor={ids.key}>API key</label>
      <div className="key-row">
        <input id={ids.key} type={reveal ? 'text' : 'password'} value={key} onChange={(e) => changeKey(e.target.value)} spellCheck={false} autoComplete="off" placeholder="sk-…" />
        <button type="button" onClick={() => setReveal(!reveal)} aria-pressed={reveal}>{reveal ? 'Hide key' : 'Show key'}</button>
      </div>
      {keyIssue !== undefined && <p role="alert" className="problem">{keyIssue.message}</p>}
      {keyElsewhere !== undefined && (
        <div role="alert" aria-label="Key for another address" className="key-elsewhere">
          <p>This key was entered for <code>{keyElsewhere.from}</code>, but the address now points at <code>{keyElsewhere.to}</code>. Nothing is sent until you choose: paste the key for the new address, or keep this key if it belongs there too.</p>
          <div className="buttons">
            <button type="button" onClick={() => { setKey(''); setKeyCleared(keyElsewhere); }}>Clear the key</button>
            <button type="button" onClick={() => setKeyFor(keyElsewhere.to)}>Keep the key for the new address</button>
          </div>
        </div>
      )}
      {keyCleared !== undefined && key === '' && (
        <p role="status" className="problem">The key for {keyCleared.from} was cleared: paste the key for {keyCleared.to}.</p>
      )}

      <label htmlFor={ids.style}>API style</label>
      <select id={ids.style} value={apiStyle} onChange={(e) => setApiStyle(e.target.value as ApiStyle)}>
        <option value="chat">Chat Completions (/chat/completions)</option>
        <option value="responses">Responses API (/responses)</option>
      </select>

      <div className="buttons">
        <button type="button" onClick={() => void testConnection()} disabled={!ready || test.state === 'testing'}>Test connection</button>
        <button type="submit" disabled={!ready}>Save</button>
      </div>
      {test.state === 'testing' && <p role="status">Testing…</p>}
      {test.state === 'ok' && <p role="status" className="ok">Connected: {test.count} models available.</p>}
      {test.state === 'failed' && <ErrorCallout error={test.error} />}
      {confirmSave && test.state === 'failed' && (
        <div role="alert" aria-label="Save after a failed test" className="key-elsewhere">
          <p>The connection test just failed. Save these settings anyway?</p>
          <div className="buttons">
            <button type="button" onClick={() => void save(true)}>Save anyway</button>
            <button type="button" onClick={() => setConfirmSave(false)}>Cancel</button>
          </div>
        </div>
      )}
      {saveNote !== undefined && <p role={saveNote.ok ? 'status' : 'alert'} className={saveNote.ok ? 'ok' : 'problem'}>{saveNote.text}</p>}
    </form>
  );
}
