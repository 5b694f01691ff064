import { startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Images, Keyboard } from 'lucide-react';
import { Dialog } from '@/components/ui/Dialog';
import { IconButton } from '@/components/ui/IconButton';
import type { CommandPaletteProps, PaletteCommand } from '@/components/workspace/CommandPalette';
import { ShortcutsList } from '@/components/workspace/ShortcutsList';
import { deferred } from '@/components/ui/deferred';
import { ExportButton, ImportButton } from '@/components/workspace/TransferDialogs';
import { loadCatalogue } from '@/lib/settings/storage.adapter';
import { latestConversationId, preloadConversation } from '@/components/data';
import { useSettings } from '@/components/stores/settings';
import type { Surface } from '@/lib/conversations/records';
import { activeProfile } from '@/lib/settings/schema';
import { SettingsProblem } from '@/components/settings/SettingsProblem';
import { NoGateway } from '@/components/surface/NoGateway';
import { SurfaceMenu } from '@/components/surface/SurfaceMenu';
import { SyncIndicator } from '@/components/sync/SyncIndicator';
import { ConversationList } from '@/components/conversations/ConversationList';
import { useConversationList } from '@/components/stores/conversations';
import { Waypoints } from 'lucide-react';
import { useTheme } from '@/components/theme';
import { conversationFromLocation } from '@/lib/surfaces/open.adapter';
import { ChatView } from './ChatView';
import { lazyWithWords, useDocumentTitle, useWords } from '@/components/i18n/words';

/** The palette's code (cmdk, its dialog) arrives on Ctrl/Cmd+K, or when the page is idle. */
const palette = deferred<CommandPaletteProps>(() => import('@/components/workspace/CommandPalette').then((m) => m.CommandPalette), (props) => props.open);
export const preloadCommandPalette = palette.preload;
/** The Images view (issue 30): its code arrives when it is first opened. */
const ImagesView = lazyWithWords(() => import('@/components/images/ImagesView'));

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
  const [focus, setFocus] = useState<{ messageId: string; nonce: number }>();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [pickedModel, setPickedModel] = useState<{ model: string; nonce: number }>();
  const [models, setModels] = useState<string[]>([]);
  const rail = useRef<HTMLElement>(null);
  const listed = useConversationList((s) => s.conversations !== undefined && s.conversations.length > 0);
  const search = useRef<HTMLInputElement>(null);
  // The main area shows the conversation, or every generated image.
  const [showImages, setShowImages] = useState(false);

  useEffect(() => {
    if (restored) return;
    void latestConversationId(surface).then((id) => {
      setConversationId(id);
      setRestored(true);
    });
  }, [restored, surface]);

  const change = useCallback((id: string | undefined): void => {
    setConversationId(id);
    const url = new URL(location.href);
    if (id === undefined) url.searchParams.delete('conversation');
    else url.searchParams.set('conversation', id);
    history.replaceState(null, '', url);
  }, []);

  const open = useCallback((id: string | undefined, messageId?: string): void => {
    // Its messages are read from now (if a press on its row has not started that already).
    if (id !== undefined) preloadConversation(id);
    // Drawn in a transition: the click's own task ends at once, and the reads started above (its
    // messages, its renderings) go on while the page draws the change.
    startTransition(() => {
      setShowImages(false);
      change(id);
      setFocus(messageId === undefined ? undefined : { messageId, nonce: Date.now() });
    });
  }, [change]);

  // The page's keys: Ctrl/Cmd+K the palette, Ctrl/Cmd+Shift+O a new conversation, ? the list of them.
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && !event.shiftKey && key === 'k') {
        event.preventDefault();
        setPaletteOpen(true);
      } else if (mod && event.shiftKey && key === 'o') {
        event.preventDefault();
        open(undefined);
      } else if (event.key === '?' && !mod) {
        const target = event.target as HTMLElement | null;
        if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]') != null) return;
        event.preventDefault();
        setShortcutsOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const profileForModels = parsed?.ok === true ? activeProfile(parsed.settings) : undefined;
  const profileIdForModels = profileForModels?.id;
  useEffect(() => {
    if (!paletteOpen || profileIdForModels === undefined) return;
    void loadCatalogue(profileIdForModels).then((c) => setModels(c?.models.map((m) => m.id) ?? []));
  }, [paletteOpen, profileIdForModels]);

  const commands = useMemo((): PaletteCommand[] => [
    { id: 'new', run: () => open(undefined) },
    { id: 'images', run: () => setShowImages(true) },
    { id: 'export', run: () => rail.current?.querySelector<HTMLButtonElement>('button[data-command="export"]')?.click() },
    { id: 'import', run: () => rail.current?.querySelector<HTMLButtonElement>('button[data-command="import"]')?.click() },
    { id: 'shortcuts', run: () => setShortcutsOpen(true) },
    { id: 'options', run: () => void browser.runtime.openOptionsPage() },
  ], [open]);

  const profile = parsed === undefined ? undefined : activeProfile(parsed.settings);
  return (
    <div className="flex h-screen">
      {/* The conversation rail: every conversation, the open one marked. Drawn while the
          settings are read too when there are conversations to show (its rows do not need them). */}
      {(parsed === undefined ? listed : parsed.ok && profile !== undefined) && (
        <nav ref={rail} aria-label={w.t('conversations.label')} className="hidden w-80 shrink-0 flex-col border-r border-line bg-surface md:flex">
          <div className="flex h-[45px] shrink-0 items-center gap-2 border-b border-line px-3">
            <span aria-hidden className="flex size-6 items-center justify-center rounded-md bg-accent text-accent-fg"><Waypoints className="size-3.5" /></span>
            <span className="text-sm font-semibold">{w.t('app.name')}</span>
            <span className="ml-auto flex items-center gap-0.5">
              <IconButton size="sm" label={w.t('images.view.button')} tip={w.t('images.view.buttonTip')} aria-pressed={showImages} className="aria-pressed:bg-accent-soft aria-pressed:text-accent-soft-fg" icon={<Images aria-hidden />} onClick={() => setShowImages((on) => !on)} />
              <IconButton size="sm" label={w.t('shortcuts.title')} icon={<Keyboard aria-hidden />} onClick={() => setShortcutsOpen(true)} />
            </span>
          </div>
          <ConversationList
            activeId={conversationId} onOpen={open} onNew={() => open(undefined)} searchRef={search}
            tools={parsed !== undefined && profile !== undefined && <><ExportButton profiles={parsed.settings.profiles} openConversationId={conversationId} /><ImportButton profileId={profile.id} profiles={parsed.settings.profiles} /></>}
          />
        </nav>
      )}
      <main aria-label={name} className={`${surface} flex min-w-0 flex-1 flex-col`}>
        <h1 className="sr-only">{w.t('chatPage.heading')}</h1>
        {parsed === undefined ? <div aria-busy="true" className="flex-1" /> : !parsed.ok ? <SettingsProblem problem={parsed.problem} params={parsed.params} /> : profile === undefined
          ? <NoGateway />
          // The rail is drawn meanwhile: the conversation waits for the one to reopen.
          : !restored ? <div aria-busy="true" className="flex-1" /> : showImages
            ? <Suspense fallback={<div aria-busy="true" className="flex-1" />}><ImagesView onOpen={open} /></Suspense>
            : <ChatView surface={surface} canCompare profile={profile} profiles={parsed.settings.profiles} conversationId={conversationId} onConversationChange={change} actions={<><SyncIndicator /><SurfaceMenu settings={parsed.settings} /></>} {...(focus === undefined ? {} : { focus })} {...(pickedModel === undefined ? {} : { pickedModel })} />}
      </main>
      <palette.View open={paletteOpen} onOpenChange={setPaletteOpen} onOpenConversation={open} commands={commands} models={models} onModel={(model) => setPickedModel({ model, nonce: Date.now() })} />
      <Dialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} title={w.t('shortcuts.title')}>
        <ShortcutsList />
      </Dialog>
    </div>
  );
}
