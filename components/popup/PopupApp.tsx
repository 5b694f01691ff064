import { AppWindow, PanelRight, Settings as SettingsIcon } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { ChatView } from '@/components/chat/ChatView';
import { startRenderer } from '@/components/chat/Markdown';
import { latestConversationId } from '@/components/data';
import { useSettings } from '@/components/stores/settings';
import { SurfaceMenu } from '@/components/surface/SurfaceMenu';
import { useTheme } from '@/components/theme';
import { preloadComboboxList } from '@/components/ui/Combobox';
import { IconButton } from '@/components/ui/IconButton';
import { activeProfile } from '@/lib/settings/schema';
import { currentWindowId, openInSidePanel, openInTab } from '@/lib/surfaces/open.adapter';
import { browser } from 'wxt/browser';
import { lazyWithWords, useWords } from '@/components/i18n/words';


/** Only a new user needs the setup form: its code is fetched only then. */
const FirstRun = lazyWithWords(() => import('./FirstRun'));
/** Only stored settings that cannot be read need this (found out once they are read). */
const SettingsProblem = lazyWithWords(() => import('@/components/settings/SettingsProblem').then((m) => ({ default: m.SettingsProblem })));

/** The popup: quick chat in the most recent popup conversation, or the first-run setup. */
export function PopupApp() {
  const parsed = useSettings();
  const w = useWords();
  const [conversationId, setConversationId] = useState<string | undefined>();
  const [restored, setRestored] = useState(false);
  const [windowId, setWindowId] = useState<number | undefined>();
  /** Set when setup has just ended: the chat greets with the connection and a first prompt. */
  const [connected, setConnected] = useState<{ models: number | undefined } | undefined>();
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);

  useEffect(() => {
    void latestConversationId('popup').then((id) => {
      setConversationId(id);
      setRestored(true);
    });
    void currentWindowId().then(setWindowId);
    // Start the render worker and fetch the model list once the popup is up, before they are needed.
    const idle = setTimeout(() => {
      startRenderer();
      preloadComboboxList();
    }, 50);
    return () => clearTimeout(idle);
  }, []);

  if (parsed === undefined || !restored) return <main aria-label={w.t('popup.label')} aria-busy="true" className="popup h-[600px] w-[400px]" />;
  if (!parsed.ok) return <main aria-label={w.t('popup.label')} className="popup w-[400px]"><Suspense fallback={null}><SettingsProblem problem={parsed.problem} params={parsed.params} /></Suspense></main>;
  const profile = activeProfile(parsed.settings);
  if (profile === undefined) {
    return (
      <Suspense fallback={<main aria-label={w.t('firstRun.label')} aria-busy="true" className="popup h-[600px] w-[400px]" />}>
        <FirstRun onConnected={(models) => setConnected({ models })} />
      </Suspense>
    );
  }

  return (
    <main aria-label={w.t('popup.label')} className="popup flex h-[600px] w-[400px] flex-col">
      {connected !== undefined && conversationId === undefined && (
        <p role="status" className="flex shrink-0 items-center gap-1.5 bg-success-soft px-3 py-1.5 text-xs font-medium text-success">
          {connected.models !== undefined ? w.plural('popup.connectedModels', connected.models) : w.t('popup.connected')}
        </p>
      )}
      <ChatView
        surface="popup"
        canAskPage
        profile={profile}
        profiles={parsed.settings.profiles}
        conversationId={conversationId}
        onConversationChange={setConversationId}
        suggestions={connected !== undefined ? [w.t('popup.firstPrompt')] : []}
        actions={
          <>
            <IconButton size="sm" label={w.t('popup.continueInPanel')} icon={<PanelRight aria-hidden />} onClick={() => void openInSidePanel(conversationId, windowId)} />
            <IconButton size="sm" label={w.t('popup.openInTab')} icon={<AppWindow aria-hidden />} onClick={() => void openInTab(conversationId)} />
            <IconButton size="sm" label={w.t('popup.settings')} icon={<SettingsIcon aria-hidden />} onClick={() => void browser.runtime.openOptionsPage()} />
            <SurfaceMenu settings={parsed.settings} />
          </>
        }
      />
    </main>
  );
}
