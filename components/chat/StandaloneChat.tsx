import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import { conversationStore } from '@/components/data';
import { useSettings } from '@/components/hooks/useSettings';
import type { Surface } from '@/lib/conversations/records';
import { activeProfile } from '@/lib/settings/schema';
import { SettingsProblem } from '@/components/settings/SettingsProblem';
import { ThemeSelect } from '@/components/settings/ThemeSelect';
import { useTheme } from '@/components/theme';
import { conversationFromLocation } from '@/lib/surfaces/open.adapter';
import { ChatView } from './ChatView';

const NAMES: Record<'chat', string> = { chat: 'Chat' };

/**
 * The full-tab chat page: the conversation named in the address (`?conversation=`, as "open
 * in a tab" passes it), else the most recent one started here.
 */
export function StandaloneChat({ surface }: { surface: Extract<Surface, 'chat'> }) {
  const parsed = useSettings();
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

  if (parsed === undefined || !restored) return <main aria-label={NAMES[surface]} aria-busy="true" />;
  const profile = activeProfile(parsed.settings);
  return (
    <main aria-label={NAMES[surface]} className={surface}>
      <h1 className="visually-hidden">Gateway Chat: {NAMES[surface]}</h1>
      {parsed.ok && <div className="surface-tools"><ThemeSelect settings={parsed.settings} /></div>}
      {!parsed.ok ? <SettingsProblem message={parsed.message} /> : profile === undefined
        ? <p>No gateway is set up yet. <button type="button" className="link" onClick={() => void browser.runtime.openOptionsPage()}>Open the settings</button> to add one.</p>
        : <ChatView surface={surface} profile={profile} profiles={parsed.settings.profiles} conversationId={conversationId} onConversationChange={change} />}
    </main>
  );
}
