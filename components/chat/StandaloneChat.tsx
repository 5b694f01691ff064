import { useEffect, useState } from 'react';
import { conversationStore } from '@/components/data';
import { useSettings } from '@/components/hooks/useSettings';
import type { Surface } from '@/lib/conversations/records';
import { activeProfile } from '@/lib/settings/schema';
import { SettingsProblem } from '@/components/settings/SettingsProblem';
import { NoGateway } from '@/components/sidepanel/SidePanelApp';
import { SurfaceMenu } from '@/components/surface/SurfaceMenu';
import { ConversationList } from '@/components/conversations/ConversationList';
import { Waypoints } from 'lucide-react';
import { useTheme } from '@/components/theme';
import { conversationFromLocation } from '@/lib/surfaces/open.adapter';
import { ChatView } from './ChatView';
import { useDocumentTitle, useWords } from '@/components/i18n/words';

/**
 * The full-tab chat page: the conversation named in the address (`?conversation=`, as "open
 * in a tab" passes it), else the most recent one started here.
 */
export function StandaloneChat({ surface }: { surface: Extract<Surface, 'chat'> }) {
  const parsed = useSettings();
  const w = useWords();
  const name = w.t('chatPage.name');
  useDocumentTitle(w.t('app.name'));
  const [conversationId, setConversationId] = useState<string | undefined>(conversationFromLocation);
  const [restored, setRestored] = useState(conversationId !== undefined);
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);

  useEffect(() => {
    if (restored) return;
    void conversationStore().latestConversation(surface).then((c) => {
      setConversationId(c?.id);
      setRestored(true);
    });
  }, [restored, surface]);

  const change = (id: string | undefined): void => {
    setConversationId(id);
    const url = new URL(location.href);
    if (id === undefined) url.searchParams.delete('conversation');
    else url.searchParams.set('conversation', id);
    history.replaceState(null, '', url);
  };

  if (parsed === undefined || !restored) return <main aria-label={name} aria-busy="true" className="h-screen" />;
  const profile = activeProfile(parsed.settings);
  return (
    <div className="flex h-screen">
      {/* The conversation rail: every conversation, the open one marked. */}
      {parsed.ok && profile !== undefined && (
        <nav aria-label={w.t('conversations.label')} className="hidden w-72 shrink-0 flex-col border-r border-line bg-surface md:flex">
          <div className="flex h-[45px] shrink-0 items-center gap-2 border-b border-line px-3">
            <span aria-hidden className="flex size-6 items-center justify-center rounded-md bg-accent text-accent-fg"><Waypoints className="size-3.5" /></span>
            <span className="text-sm font-semibold">{w.t('app.name')}</span>
          </div>
          <ConversationList activeId={conversationId} onOpen={change} onNew={() => change(undefined)} />
        </nav>
      )}
      <main aria-label={name} className={`${surface} flex min-w-0 flex-1 flex-col`}>
        <h1 className="sr-only">{w.t('chatPage.heading')}</h1>
        {!parsed.ok ? <SettingsProblem problem={parsed.problem} params={parsed.params} /> : profile === undefined
          ? <NoGateway />
          : <ChatView surface={surface} profile={profile} profiles={parsed.settings.profiles} conversationId={conversationId} onConversationChange={change} actions={<SurfaceMenu settings={parsed.settings} />} />}
      </main>
    </div>
  );
}
