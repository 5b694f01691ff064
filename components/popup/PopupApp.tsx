import { useEffect, useState } from 'react';
import { ChatView } from '@/components/chat/ChatView';
import { loadMarkdownRenderer } from '@/components/chat/Markdown';
import { conversationStore } from '@/components/data';
import { useSettings } from '@/components/hooks/useSettings';
import { ConnectionForm } from '@/components/settings/ConnectionForm';
import { SettingsProblem } from '@/components/settings/SettingsProblem';
import { ThemeSelect } from '@/components/settings/ThemeSelect';
import { useTheme } from '@/components/theme';
import { activeProfile, defaultSettings, type Profile } from '@/lib/settings/schema';
import { saveSettings } from '@/lib/settings/storage.adapter';
import { currentWindowId, openInSidePanel, openInTab } from '@/lib/surfaces/open.adapter';
import { browser } from 'wxt/browser';

/** First run: nothing set yet, so the popup is a short setup form. */
function FirstRun() {
  const save = async (profile: Profile): Promise<string | undefined> => {
    const result = await saveSettings({ ...defaultSettings(), profiles: [profile], activeProfileId: profile.id });
    return result.ok ? undefined : result.message;
  };
  return (
    <main aria-label="Set up" className="popup first-run">
      <h1>Connect your gateway</h1>
      <p>Paste what your gateway's keys page gave you, or enter its address and an API key. The key stays in this browser and goes only to that address.</p>
      <ConnectionForm onSave={save} />
      <p><button type="button" className="link" onClick={() => void browser.runtime.openOptionsPage()}>Open the full settings</button></p>
    </main>
  );
}

/** The popup: quick chat in the most recent popup conversation, or the first-run setup. */
export function PopupApp() {
  const parsed = useSettings();
  const [conversationId, setConversationId] = useState<string | undefined>();
  const [restored, setRestored] = useState(false);
  const [windowId, setWindowId] = useState<number | undefined>();
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);

  useEffect(() => {
    void conversationStore().latestConversation('popup').then((c) => {
      setConversationId(c?.id);
      setRestored(true);
    });
    void currentWindowId().then(setWindowId);
    // Fetch the markdown renderer once the popup is up, before the first reply needs it.
    const idle = setTimeout(() => void loadMarkdownRenderer(), 50);
    return () => clearTimeout(idle);
  }, []);

  if (parsed === undefined || !restored) return <main aria-label="Quick chat" aria-busy="true" className="popup" />;
  if (!parsed.ok) return <main aria-label="Quick chat" className="popup"><SettingsProblem message={parsed.message} /></main>;
  const profile = activeProfile(parsed.settings);
  if (profile === undefined) return <FirstRun />;

  return (
    <main aria-label="Quick chat" className="popup">
      <ChatView
        surface="popup"
        profile={profile}
        profiles={parsed.settings.profiles}
        conversationId={conversationId}
        onConversationChange={setConversationId}
        actions={
          <>
            <button type="button" onClick={() => void openInSidePanel(conversationId, windowId)}>Continue in side panel</button>
            <button type="button" onClick={() => void openInTab(conversationId)}>Open in a tab</button>
            <button type="button" onClick={() => void browser.runtime.openOptionsPage()}>Settings</button>
            <ThemeSelect settings={parsed.settings} />
          </>
        }
      />
    </main>
  );
}
