/**
 * The options page's "Tools" section (issue 33): the web-search provider (a SearXNG address, or
 * Brave, Tavily or Exa with the user's own key, kept on this device and sent only to that
 * provider), what runs without asking (never anything by default), and how many tool steps a
 * reply takes before every call asks again.
 */
import { useState } from 'react';
import { useWords } from '@/components/i18n/words';
import { useToolConfig } from '@/components/stores/tools';
import { toolName } from '@/components/tools/tool-words';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { Input } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { Switch } from '@/components/ui/Switch';
import { requestGatewayAccess } from '@/lib/settings/permissions.adapter';
import { MAX_TOOL_STEPS, SEARCH_ENDPOINTS, SEARCH_PROVIDERS, type SearchProvider, type ToolConfig } from '@/lib/tools/config';
import { updateToolConfig } from '@/lib/tools/config.adapter';
import { BUILTIN_SOURCE, toolKey } from '@/lib/tools/types';
import { Section } from './Section';

const PRE_ALLOWABLE = ['read_page', 'web_search'] as const;

export function ToolsSection() {
  const w = useWords();
  const config = useToolConfig();
  if (config === undefined) return <Section id="tools" title={w.t('options.section.tools')} intro={w.t('options.tools.intro')}><p className="text-sm text-muted">{w.t('common.loading')}</p></Section>;
  return <ToolsForm config={config} />;
}

/** The form, its fields starting from the stored config (switches apply at once; the rest on "Save tools"). */
function ToolsForm({ config }: { config: ToolConfig }) {
  const w = useWords();
  const [provider, setProvider] = useState<SearchProvider>(config.search.provider);
  const [address, setAddress] = useState(config.search.address ?? '');
  const [key, setKey] = useState(config.search.key ?? '');
  const [steps, setSteps] = useState(String(config.maxSteps));
  const [note, setNote] = useState<{ ok: boolean; text: string }>();

  const providerName = w.t(`options.tools.providers.${provider}`);
  const stepsValue = Number(steps);
  const stepsOk = Number.isInteger(stepsValue) && stepsValue >= MAX_TOOL_STEPS.min && stepsValue <= MAX_TOOL_STEPS.max;
  const addressOk = provider !== 'searxng' || /^https?:\/\/[^/]/.test(address.trim());
  const keyed = provider === 'brave' || provider === 'tavily' || provider === 'exa';
  const keyOk = !keyed || key.trim() !== '';

  const save = async (): Promise<void> => {
    if (!stepsOk || !addressOk || !keyOk) return;
    const target = provider === 'searxng' ? address.trim() : keyed ? SEARCH_ENDPOINTS[provider] : undefined;
    // Asked first, in the click: the browser's prompt needs the user's gesture.
    if (target !== undefined && !(await requestGatewayAccess(target))) {
      setNote({ ok: false, text: w.t('options.tools.accessDenied', { address: new URL(target).origin }) });
      return;
    }
    await updateToolConfig((now) => ({
      ...now,
      maxSteps: stepsValue,
      search: {
        provider,
        ...(provider === 'searxng' ? { address: address.trim() } : {}),
        ...(keyed ? { key: key.trim() } : {}),
      },
    }));
    setNote({ ok: true, text: w.t('options.tools.saved') });
  };

  const preAllowed = (tool: string): boolean => config.alwaysAllow.includes(toolKey(BUILTIN_SOURCE, tool));
  const setPreAllowed = (tool: string, on: boolean): void => {
    const keyOf = toolKey(BUILTIN_SOURCE, tool);
    void updateToolConfig((now) => ({ ...now, alwaysAllow: on ? [...new Set([...now.alwaysAllow, keyOf])] : now.alwaysAllow.filter((k) => k !== keyOf) }));
  };
  const others = config.alwaysAllow.filter((k) => !PRE_ALLOWABLE.some((t) => k === toolKey(BUILTIN_SOURCE, t)));
  const serverName = (k: string): string => {
    const [source = '', ...rest] = k.split(':');
    const tool = rest.join(':');
    const server = config.mcpServers.find((s) => s.id === source);
    return server === undefined ? toolName(w, { source, tool }) : `${server.name}: ${tool}`;
  };

  return (
    <Section id="tools" title={w.t('options.section.tools')} intro={w.t('options.tools.intro')}>
      <form className="flex flex-col gap-4" onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <Field label={w.t('options.tools.provider')} {...(provider === 'gateway' ? { hint: w.t('options.tools.gatewayHint') } : {})}>
          {(control) => (
            <NativeSelect {...control} value={provider} onChange={(e) => setProvider(e.target.value as SearchProvider)}>
              {SEARCH_PROVIDERS.map((p) => <option key={p} value={p}>{w.t(`options.tools.providers.${p}`)}</option>)}
            </NativeSelect>
          )}
        </Field>
        {provider === 'searxng' && (
          <Field label={w.t('options.tools.address')} hint={w.t('options.tools.addressHint')} {...(addressOk ? {} : { error: w.t('options.tools.badAddress') })}>
            {(control) => <Input {...control} type="url" spellCheck={false} placeholder={w.t('options.tools.addressPlaceholder')} value={address} onChange={(e) => setAddress(e.target.value)} />}
          </Field>
        )}
        {keyed && (
          <Field label={w.t('options.tools.key')} hint={w.t('options.tools.keyHint', { provider: providerName })} {...(keyOk ? {} : { error: w.t('options.tools.noKey', { provider: providerName }) })}>
            {(control) => <Input {...control} type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} />}
          </Field>
        )}
        <Field label={w.t('options.tools.maxSteps')} hint={w.t('options.tools.maxStepsHint', { min: MAX_TOOL_STEPS.min, max: MAX_TOOL_STEPS.max })}>
          {(control) => <Input {...control} type="number" min={MAX_TOOL_STEPS.min} max={MAX_TOOL_STEPS.max} className="!w-28" value={steps} onChange={(e) => setSteps(e.target.value)} />}
        </Field>
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={!stepsOk || !addressOk || !keyOk}>{w.t('options.tools.save')}</Button>
          {note !== undefined && <span role={note.ok ? 'status' : 'alert'} className={note.ok ? 'text-sm text-success' : 'text-sm text-danger'}>{note.text}</span>}
        </div>
      </form>
      <div role="group" aria-labelledby="tools-pre-allow" className="flex flex-col gap-2 border-t border-line pt-4">
        <h3 id="tools-pre-allow" className="text-sm font-semibold">{w.t('options.tools.preAllow')}</h3>
        <p className="text-xs text-muted">{w.t('options.tools.preAllowHint')}</p>
        {PRE_ALLOWABLE.map((tool) => (
          <Field key={tool} inline label={w.t(`tools.names.${tool}`)}>
            {(control) => <Switch {...control} checked={preAllowed(tool)} onCheckedChange={(on) => setPreAllowed(tool, on)} />}
          </Field>
        ))}
        {others.length > 0 && (
          <Callout tone="info" className="mt-1">
            <p>{w.t('options.tools.alwaysAllowed', { tools: others.map(serverName).join(', ') })}</p>
            <Button size="sm" className="mt-1.5" onClick={() => void updateToolConfig((now) => ({ ...now, alwaysAllow: now.alwaysAllow.filter((k) => !others.includes(k)) }))}>{w.t('options.tools.forget')}</Button>
          </Callout>
        )}
      </div>
    </Section>
  );
}
