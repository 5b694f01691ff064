/**
 * The context menu on selections, built from the actions: the first enabled action at the
 * top ("Summarise with <model>"), the others in a submenu; and on the page itself, "Ask
 * Gateway Chat about this page". Rebuilt whenever the actions, the
 * chosen model or the language change; an unchanged menu is not rebuilt.
 */
import type { Words } from '../i18n/messages';
import { actionWords, type Action } from './schema';
import { actionTitle } from './template';

export interface MenuEntry {
  id: string;
  title: string;
  parentId?: string;
  contexts: ['selection'] | ['page'];
}

export const ACTION_PREFIX = 'action:';
export const MORE_ACTIONS_ID = 'more-actions';
/** On the page itself (no selection needed): "Ask Gateway Chat about this page". */
export const ASK_PAGE_ID = 'ask-page';

export interface MenuOptions {
  /** The model for right-click actions, else the default model. */
  model: string | undefined;
  language: string;
  /** The interface's words (the menu's titles and the preset actions' names). */
  words: Words;
}

export function buildMenu(actions: readonly Action[], options: MenuOptions): MenuEntry[] {
  const enabled = actions.filter((a) => a.enabled);
  const [first, ...rest] = enabled;
  const { words } = options;
  const askPage: MenuEntry = { id: ASK_PAGE_ID, title: words.t('menu.askPage'), contexts: ['page'] };
  if (first === undefined) return [askPage];
  const name = (a: Action): string => actionTitle(actionWords(a, words).name, options.language);
  const model = (a: Action): string => a.model ?? options.model ?? words.t('menu.defaultModel');
  const entries: MenuEntry[] = [
    { id: `${ACTION_PREFIX}${first.id}`, title: words.t('menu.first', { action: name(first), model: model(first) }), contexts: ['selection'] },
  ];
  if (rest.length > 0) {
    entries.push({ id: MORE_ACTIONS_ID, title: words.t('menu.more'), contexts: ['selection'] });
    for (const a of rest) {
      const title = a.model === undefined ? name(a) : words.t('menu.withModel', { action: name(a), model: a.model });
      entries.push({ id: `${ACTION_PREFIX}${a.id}`, parentId: MORE_ACTIONS_ID, title, contexts: ['selection'] });
    }
  }
  entries.push(askPage);
  return entries;
}

/** The part of `contextMenus` the sync needs (the background passes the real one). */
export interface MenusApi {
  removeAll(): Promise<void>;
  create(entry: MenuEntry): void;
}

export class MenuSync {
  private last: string | undefined;
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly menus: MenusApi) {}

  /** Replaces the menu with `entries` unless it is already exactly that. Calls are serialised. */
  apply(entries: MenuEntry[]): Promise<void> {
    const key = JSON.stringify(entries);
    this.pending = this.pending.then(async () => {
      if (key === this.last) return;
      await this.menus.removeAll();
      for (const entry of entries) this.menus.create(entry);
      this.last = key;
    });
    return this.pending;
  }
}
