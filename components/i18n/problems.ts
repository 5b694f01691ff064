/**
 * Words for the codes lib/ returns (errors, refusals, notices): one place that turns a code and
 * its facts into the current language. The problems of setting up (a key, an address, pasted
 * text, stored settings that cannot be read or saved) are worded in setup-problems.ts.
 */
import { PAGE_UNREADABLE } from '@/lib/page/page-access';
import { toolFailureText } from '@/components/tools/tool-words';
import { BLOCK_CATEGORIES, BLOCK_REASONS } from '@/lib/gateway/blocks';
import type { Notice, StoredError } from '@/lib/conversations/records';
import { isApiStyle } from '@/lib/gateway/interfaces/names';
import { API_NAME } from './apiNames';
import type { Words } from '@/lib/i18n/messages';
import type { MessageTooLarge } from '@/lib/runs/limits';
import type { SaveFailure } from '@/lib/runs/run-manager';

type Params = Record<string, string | number>;

/** Bytes as megabytes, one decimal. */
export function mb(bytes: number): number {
  return Number((bytes / 1024 / 1024).toFixed(1));
}

/** An error's title; `unavailable`: a listed model that cannot be served now. */
export function errorTitle(w: Words, error: StoredError, unavailable = false): string {
  if (unavailable) return w.t('error.title.unavailable');
  // A reply cut at the size the user allows is not an unreadable one.
  if (error.detail?.code === 'reply_too_large') return w.t('error.title.reply_too_large');
  return w.t(`error.title.${error.kind}`);
}

/** What to do about an error (seed part 7), in words. */
export function errorRemedy(w: Words, error: StoredError, unavailable = false): string {
  if (unavailable) return w.t('error.remedy.unavailable');
  // The user's own limits: the remedy names the setting.
  if (error.detail?.code === 'reply_too_large') return w.t('error.remedy.reply_too_large');
  if (error.detail?.code === 'total_timeout') return w.t('error.remedy.total_timeout');
  // Image requests (issue 30): a safety refusal, an option the model does not take.
  const code: string | undefined = error.detail?.code;
  if (code === 'content_policy') return w.t('error.remedy.content_policy');
  if (code === 'unsupported_option') return w.t('error.remedy.unsupported_option');
  if (error.kind === 'rate_limited' && error.retryAfter !== undefined) return w.t('error.remedy.rate_limited_wait', { seconds: error.retryAfter });
  return w.t(`error.remedy.${error.kind}`, { siteUrl: error.siteUrl });
}

/**
 * What the model's filter blocked and why: the reason and category in words where we know
 * them, else as the vendor sent them (saved records may hold any text there).
 */
function blockText(w: Words, code: 'prompt_blocked' | 'reply_blocked', params: Params): string {
  const sent = (key: string): string => String(params[key] ?? '').toLowerCase();
  const reason = BLOCK_REASONS.find((r) => r === sent('reason'));
  const words = w.t(`error.detail.${code}`, { reason: reason === undefined ? String(params.reason ?? '') : w.t(`error.blocked.reason.${reason}`) });
  if (params.category === undefined || params.category === '') return words;
  const category = BLOCK_CATEGORIES.find((c) => c === sent('category'));
  // The sentence carries its own spacing (none in Chinese).
  return `${words}${w.t('error.blocked.categoryNamed', { category: category === undefined ? String(params.category) : w.t(`error.blocked.category.${category}`) })}`;
}

/** Our account of a failure the gateway did not explain, or undefined. */
export function errorDetail(w: Words, error: StoredError): string | undefined {
  const detail = error.detail;
  if (detail === undefined) return undefined;
  if (detail.code === 'prompt_blocked' || detail.code === 'reply_blocked') return blockText(w, detail.code, detail.params ?? {});
  if (detail.code === 'unsupported_option') {
    const param = String(detail.params?.param ?? '');
    const supported = detail.params?.supported;
    const option = param === 'size' ? w.t('error.detail.optionSize') : param === '' ? w.t('error.detail.optionAny') : param;
    const words = w.t('error.detail.unsupported_option', { option });
    // The sentence carries its own spacing (none in Chinese).
    return supported === undefined || supported === '' ? words : `${words}${w.t('error.detail.supportedValues', { values: String(supported).split(',').map((v) => v.trim()).filter(Boolean).join(', ') })}`;
  }
  if (detail.code === 'content_policy') return w.t('error.detail.content_policy');
  const params: Params = { ...detail.params };
  if (detail.code === 'redirected') params.location = detail.params?.location === undefined ? '' : w.t('error.detail.redirectedTo', { location: detail.params.location });
  const words = w.t(`error.detail.${detail.code}`, params);
  return detail.params?.cause === undefined ? words : `${words} (${detail.params.cause})`;
}

export function tooLargeText(w: Words, tooLarge: MessageTooLarge): string {
  switch (tooLarge.problem) {
    case 'text_too_long':
      return w.t('refusal.text_too_long', { tokens: tooLarge.tokens, limit: tooLarge.limit });
    case 'files_too_long':
      return w.t('refusal.files_too_long', { name: tooLarge.name, tokens: tooLarge.tokens, limit: tooLarge.limit, fits: Math.max(0, tooLarge.fits) });
    case 'too_many_images':
      return w.t('refusal.too_many_images', { count: tooLarge.count, limit: tooLarge.limit });
    case 'images_too_large':
      return w.t('refusal.images_too_large', { size: mb(tooLarge.bytes), limit: mb(tooLarge.limit) });
  }
}

/** A refusal from the background (or an action's), in words: its code and numbers. */
export function refusalText(w: Words, refusal: { problem: string; params?: Params; detail?: string }): string {
  const p = refusal.params ?? {};
  const num = (key: string): number => Number(p[key] ?? 0);
  const said = refusal.detail ?? (typeof p.detail === 'string' ? p.detail : undefined);
  const withDetail = (words: string): string => (said === undefined ? words : `${words} ${w.t('refusal.platformSaid', { detail: said })}`);
  switch (refusal.problem) {
    case 'text_too_long':
      return tooLargeText(w, { problem: 'text_too_long', tokens: num('tokens'), limit: num('limit') });
    case 'files_too_long':
      return tooLargeText(w, { problem: 'files_too_long', name: String(p.name ?? ''), tokens: num('tokens'), limit: num('limit'), fits: num('fits') });
    case 'too_many_images':
      return tooLargeText(w, { problem: 'too_many_images', count: num('count'), limit: num('limit') });
    case 'images_too_large':
      return tooLargeText(w, { problem: 'images_too_large', bytes: num('bytes'), limit: num('limit') });
    case 'page_unreadable': {
      const reason = PAGE_UNREADABLE.find((r) => r === p.reason) ?? 'refused';
      // The address, where the browser let us see it.
      const where = typeof p.url === 'string' && p.url !== '' ? w.t('refusal.page.where', { url: p.url }) : '';
      if (reason === 'refused') return withDetail(w.t('refusal.page.refused', { where }));
      return reason === 'busy' ? w.t('refusal.page.busy', { where, seconds: num('seconds') }) : w.t(`refusal.page.${reason}`, { where });
    }
    case 'compare_models':
      return w.t('refusal.compare_models', { min: num('min'), max: num('max') });
    case 'wait':
      return w.t('refusal.wait', { seconds: Math.max(1, Math.ceil((num('retryAt') - Date.now()) / 1000)) });
    case 'empty':
      return w.t(p.target === 'selection' ? 'refusal.emptySelection' : p.target === 'prompt' ? 'refusal.emptyPrompt' : 'refusal.empty');
    case 'not_found':
      return w.t(p.target === 'action' ? 'refusal.actionGone' : 'refusal.not_found');
    case 'no_key':
      return w.t('refusal.no_key', { name: String(p.name ?? '') });
    case 'busy':
    case 'no_profile':
    case 'profile_missing':
    case 'profile_gone':
    case 'prompt_review':
    case 'no_model':
      return w.t(`refusal.${refusal.problem}`);
    case 'background':
    case 'protocol':
    case 'internal':
      return withDetail(w.t(`refusal.${refusal.problem}`));
    default:
      return withDetail(w.t('refusal.unknown', { problem: refusal.problem }));
  }
}

export function saveFailureText(w: Words, failure: SaveFailure): string {
  return failure.problem === 'quota' ? w.t('store.saveFailed.quota') : w.t('store.saveFailed.other', { detail: failure.detail ?? failure.problem });
}

/** What happened to a message on the way. */
export function noticeText(w: Words, notice: Notice): string {
  switch (notice.code) {
    case 'selection_cut':
      return w.t('notice.selection_cut', notice.params);
    case 'page_cut':
      return w.t('notice.page_cut', notice.params);
    case 'action_refused':
      return refusalText(w, { problem: String(notice.params.problem ?? ''), params: notice.params });
    case 'sent_through_chat': {
      const api = notice.params.api;
      return w.t('notice.sent_through_chat', { api: isApiStyle(api) ? w.t(API_NAME[api]) : String(api ?? '') });
    }
    case 'image_scaled':
      return w.t('notice.image_scaled', notice.params);
    case 'image_cut':
      return w.t('notice.image_cut');
    case 'tools_refused':
      return w.t('notice.tools_refused');
    case 'tool_server_failed':
      return w.t('notice.tool_server_failed', { address: String(notice.params.address ?? ''), why: toolFailureText(w, { code: notice.params.code, params: notice.params }) });
    case 'legacy':
      return notice.text ?? '';
  }
}

/** How old the cached catalogue is ("fetched 5 min ago"). */
export function catalogueAge(w: Words, fetchedAt: number | undefined, now = Date.now()): string {
  if (fetchedAt === undefined) return w.t('catalogue.age.never');
  const minutes = Math.round((now - fetchedAt) / 60_000);
  if (minutes < 1) return w.t('catalogue.age.now');
  if (minutes < 60) return w.plural('catalogue.age.minutes', minutes);
  const hours = Math.round(minutes / 60);
  return hours < 48 ? w.plural('catalogue.age.hours', hours) : w.plural('catalogue.age.days', Math.round(hours / 24));
}
