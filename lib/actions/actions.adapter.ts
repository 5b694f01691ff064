/**
 * The background's side of the actions: the context menu kept in step with the settings,
 * its clicks, and the shortcut that runs the first action. The side panel opens first, in the
 * same tick as the click or keystroke (the browser allows it only then), on a conversation id
 * chosen at once; the run fills that conversation a moment later.
 */
import { browser } from 'wxt/browser';
import { type ConversationStore } from '../conversations/store';
import { newId } from '../conversations/ids';
import { RunError, type RunManager } from '../runs/run-manager';
import { openInSidePanel } from '../surfaces/open.adapter';
import { activeProfile, type Settings } from '../settings/schema';
import { ACTION_PREFIX, ASK_PAGE_ID, MenuSync, buildMenu, type MenuEntry } from './menu';
import { readTab } from '../page/page.adapter';
import { LATE, PAGE_READ_DEADLINE_MS, readLimitFor, within } from '../page/page-access';
import { askAboutPage } from '../page/ask-page';
import type { Surface } from '../conversations/records';
import { resolveLocale } from '../i18n/locale';
import { ensureLocale, wordsFor, type Words } from '../i18n/messages';
import { actionLanguage, recordActionRefusal, startAction } from './run-action';

export interface ActionsDeps {
  runs: RunManager;
  store: ConversationStore;
  loadSettings(): Promise<Settings>;
  watchSettings(onChange: (settings: Settings) => void): void;
}

interface TabLike {
  id?: number;
  windowId?: number;
  title?: string;
  url?: string;
}

/** The user's languages as the pages see them (navigator.languages), so every part agrees. */
function browserLanguages(): string[] {
  return [...navigator.languages, browser.i18n?.getUILanguage?.() ?? ''].filter((tag) => tag !== '');
}

/** The interface's words for these settings: the user's language choice, else the browser's. */
export async function backgroundWords(settings: Settings): Promise<Words> {
  const locale = resolveLocale(settings.appearance.language, browserLanguages());
  await ensureLocale(locale);
  return wordsFor(locale);
}

/**
 * The whole selection, read from the page on the user's click (activeTab); the menu's copy is a
 * fallback, also when the page is too busy to answer in time.
 */
async function readSelection(tabId: number | undefined, frameId: number | undefined): Promise<string | undefined> {
  if (tabId === undefined) return undefined;
  try {
    const read = await within(PAGE_READ_DEADLINE_MS, browser.scripting.executeScript({
      target: frameId === undefined || frameId === 0 ? { tabId } : { tabId, frameIds: [frameId] },
      func: () => globalThis.getSelection()?.toString() ?? '',
    }));
    if (read === LATE) return undefined;
    const [result] = read;
    return typeof result?.result === 'string' ? result.result : undefined;
  } catch {
    // Browser pages, the PDF viewer, the web store: no script may run there.
    return undefined;
  }
}

/** A question about the page in a tab, from a page (the popup, the side panel) or the menu and its shortcut. */
export interface AskPageInput {
  surface: Surface;
  tabId: number | undefined;
  question: string;
  conversationId: string;
  profileId?: string | undefined;
  model?: string | undefined;
  /** Run this action on the page instead (its selection, else its main text): the composer's `/` with nothing typed. */
  actionId?: string | undefined;
}

export function wireActions(deps: ActionsDeps) {
  const sync = new MenuSync({
    removeAll: () => browser.contextMenus.removeAll(),
    create: (entry: MenuEntry) => {
      browser.contextMenus.create(entry);
    },
  });
  let menu: MenuEntry[] = [];
  const rebuild = async (settings: Settings): Promise<void> => {
    const profile = activeProfile(settings);
    const words = await backgroundWords(settings);
    menu = buildMenu(settings.actions, {
      model: profile?.actionModel ?? profile?.defaultModel,
      language: actionLanguage(settings, words),
      words,
    });
    return sync.apply(menu);
  };

  /**
   * A menu choice or a shortcut: the side panel opens at once on a new conversation, which
   * `start` fills; what could not start lands there as a note saying what to do.
   */
  const inPanel = async (tab: TabLike | undefined, start: (conversationId: string) => Promise<unknown>): Promise<string> => {
    const conversationId = newId();
    const opened = openInSidePanel(conversationId, tab?.windowId);
    try {
      await start(conversationId);
    } catch (error) {
      const settings = await deps.loadSettings();
      const refusal = error instanceof RunError ? { problem: error.problem, params: error.params } : { problem: 'internal', params: { detail: String(error) } };
      await recordActionRefusal(deps.store, settings, conversationId, refusal, await backgroundWords(settings)).catch(() => undefined);
    }
    await opened;
    return conversationId;
  };

  /** `pick` names the action once the settings are read (after the panel has opened). */
  const run = (pick: (settings: Settings) => string, tab: TabLike | undefined, selectionText: string | undefined, frameId: number | undefined): Promise<string> =>
    inPanel(tab, async (conversationId) => {
      const selection = (await readSelection(tab?.id, frameId)) || selectionText || '';
      const settings = await deps.loadSettings();
      await startAction(deps.runs, settings, { actionId: pick(settings), selection, page: { title: tab?.title, url: tab?.url }, conversationId, words: await backgroundWords(settings) });
    });

  /** Reads the tab's page (refused with the reason when it cannot be read) and starts a conversation about it. */
  const askPage = async (input: AskPageInput): Promise<{ conversationId: string; messageId: string }> => {
    const settings = await deps.loadSettings();
    const read = await readTab(input.tabId, readLimitFor(settings.largeSelection.maxTokens));
    if (!read.ok) {
      throw new RunError('page_unreadable', {
        reason: read.reason, url: read.url, ...(read.detail === undefined ? {} : { detail: read.detail }), ...(read.seconds === undefined ? {} : { seconds: read.seconds }),
      });
    }
    if (input.actionId !== undefined) {
      const selection = (await readSelection(input.tabId, undefined))?.trim() ?? '';
      return startAction(deps.runs, settings, {
        actionId: input.actionId, selection: selection === '' ? read.page.text : selection, page: { title: read.page.title, url: read.page.url },
        conversationId: input.conversationId, words: await backgroundWords(settings),
      });
    }
    const profile = activeProfile(settings);
    const model = input.model ?? (input.surface === 'action' ? profile?.actionModel ?? profile?.defaultModel : undefined);
    return askAboutPage(deps.runs, settings, {
      page: read.page, question: input.question, surface: input.surface, conversationId: input.conversationId,
      ...(input.profileId === undefined ? {} : { profileId: input.profileId }),
      ...(model === undefined ? {} : { model }),
      words: await backgroundWords(settings),
    });
  };

  /** "Ask about this page" from the menu or its shortcut: the side panel opens on a new conversation about the tab's page. */
  const askPageInPanel = (tab: TabLike | undefined): Promise<string> =>
    inPanel(tab, (conversationId) => askPage({ surface: 'action', tabId: tab?.id, question: '', conversationId }));

  const handleMenuClick = async (info: { menuItemId: string | number; selectionText?: string; frameId?: number }, tab?: TabLike): Promise<string | undefined> => {
    const id = String(info.menuItemId);
    if (id === ASK_PAGE_ID) return askPageInPanel(tab);
    if (!id.startsWith(ACTION_PREFIX)) return undefined;
    const actionId = id.slice(ACTION_PREFIX.length);
    return run(() => actionId, tab, info.selectionText, info.frameId);
  };

  /** The shortcut: the first enabled action on the current selection. */
  const handleShortcut = (tab?: TabLike): Promise<string> =>
    run((settings) => settings.actions.find((a) => a.enabled)?.id ?? '', tab, undefined, undefined);

  void deps.loadSettings().then(rebuild);
  deps.watchSettings((settings) => void rebuild(settings));
  browser.contextMenus.onClicked.addListener((info, tab) => void handleMenuClick(info, tab));
  browser.commands?.onCommand.addListener((command, tab) => {
    if (command === 'run-default-action') void handleShortcut(tab);
    if (command === 'ask-about-page') void askPageInPanel(tab);
  });
  return { handleMenuClick, handleShortcut, askPageInPanel, askPage, menu: () => menu };
}
