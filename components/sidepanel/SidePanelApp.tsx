import { useEffect, useMemo, useState } from 'react';
import { browser } from 'wxt/browser';
import { CatalogueView } from '@/components/catalogue/CatalogueView';
import { ChatView } from '@/components/chat/ChatView';
import { ConversationList } from '@/components/conversations/ConversationList';
import { conversationStore } from '@/components/data';
import { useCatalogue } from '@/components/hooks/useCatalogue';
import { useSettings } from '@/components/hooks/useSettings';
import { SettingsProblem } from '@/components/settings/SettingsProblem';
import { ThemeSelect } from '@/components/settings/ThemeSelect';
import { useTheme } from '@/components/theme';
import { activeProfile, type Profile } from '@/lib/settings/schema';
import { conversationFromLocation } from '@/lib/surfaces/open.adapter';

type Tab = 'chat' | 'conversations' | 'catalogue';
const TABS: { id: Tab; label: string }[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'conversations', label: 'Conversations' },
  { id: 'catalogue', label: 'Catalogue' },
];

function Panel({ profile, profiles }: { profile: Profile; profiles: readonly Profile[] }) {
  const [tab, setTab] = useState<Tab>('chat');
  const [conversationId, setConversationId] = useState<string | undefined>(conversationFromLocation);
  const [restored, setRestored] = useState(conversationId !== undefined);
  const catalogue = useCatalogue(profile);
  const catalogueIds = useMemo(() => (catalogue.fetchedAt === undefined ? undefined : new Set(catalogue.models.map((m) => m.id))), [catalogue.models, catalogue.fetchedAt]);

  useEffect(() => {
    if (restored) return;
    void conversationStore().latestConversation('sidepanel').then((c) => {
      setConversationId(c?.id);
      setRestored(true);
    });
  }, [restored]);

  const open = (id: string | undefined): void => {
    setConversationId(id);
    setTab('chat');
    const url = new URL(location.href);
    if (id === undefined) url.searchParams.delete('conversation');
    else url.searchParams.set('conversation', id);
    history.replaceState(null, '', url);
  };

  return (
    <>
      <div role="tablist" aria-label="Side panel" className="tabs">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`panel-${t.id}`} onClick={() => setTab(t.id)}>{t.label}</button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
        {tab === 'chat' && restored && <ChatView surface="sidepanel" profile={profile} profiles={profiles} conversationId={conversationId} onConversationChange={open} />}
        {tab === 'conversations' && <ConversationList activeId={conversationId} catalogueIds={catalogueIds} onOpen={open} onNew={() => open(undefined)} />}
        {tab === 'catalogue' && <CatalogueView profile={profile} catalogue={catalogue} />}
      </div>
    </>
  );
}

/** The side panel: a conversation beside the page, every conversation, and the model catalogue. */
export function SidePanelApp() {
  const parsed = useSettings();
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);
  if (parsed === undefined) return <main aria-label="Side panel" aria-busy="true" />;
  const profile = activeProfile(parsed.settings);
  return (
    <main aria-label="Side panel" className="sidepanel">
      <h1 className="visually-hidden">Gateway Chat</h1>
      {parsed.ok && <div className="surface-tools"><ThemeSelect settings={parsed.settings} /></div>}
      {!parsed.ok ? <SettingsProblem message={parsed.message} /> : profile === undefined
        ? <p>No gateway is set up yet. <button type="button" className="link" onClick={() => void browser.runtime.openOptionsPage()}>Open the settings</button> to add one.</p>
        : <Panel profile={profile} profiles={parsed.settings.profiles} />}
    </main>
  );
}
