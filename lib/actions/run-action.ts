/**
 * Running a prompt action on a page selection: the action's template filled (the selection
 * quoted, cut with a notice when too large), sent as the user message of a new conversation
 * that keeps the page's title and URL. The user's system prompt is untouched: page text never
 * goes there.
 */
import { newId, type ConversationStore } from '../conversations/store';
import { RunError, type RunManager } from '../runs/run-manager';
import { activeProfile, type Settings } from '../settings/schema';
import { prepareSelection } from './large-selection';
import { actionTitle, languageName, renderTemplate } from './template';

export interface ActionRequest {
  actionId: string;
  selection: string;
  page: { title?: string; url?: string };
  /** Chosen before any await, so the side panel can open on it at once. */
  conversationId: string;
  /** The browser's UI language tag, used when the settings name no language. */
  browserLanguage: string;
}

const TITLE_LENGTH = 80;

export async function startAction(runs: RunManager, settings: Settings, request: ActionRequest): Promise<{ conversationId: string; messageId: string }> {
  const action = settings.actions.find((a) => a.id === request.actionId && a.enabled);
  if (action === undefined) throw new RunError('not_found', 'That action was removed or turned off; pick another from the menu.');
  if (request.selection.trim() === '') throw new RunError('empty', 'Select some text on the page first, then run the action again.');
  const language = settings.language ?? languageName(request.browserLanguage);
  const prepared = prepareSelection(request.selection, settings.largeSelection.maxTokens);
  const page = { title: request.page.title?.trim() ?? '', url: request.page.url ?? '' };
  const text = renderTemplate(action.template, { selection: prepared.text, title: page.title, url: page.url, language });
  const profile = activeProfile(settings);
  const model = action.model ?? profile?.actionModel ?? profile?.defaultModel;
  const named = `${actionTitle(action.name, language)}: ${page.title || page.url || 'selection'}`;
  return runs.start({
    surface: 'action',
    newConversationId: request.conversationId,
    model,
    text,
    title: named.length > TITLE_LENGTH ? `${named.slice(0, TITLE_LENGTH - 1)}…` : named,
    ...(page.url === '' ? {} : { source: page }),
    ...(prepared.notice === undefined ? {} : { notice: prepared.notice }),
  });
}

/**
 * An action that could not run (no selection, no gateway yet, a full disk) still lands in the
 * panel that opened for it, as a note saying what to do. The start may have created the
 * conversation before failing, so this adds to it rather than creating it again.
 */
export async function recordActionRefusal(store: ConversationStore, settings: Settings, conversationId: string, message: string): Promise<void> {
  const profile = activeProfile(settings);
  await store.ensureConversation({ id: conversationId, profileId: profile?.id ?? 'none', model: profile?.defaultModel ?? '', surface: 'action', title: 'Action not run' });
  const seq = ((await store.messages(conversationId)).at(-1)?.seq ?? -1) + 1;
  await store.addMessage({ id: newId(), conversationId, seq, role: 'user', text: '', reasoning: '', status: 'complete', notice: message, createdAt: Date.now() });
}
