import { Boxes, History, MessageSquare } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { SurfaceMenu } from '@/components/surface/SurfaceMenu';
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from '@/components/ui/Tabs';
import { CatalogueView } from '@/components/catalogue/CatalogueView';
import { ChatView } from '@/components/chat/ChatView';
import { ConversationList } from '@/components/conversations/ConversationList';
import { latestConversationId, preloadConversation } from '@/components/data';
import { useCatalogue } from '@/components/stores/catalogue';
import { useSettings } from '@/components/stores/settings';
import { SettingsProblem } from '@/components/settings/SettingsProblem';
import { NoGateway } from '@/components/surface/NoGateway';
import { useTheme } from '@/components/theme';
import { activeProfile, type Profile, type Settings } from '@/lib/settings/schema';
import { conversationFromLocation } from '@/lib/surfaces/open.adapter';
import { useDocumentTitle, useWords } from '@/components/i18n/words';

type Tab = 'chat' | 'conversations' | 'catalogue';
const TABS: { id: Tab; icon: React.ReactNode }[] = [
  { id: 'chat', icon: <MessageSquare aria-hidden /> },
  { id: 'conversations', icon: <History aria-hidden /> },
  { id: 'catalogue', icon: <Boxes aria-hidden /> },
];

function Panel({ profile, settings }: { profile: Profile; settings: Settings }) {
  const w = useWords();
  const profiles = settings.profiles;
  const [tab, setTab] = useState<Tab>('chat');
  const [conversationId, setConversationId] = useState<string | undefined>(conversationFromLocation);
  const [restored, setRestored] = useState(conversationId !== undefined);
  const catalogue = useCatalogue(profile);
  const catalogueIds = useMemo(() => (catalogue.fetchedAt === undefined ? undefined : new Set(catalogue.models.map((m) => m.id))), [catalogue.models, catalogue.fetchedAt]);

  useEffect(() => {
    if (restored) return;
    void latestConversationId('sidepanel').then((id) => {
      setConversationId(id);
      setRestored(true);
    });
  }, [restored]);

  const [focus, setFocus] = useState<{ messageId: string; nonce: number }>();
  const open = (id: string | undefined, messageId?: string): void => {
    // Its messages are read from now (if a press on its row has not started that already).
    if (id !== undefined) preloadConversation(id);
    setConversationId(id);
    setFocus(messageId === undefined ? undefined : { messageId, nonce: Date.now() });
    setTab('chat');
    const url = new URL(location.href);
    if (id === undefined) url.searchParams.delete('conversation');
    else url.searchParams.set('conversation', id);
    history.replaceState(null, '', url);
  };

  return (
    <TabsRoot value={tab} onValueChange={(v) => setTab(v as Tab)} className="flex min-h-0 flex-1 flex-col">
      <div className="flex shrink-0 items-center border-b border-line pr-1">
        <TabsList aria-label={w.t('sidepanel.label')} className="flex-1 border-b-0">
          {TABS.map((t) => <TabsTrigger key={t.id} value={t.id}>{t.icon}{w.t(`sidepanel.tab.${t.id}`)}</TabsTrigger>)}
        </TabsList>
        <SurfaceMenu settings={settings} />
      </div>
      <TabsContent value="chat">
        {restored && <ChatView surface="sidepanel" canCompare canAskPage profile={profile} profiles={profiles} conversationId={conversationId} onConversationChange={open} {...(focus === undefined ? {} : { focus })} />}
      </TabsContent>
      <TabsContent value="conversations">
        <ConversationList activeId={conversationId} catalogueIds={catalogueIds} onOpen={open} onNew={() => open(undefined)} />
      </TabsContent>
      <TabsContent value="catalogue">
        <CatalogueView profile={profile} catalogue={catalogue} />
      </TabsContent>
    </TabsRoot>
  );
}

/** The side panel: a conversation beside the page, every conversation, and the model catalogue. */
export function SidePanelApp() {
  const parsed = useSettings();
  const w = useWords();
  useDocumentTitle(w.t('sidepanel.title'));
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);
  if (parsed === undefined) return <main aria-label={w.t('sidepanel.label')} aria-busy="true" className="sidepanel h-screen" />;
  const profile = activeProfile(parsed.settings);
  return (
    <main aria-label={w.t('sidepanel.label')} className="sidepanel flex h-screen flex-col">
      <h1 className="sr-only">{w.t('app.name')}</h1>
      {!parsed.ok ? <SettingsProblem problem={parsed.problem} params={parsed.params} /> : profile === undefined
        ? <NoGateway />
        : <Panel profile={profile} settings={parsed.settings} />}
    </main>
  );
}
