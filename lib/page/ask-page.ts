/**
 * "Ask about this page": the page's main text quoted as data (the same fence as a selection, cut
 * with a notice when too large), with its title and address, after the user's question (or a
 * default one), as the first message of a new conversation that keeps the page as its source.
 * Follow-up questions carry it as history. Never in the system prompt.
 */
import type { Surface } from '../conversations/records';
import type { Words } from '../i18n/messages';
import { prepareSelection } from '../actions/large-selection';
import { estimateTokens } from '../actions/tokens';
import { renderTemplate } from '../actions/template';
import { RunError, type RunManager } from '../runs/run-manager';
import type { Settings } from '../settings/schema';
import type { PageContent } from './read-page';

export interface PageQuestion {
  page: PageContent;
  /** What the user typed; empty: the default question ("what is this page about"). */
  question: string;
  surface: Surface;
  /** Chosen before any await, so a side panel can open on it at once. */
  conversationId: string;
  profileId?: string;
  model?: string;
  words: Words;
}

const TITLE_LENGTH = 80;

/** The first message about a page: the question, then the page quoted. Also what the notice says when it was cut. */
export function pageMessage(page: PageContent, question: string, maxTokens: number, words: Words): { text: string; notice?: { code: 'page_cut'; params: Record<string, number> } } {
  const prepared = prepareSelection(page.text, maxTokens);
  // A page cut while it was read: the notice counts against all the page held.
  const total = page.totalChars;
  if (total !== undefined && total > prepared.text.length) {
    const tokens = Math.round(estimateTokens(page.text) * (total / Math.max(1, page.text.length)));
    prepared.notice = { code: 'selection_cut', params: { tokens, limit: maxTokens, sentChars: prepared.text.length, totalChars: total, percent: Math.max(1, Math.round((prepared.text.length / total) * 100)) } };
  }
  const asked = question.trim() === '' ? words.t('page.defaultQuestion') : question.trim();
  const quoted = renderTemplate(words.t('page.quote'), {
    selection: prepared.text, title: page.title, url: page.url, language: '', untitled: words.t('actions.untitledPage'), noAddress: words.t('actions.noAddress'),
  });
  const text = `${asked}\n\n${quoted}`;
  return prepared.notice === undefined ? { text } : { text, notice: { code: 'page_cut', params: prepared.notice.params } };
}

export async function askAboutPage(runs: RunManager, settings: Settings, request: PageQuestion): Promise<{ conversationId: string; messageId: string }> {
  const { page, words } = request;
  if (page.text.trim() === '') throw new RunError('page_unreadable', { reason: 'no_text', url: page.url });
  const { text, notice } = pageMessage(page, request.question, settings.largeSelection.maxTokens, words);
  const named = words.t('page.conversationTitle', { page: page.title || page.url });
  return runs.start({
    surface: request.surface,
    newConversationId: request.conversationId,
    ...(request.profileId === undefined ? {} : { profileId: request.profileId }),
    ...(request.model === undefined ? {} : { model: request.model }),
    text,
    title: named.length > TITLE_LENGTH ? `${named.slice(0, TITLE_LENGTH - 1)}…` : named,
    source: { title: page.title, url: page.url },
    ...(notice === undefined ? {} : { notice }),
  });
}
