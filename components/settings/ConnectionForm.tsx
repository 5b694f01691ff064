import { CircleCheck, ClipboardPaste, Eye, EyeOff, LoaderCircle, PlugZap } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { IconButton } from '@/components/ui/IconButton';
import { Input, Textarea } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { importConnection } from '@/lib/connection/import';
import { checkApiKey, maskApiKey, normalizeApiKey } from '@/lib/connection/key-check';
import { storedError, type StoredError } from '@/lib/conversations/records';
import { GatewayError, createGatewayClient, endpointUrl, sendsKeyInClear, tryResolveGatewayAddress, type ApiStyle } from '@/lib/gateway';
import { newId } from '@/lib/conversations/ids';
import type { Profile } from '@/lib/settings/schema';
import { requestGatewayAccess } from '@/lib/settings/permissions.adapter';
import { gatewayAccessHolder, type AccessHolder } from '@/lib/protocol/background.adapter';
import { saveBalance, saveCatalogue } from '@/lib/settings/storage.adapter';
import { firstChatModel } from '@/lib/catalogue/filter';
import { useWords } from '@/components/i18n/words';
import { addressProblemText, importProblemText, importSourceText, keyIssueText } from '@/components/i18n/setup-problems';
import type { Words } from '@/lib/i18n/messages';
import { WIRE_INTERFACES } from '@/lib/gateway/interfaces';
import { balanceText } from '@/components/i18n/money';
import type { Balance } from '@/lib/gateway/billing';

interface ConnectionFormProps {
  /** The profile being edited; a new one when absent. */
  profile?: Profile;
  /** Persist the profile; returns an error sentence when it could not be saved. */
  onSave(profile: Profile): Promise<string | undefined>;
  /** After a save: where the connection ended (the first run goes on to its first prompt). */
  onSaved?: (profile: Profile, models: number | undefined) => void;
}

type TestState = { state: 'idle' } | { state: 'testing' } | { state: 'ok'; count: number; firstModel?: string; balance?: Balance | null } | { state: 'failed'; error: StoredError };

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
  const w = useWords();
  // Notes keep their facts and are worded at render, so a language change re-words them.
  const [imported, setImported] = useState<{ ok: boolean; text: (w: Words) => string; warning?: (w: Words) => string } | undefined>();
  const [test, setTest] = useState<TestState>({ state: 'idle' });
  const [saveNote, setSaveNote] = useState<{ ok: boolean; text: (w: Words) => string } | undefined>();

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

  // Host access asked for by a Test (or a Save on its way) is this form's while it works on that
  // address: the background gives it back once the form saved it, moved to another origin, or
  // went away (unmounted, or its page closed) without saving.
  const access = useRef<{ holder: AccessHolder; origin?: string } | undefined>(undefined);
  useEffect(() => {
    const holder = gatewayAccessHolder();
    access.current = { holder };
    return () => holder.release();
  }, []);
  useEffect(() => {
    const held = access.current;
    if (held?.origin !== undefined && held.origin !== origin) {
      held.holder.release();
      held.origin = undefined;
    }
  }, [origin]);
  const holdAccess = (baseUrl: string): void => {
    const held = access.current;
    if (held === undefined) return;
    held.holder.hold(baseUrl);
    held.origin = originOf(baseUrl);
  };
  const releaseAccess = (): void => {
    const held = access.current;
    if (held === undefined) return;
    held.holder.release();
    held.origin = undefined;
  };

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
  const endpoint = resolved?.ok === true ? WIRE_INTERFACES[apiStyle].url(resolved, '{model}', true) : undefined;

  const doImport = (): void => {
    const result = importConnection(pasted);
    if (!result.ok) {
      setImported({ ok: false, text: (words) => importProblemText(words, result.problem, result.params) });
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
      setKeyCleared({ from: keyFor ?? origin ?? '', to: foundOrigin });
    }
    if (name === '' && found.siteUrl !== undefined) setName(new URL(found.siteUrl).host);
    const keyIssue = found.keyIssue;
    setImported({
      ok: true,
      text: (words) => {
        const parts = [
          found.baseUrl !== undefined ? words.t('connection.import.address', { address: found.baseUrl }) : undefined,
          found.apiKey !== undefined ? words.t('connection.import.key', { key: maskApiKey(found.apiKey) }) : undefined,
        ].filter((p) => p !== undefined);
        const missing = found.baseUrl === undefined ? words.t('connection.import.noAddress') : found.apiKey === undefined ? words.t('connection.import.noKey') : '';
        return `${words.t('connection.import.found', { source: importSourceText(words, found.source), parts: parts.join(words.t('connection.import.separator')) })}${missing === '' ? '' : ` ${missing}`}`;
      },
      ...(keyIssue === undefined ? {} : { warning: (words: Words) => keyIssueText(words, keyIssue) }),
    });
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
    // Asked first, while the click still counts as a user gesture (holding it first costs no time).
    holdAccess(draft.baseUrl);
    const granted = await requestGatewayAccess(draft.baseUrl);
    if (testRun.current !== run) return;
    if (!granted) {
      setTest({ state: 'failed', error: storedError(new GatewayError({ kind: 'network', url: endpointUrl(draft.baseUrl, '/models'), siteUrl: draft.siteUrl, detail: { code: 'access_not_granted', params: { origin: new URL(draft.baseUrl).origin } } })) });
      return;
    }
    setTest({ state: 'testing' });
    try {
      const client = createGatewayClient({ baseUrl: draft.baseUrl, siteUrl: draft.siteUrl, apiKey: draft.apiKey });
      const models = await client.listModels({ signal: run.controller.signal });
      if (testRun.current !== run) return;
      setSaveNote(undefined);
      const ok = { state: 'ok', count: models.length, firstModel: firstChatModel(models) } as const;
      setTest(ok);
      await saveCatalogue(profileId, draft.baseUrl, models);
      // The key's balance too, where the gateway tells it (it does not hold the test up).
      const balance = await client.getBalance({ signal: run.controller.signal }).catch(() => undefined);
      if (testRun.current !== run || balance === undefined) return;
      setTest({ ...ok, balance });
      await saveBalance({ id: profileId, baseUrl: draft.baseUrl, apiKey: draft.apiKey }, balance);
    } catch (error) {
      if (testRun.current !== run) return;
      setSaveNote(undefined);
      const e = error instanceof GatewayError ? error : new GatewayError({ kind: 'bad_response', url: endpointUrl(draft.baseUrl, '/models'), siteUrl: draft.siteUrl, detail: { code: 'internal', text: String(error) } });
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
    // Held until saved: the background must not give it back between the grant and the save.
    holdAccess(draft.baseUrl);
    const granted = await requestGatewayAccess(draft.baseUrl);
    if (!granted) {
      setSaveNote({ ok: false, text: (words) => words.t('connection.save.noAccess', { origin: new URL(draft.baseUrl).origin }) });
      return;
    }
    const failure = await onSave(draft);
    // One status per form: the save's replaces the test's.
    if (failure === undefined) {
      // Saved, the profile keeps the access in use.
      releaseAccess();
      onSaved?.(draft, test.state === 'ok' ? test.count : undefined);
      setTest({ state: 'idle' });
    }
    setSaveNote(failure === undefined ? { ok: true, text: (words) => words.t('connection.save.saved', { address: draft.baseUrl }) } : { ok: false, text: () => failure });
  };

  return (
    <form className="connection flex flex-col gap-4" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <section aria-label={w.t('connection.import.label')} className="flex flex-col gap-2 rounded-lg border border-dashed border-line-strong bg-surface p-3">
        <Field label={<span className="inline-flex items-center gap-1.5"><ClipboardPaste aria-hidden className="size-4 text-muted" />{w.t('connection.import.field')}</span>} hint={w.t('connection.import.hint')}>
          {(control) => <Textarea {...control} aria-label={w.t('connection.import.label')} rows={2} value={pasted} onChange={(e) => setPasted(e.target.value)} className="font-mono text-xs" />}
        </Field>
        <div className="flex items-center gap-2">
          <Button size="sm" onClick={doImport} disabled={pasted.trim() === ''}>{w.t('connection.import.button')}</Button>
        </div>
        {imported !== undefined && (
          <Callout role={imported.ok ? 'status' : 'alert'} tone={imported.ok ? 'success' : 'danger'} className={imported.ok ? 'ok' : 'problem'}>{imported.text(w)}</Callout>
        )}
        {imported?.warning !== undefined && <Callout role="alert" tone="warning" className="problem">{imported.warning(w)}</Callout>}
      </section>

      <Field label={w.t('connection.address')} error={resolved?.ok === false ? addressProblemText(w, resolved.error.problem, resolved.error.input, resolved.error.params) : undefined} hint={endpoint !== undefined ? <span role="note" aria-label={w.t('connection.endpoint')}>{w.t('connection.requestsGoTo')} <code>{endpoint}</code></span> : w.t('connection.addressHint')}>
        {(control) => <Input {...control} value={address} onChange={(e) => changeAddress(e.target.value)} placeholder={w.t('connection.addressPlaceholder')} spellCheck={false} autoComplete="off" />}
      </Field>
      {cleartext && (
        <Callout role="note" tone="warning" label={w.t('connection.cleartext.label')}>
          {w.t('connection.cleartext.text')}
        </Callout>
      )}

      <Field label={w.t('connection.key')} error={keyIssue === undefined ? undefined : keyIssueText(w, keyIssue)} hint={w.t('connection.keyHint')}>
        {(control) => (
          <div className="key-row flex gap-1.5">
            <Input {...control} type={reveal ? 'text' : 'password'} value={key} onChange={(e) => changeKey(e.target.value)} spellCheck={false} autoComplete="off" placeholder={w.t('connection.keyPlaceholder')} className="font-mono" />
            <IconButton variant="secondary" label={reveal ? w.t('connection.hideKey') : w.t('connection.showKey')} aria-pressed={reveal} icon={reveal ? <EyeOff aria-hidden /> : <Eye aria-hidden />} onClick={() => setReveal(!reveal)} />
          </div>
        )}
      </Field>
      {keyElsewhere !== undefined && (
        <Callout role="alert" tone="warning" label={w.t('connection.elsewhere.label')} className="key-elsewhere">
          <p>{w.t('connection.elsewhere.text', { from: keyElsewhere.from, to: keyElsewhere.to })}</p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => { setKey(''); setKeyCleared(keyElsewhere); }}>{w.t('connection.elsewhere.clear')}</Button>
            <Button size="sm" onClick={() => setKeyFor(keyElsewhere.to)}>{w.t('connection.elsewhere.keep')}</Button>
          </div>
        </Callout>
      )}
      {keyCleared !== undefined && key === '' && (
        <Callout role="status" tone="warning" className="problem">{keyCleared.from === '' ? w.t('connection.cleared.noFrom', { to: keyCleared.to }) : w.t('connection.cleared.text', { from: keyCleared.from, to: keyCleared.to })}</Callout>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={w.t('connection.name')} hint={w.t('connection.nameHint')}>
          {(control) => <Input {...control} value={name} onChange={(e) => setName(e.target.value)} placeholder={w.t('connection.namePlaceholder')} />}
        </Field>
        <Field label={w.t('connection.style')} hint={w.t('connection.styleHint')}>
          {(control) => (
            <NativeSelect {...control} value={apiStyle} onChange={(e) => setApiStyle(e.target.value as ApiStyle)}>
              <option value="chat">{w.t('connection.styleChat')}</option>
              <option value="responses">{w.t('connection.styleResponses')}</option>
              <option value="anthropic">{w.t('connection.styleAnthropic')}</option>
              <option value="gemini">{w.t('connection.styleGemini')}</option>
            </NativeSelect>
          )}
        </Field>
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void testConnection()} disabled={!ready || test.state === 'testing'}>
          {test.state === 'testing' ? <LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /> : <PlugZap aria-hidden />}{w.t('connection.test')}
        </Button>
        <Button type="submit" variant="primary" disabled={!ready}>{w.t('common.save')}</Button>
      </div>
      {test.state === 'testing' && <p role="status" className="text-sm text-muted">{w.t('connection.testing')}</p>}
      {test.state === 'ok' && (
        <Callout role="status" tone="success" className="ok" title={<span className="inline-flex items-center gap-1">{w.plural('connection.connected', test.count)}</span>}>
          {test.balance != null && <p className="test-balance">{w.t('balance.label', { amount: balanceText(w, test.balance) })}</p>}
        </Callout>
      )}
      {test.state === 'failed' && <ErrorCallout error={test.error} />}
      {confirmSave && test.state === 'failed' && (
        <Callout role="alert" tone="warning" label={w.t('connection.confirm.label')} title={w.t('connection.confirm.title')}>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="primary" onClick={() => void save(true)}>{w.t('connection.confirm.save')}</Button>
            <Button size="sm" onClick={() => setConfirmSave(false)}>{w.t('common.cancel')}</Button>
          </div>
        </Callout>
      )}
      {saveNote !== undefined && (
        <Callout role={saveNote.ok ? 'status' : 'alert'} tone={saveNote.ok ? 'success' : 'danger'} className={saveNote.ok ? 'ok' : 'problem'}>
          {saveNote.ok && <CircleCheck aria-hidden className="sr-only" />}{saveNote.text(w)}
        </Callout>
      )}
    </form>
  );
}
