/**
 * Running a prompt action on a page selection: the action's template filled (the selection
 * quoted, cut with a notice when too large), sent as the user message of a new conversation
 * that keeps the page's title and URL. The user's system prompt is untouched: page text never
 * goes there.
 */
import { type ConversationStore } from '../conversations/store';
import { newId } from '../conversations/ids';
import type { Words } from '../i18n/messages';
import { RunError, type RunManager, type RunProblemParams } from '../runs/run-manager';
import { activeProfile, type Settings } from '../settings/schema';
import { prepareSelection } from './large-selection';
import { actionWords } from './schema';
import { actionLanguage, actionTitle, renderTemplate } from './template';

export interface ActionRequest {
  actionId: string;
  selection: string;
  page: { title?: string; url?: string };
  /** Chosen before any await, so the side panel can open on it at once. */
  conversationId: string;
  /** The interface's words: a preset action's prompt, and `{{language}}` when the settings name none. */
  words: Words;
}

export { actionLanguage };

const TITLE_LENGTH = 80;

export async function startAction(runs: RunManager, settings: Settings, request: ActionRequest): Promise<{ conversationId: string; messageId: string }> {
  const action = settings.actions.find((a) => a.id === request.actionId && a.enabled);
  if (action === undefined) throw new RunError('not_found', { target: 'action' });
  if (request.selection.trim() === '') throw new RunError('empty', { target: 'selection' });
  const { words } = request;
  const language = actionLanguage(settings, words);
  const prepared = prepareSelection(request.selection, settings.largeSelection.maxTokens);
  const page = { title: request.page.title?.trim() ?? '', url: request.page.url ?? '' };
  const own = actionWords(action, words);
  const text = renderTemplate(own.template, { selection: prepared.text, title: page.title, url: page.url, language, untitled: words.t('actions.untitledPage'), noAddress: words.t('actions.noAddress') });
  const profile = activeProfile(settings);
  // An action with a preset takes its prompt and parameters, and its model unless it names one.
  const preset = action.presetId === undefined ? undefined : settings.presets.find((p) => p.id === action.presetId);
  const model = action.model ?? preset?.model ?? profile?.actionModel ?? profile?.defaultModel;
  const named = words.t('actions.conversationTitle', { action: actionTitle(own.name, language), page: page.title || page.url || words.t('actions.selection') });
  return runs.start({
    surface: 'action',
    newConversationId: request.conversationId,
    model,
    ...(preset === undefined ? {} : { presetId: preset.id }),
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
export async function recordActionRefusal(store: ConversationStore, settings: Settings, conversationId: string, refusal: { problem: string; params?: RunProblemParams }, words: Words): Promise<void> {
  const profile = activeProfile(settings);
  await store.ensureConversation({ id: conversationId, profileId: profile?.id ?? 'none', model: profile?.defaultModel ?? '', surface: 'action', title: words.t('actions.notRun') });
  const seq = ((await store.messages(conversationId)).at(-1)?.seq ?? -1) + 1;
  const notice = { code: 'action_refused' as const, params: { ...refusal.params, problem: refusal.problem } };
  await store.addMessage({ id: newId(), conversationId, seq, role: 'user', text: '', reasoning: '', status: 'complete', notice, createdAt: Date.now() });
}
