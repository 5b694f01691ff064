/**
 * The options page's "MCP servers" section (issue 33): remote servers whose tools models may
 * call. A server is added by its address (host access asked for that origin, in the click), with
 * no authentication or a bearer token (kept on this device, sent only to that server); its tools
 * are listed with their descriptions, and each can be switched off. A server that cannot be
 * reached, refuses its token or answers oddly is said so with its address and what to do.
 */
import { Plus, RefreshCw, Server, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useWords } from '@/components/i18n/words';
import { useToolConfig } from '@/components/stores/tools';
import { toolFailureText } from '@/components/tools/tool-words';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { Input } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { Switch } from '@/components/ui/Switch';
import { newId } from '@/lib/conversations/ids';
import { askBackground } from '@/lib/protocol/background.adapter';
import type { McpListingMessage } from '@/lib/protocol/messages';
import { requestGatewayAccess } from '@/lib/settings/permissions.adapter';
import type { McpServer } from '@/lib/tools/config';
import { updateToolConfig } from '@/lib/tools/config.adapter';
import { Section } from './Section';

type Listing = McpListingMessage | 'loading';

function httpAddress(text: string): URL | undefined {
  try {
    const url = new URL(text.trim());
    // A user name or password in the address would travel in every request and be kept in plain sight: the token field is for that.
    if (url.username !== '' || url.password !== '') return undefined;
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

async function listTools(serverId: string, fresh: boolean): Promise<McpListingMessage> {
  const answer = await askBackground({ type: 'tools.list', serverId, fresh });
  return answer.ok ? answer.listing : { ok: false, code: 'internal', params: { detail: answer.detail ?? answer.problem } };
}

async function signIn(serverId: string): Promise<McpListingMessage> {
  const answer = await askBackground({ type: 'tools.signIn', serverId });
  return answer.ok ? answer.listing : { ok: false, code: 'internal', params: { detail: answer.detail ?? answer.problem } };
}

function ServerCard({ server, listing, onReconnect, onSignIn }: { server: McpServer; listing: Listing | undefined; onReconnect(): void; onSignIn(): void }) {
  const w = useWords();
  const oauth = server.auth === 'oauth';
  const signedIn = oauth && server.oauth?.tokens !== undefined;
  const needsSignIn = oauth && listing !== undefined && listing !== 'loading' && !listing.ok && (listing.code === 'sign_in_needed' || listing.code === 'unauthorized');
  const toggle = (tool: string, on: boolean): void => {
    void updateToolConfig((config) => ({
      ...config,
      mcpServers: config.mcpServers.map((s) => (s.id !== server.id ? s : { ...s, disabledTools: on ? s.disabledTools.filter((t) => t !== tool) : [...new Set([...s.disabledTools, tool])] })),
    }));
  };
  const remove = (): void => {
    void updateToolConfig((config) => ({
      ...config,
      mcpServers: config.mcpServers.filter((s) => s.id !== server.id),
      alwaysAllow: config.alwaysAllow.filter((key) => !key.startsWith(`${server.id}:`)),
    }));
  };
  return (
    <li aria-label={server.name} className="mcp-server flex flex-col gap-2 rounded-md border border-line p-3">
      <div className="flex min-w-0 items-center gap-2.5">
        <span aria-hidden className="flex size-8 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent-soft-fg [&_svg]:size-4"><Server /></span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium">{server.name}</span>
          <span className="block truncate text-xs text-muted" title={server.url}>{server.url}</span>
        </span>
        {server.auth === 'bearer' && <Badge tone="neutral">{w.t('options.mcp.authBearer')}</Badge>}
        {signedIn && !needsSignIn && <Badge tone="success">{w.t('options.mcp.signedIn')}</Badge>}
        {oauth && <Button size="sm" variant={needsSignIn ? 'primary' : 'secondary'} onClick={onSignIn} disabled={listing === 'loading'}>{w.t('options.mcp.signIn', { name: server.name })}</Button>}
        <Button size="sm" aria-label={w.t('options.mcp.reconnect', { name: server.name })} onClick={onReconnect} disabled={listing === 'loading'}><RefreshCw aria-hidden /></Button>
        <Button size="sm" variant="danger" aria-label={w.t('options.mcp.remove', { name: server.name })} onClick={remove}><Trash2 aria-hidden /></Button>
      </div>
      {listing === 'loading' && <p role="status" className="text-xs text-muted">{w.t('options.mcp.checking', { name: server.name })}</p>}
      {listing !== undefined && listing !== 'loading' && !listing.ok && (
        <Callout role="alert" tone="danger">{w.t('options.mcp.failed', { why: toolFailureText(w, listing) })}</Callout>
      )}
      {listing !== undefined && listing !== 'loading' && listing.ok && (
        <>
          <p role="status" className="text-xs text-muted">{w.plural('options.mcp.connected', listing.tools.length, { transport: w.t(listing.transport === 'sse' ? 'options.mcp.transport.sse' : 'options.mcp.transport.streamableHttp') })}</p>
          {listing.tools.length === 0 ? <p className="text-xs text-muted">{w.t('options.mcp.noTools')}</p> : (
            <ul aria-label={w.t('options.mcp.tools', { name: server.name })} className="flex flex-col divide-y divide-line rounded-md border border-line">
              {listing.tools.map((tool) => (
                <li key={tool.name} className="flex items-start gap-3 px-3 py-2">
                  <span className="min-w-0 flex-1">
                    <span className="block font-mono text-xs font-medium">{tool.name}</span>
                    {tool.description !== '' && <span className="block text-xs text-muted">{tool.description}</span>}
                  </span>
                  <Switch aria-label={w.t('options.mcp.toolSwitch', { tool: tool.name })} checked={!server.disabledTools.includes(tool.name)} onCheckedChange={(on) => toggle(tool.name, on)} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </li>
  );
}

export function McpServersSection() {
  const w = useWords();
  const config = useToolConfig();
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [auth, setAuth] = useState<McpServer['auth']>('none');
  const [token, setToken] = useState('');
  const [error, setError] = useState<{ field: 'address' | 'token' | 'form'; text: string }>();
  const [adding, setAdding] = useState(false);
  const [listings, setListings] = useState<ReadonlyMap<string, Listing>>(new Map());
  const servers = config?.mcpServers ?? [];

  const asked = useRef(new Set<string>());
  const listed = (id: string, fresh: boolean): void => {
    asked.current.add(id);
    void listTools(id, fresh).then((listing) => setListings((now) => new Map(now).set(id, listing)));
  };
  const refresh = (id: string, fresh: boolean): void => {
    setListings((now) => new Map(now).set(id, 'loading'));
    listed(id, fresh);
  };
  // Each server's tools, once, as the page opens (and for a server that arrives from another page): shown as connecting until they come.
  const ids = servers.map((s) => s.id).join('\n');
  useEffect(() => {
    for (const id of ids.split('\n')) if (id !== '' && !asked.current.has(id)) listed(id, false);
  }, [ids]);

  const add = async (): Promise<void> => {
    const url = httpAddress(address);
    if (url === undefined) {
      setError({ field: 'address', text: w.t('options.mcp.badAddress') });
      return;
    }
    if (auth === 'bearer' && token.trim() === '') {
      setError({ field: 'token', text: w.t('options.mcp.noToken') });
      return;
    }
    // Asked first, in the click: the browser's prompt needs the user's gesture.
    const granted = await requestGatewayAccess(url.href);
    if (!granted) {
      setError({ field: 'form', text: w.t('options.mcp.accessDenied', { address: url.origin }) });
      return;
    }
    setAdding(true);
    setError(undefined);
    const id = newId();
    // Listed below, once saved: not again by the effect that lists servers as they arrive.
    asked.current.add(id);
    const server: McpServer = { id, url: url.href, name: name.trim() === '' ? url.host : name.trim(), auth, disabledTools: [], ...(auth === 'bearer' ? { token: token.trim() } : {}) };
    await updateToolConfig((now) => ({ ...now, mcpServers: [...now.mcpServers, server] }));
    setAddress('');
    setName('');
    setToken('');
    setAuth('none');
    setAdding(false);
    listed(server.id, true);
  };

  return (
    <Section id="mcp" title={w.t('options.section.mcp')} intro={w.t('options.mcp.intro')}>
      {servers.length === 0 ? <p className="text-sm text-muted">{w.t('options.mcp.empty')}</p> : (
        <ul aria-label={w.t('options.section.mcp')} className="flex flex-col gap-2">
          {servers.map((server) => (
            <ServerCard
              key={server.id} server={server} listing={listings.get(server.id) ?? 'loading'} onReconnect={() => refresh(server.id, true)}
              onSignIn={() => {
                setListings((now) => new Map(now).set(server.id, 'loading'));
                void signIn(server.id).then((listing) => setListings((now) => new Map(now).set(server.id, listing)));
              }}
            />
          ))}
        </ul>
      )}
      <form className="flex flex-col gap-3 border-t border-line pt-4" onSubmit={(e) => { e.preventDefault(); void add(); }}>
        <Field label={w.t('options.mcp.address')} hint={w.t('options.mcp.addressHint')} {...(error?.field === 'address' ? { error: error.text } : {})}>
          {(control) => <Input {...control} type="url" inputMode="url" spellCheck={false} autoComplete="off" placeholder={w.t('options.mcp.addressPlaceholder')} value={address} onChange={(e) => setAddress(e.target.value)} />}
        </Field>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label={w.t('options.mcp.name')}>
            {(control) => <Input {...control} placeholder={w.t('options.mcp.namePlaceholder')} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label={w.t('options.mcp.auth')}>
            {(control) => (
              <NativeSelect {...control} value={auth} onChange={(e) => setAuth(e.target.value === 'bearer' ? 'bearer' : e.target.value === 'oauth' ? 'oauth' : 'none')}>
                <option value="none">{w.t('options.mcp.authNone')}</option>
                <option value="bearer">{w.t('options.mcp.authBearer')}</option>
                <option value="oauth">{w.t('options.mcp.authOauth')}</option>
              </NativeSelect>
            )}
          </Field>
        </div>
        {auth === 'bearer' && (
          <Field label={w.t('options.mcp.token')} {...(error?.field === 'token' ? { error: error.text } : {})}>
            {(control) => <Input {...control} type="password" autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />}
          </Field>
        )}
        {auth === 'oauth' && <p className="text-xs text-muted">{w.t('options.mcp.oauthHint')}</p>}
        {error?.field === 'form' && <Callout role="alert" tone="danger">{error.text}</Callout>}
        <div><Button type="submit" variant="primary" disabled={adding}><Plus aria-hidden />{adding ? w.t('options.mcp.adding') : w.t('options.mcp.add')}</Button></div>
      </form>
    </Section>
  );
}
