// @vitest-environment jsdom
/**
 * The interface's language: a setting named "Language" with each language in its own name;
 * a choice re-words what is on screen at once; saved records keep codes, so an old error
 * saved as English sentences shows in the language of the day.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { MessageView } from '@/components/chat/MessageView';
import { setLanguageChoice } from '@/components/i18n/words';
import { LanguageSelect } from '@/components/settings/LanguageSelect';
import { MessageSchema } from '@/lib/conversations/records';
import { defaultSettings } from '@/lib/settings/schema';
import { loadSettings } from '@/lib/settings/storage.adapter';

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/conversations', name), 'utf8'));

beforeEach(() => {
  fakeBrowser.reset();
  localStorage.clear();
  act(() => setLanguageChoice('en'));
});

describe('the language setting', () => {
  it('is named Language, offers each language in its own name, and switches every string at once', async () => {
    await fakeBrowser.storage.local.set({ settings: defaultSettings() });
    const user = userEvent.setup();
    render(<><LanguageSelect settings={defaultSettings()} /><MessageView message={MessageSchema.parse(fixture('legacy-error-message.json'))} /></>);
    await user.click(screen.getByRole('combobox', { name: 'Language' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(["Browser's language", 'English', '简体中文']);
    await user.click(screen.getByRole('option', { name: '简体中文' }));
    // The control itself speaks the new language (its value follows the saved settings).
    expect(screen.getByRole('combobox', { name: '语言' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('API 密钥被拒绝');
    expect(document.documentElement.lang).toBe('zh-CN');
    await expect.poll(async () => (await loadSettings()).settings.appearance.language).toBe('zh-CN');
    await user.click(screen.getByRole('combobox', { name: '语言' }));
    await user.click(screen.getByRole('option', { name: 'English' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The API key was rejected');
  });
});

describe('records saved with English sentences by older builds', () => {
  it('an old error opens and shows in the current language, with the gateway\'s own words as sent', () => {
    const message = MessageSchema.parse(fixture('legacy-error-message.json'));
    expect(message.error).toEqual({
      kind: 'invalid_key',
      url: 'https://gw.example.com/v1/chat/completions',
      siteUrl: 'https://gw.example.com',
      status: 401,
      code: 'INVALID_API_KEY',
      gatewayMessage: '无效的令牌',
      links: [{ id: 'keys', url: 'https://gw.example.com/keys' }],
    });
    act(() => setLanguageChoice('zh-CN'));
    render(<MessageView message={message} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('API 密钥被拒绝');
    expect(alert).toHaveTextContent('网关原话：');
    expect(alert).toHaveTextContent('无效的令牌');
    expect(alert).not.toHaveTextContent('Create a new API key');
    expect(screen.getByRole('link', { name: '令牌页面' })).toHaveAttribute('href', 'https://gw.example.com/keys');
  });

  it('a blocked reply, and a Gemini prompt block an older build saved as bad_request with its raw reason, are worded in the language of the day', () => {
    const error = { url: 'https://gw.example.com/v1/chat/completions', siteUrl: 'https://gw.example.com', links: [{ id: 'catalogue', url: 'https://gw.example.com/models' }] };
    const blocked = MessageSchema.parse({ id: 'b', conversationId: 'c', seq: 1, role: 'assistant', text: '前半部分', reasoning: '', status: 'error', createdAt: 1, error: { ...error, kind: 'content_blocked', detail: { code: 'reply_blocked', params: { reason: 'content_filter', category: 'violence' } } } });
    const older = MessageSchema.parse({ id: 'o', conversationId: 'c', seq: 3, role: 'assistant', text: '', reasoning: '', status: 'error', createdAt: 2, error: { ...error, kind: 'bad_request', detail: { code: 'prompt_blocked', params: { reason: 'SAFETY' } } } });
    act(() => setLanguageChoice('zh-CN'));
    render(<><MessageView message={blocked} /><MessageView message={older} /></>);
    const [first, second] = screen.getAllByRole('alert');
    expect(first).toHaveTextContent('被模型的过滤器拦截');
    expect(first).toHaveTextContent('过滤器中止了回复：服务商的内容过滤。类别：暴力。');
    expect(first).toHaveTextContent('请换一种说法再问，或换用其他模型');
    expect(second).toHaveTextContent('过滤器拒绝了这条提问本身：可能有害的内容。');
  });

  it('an old selection notice keeps its numbers and is worded anew', () => {
    const message = MessageSchema.parse(fixture('legacy-notice-message.json'));
    expect(message.notice).toEqual({ code: 'selection_cut', params: { tokens: 540001, limit: 12000, sentChars: 47600, totalChars: 2160000, percent: 2 } });
    act(() => setLanguageChoice('zh-CN'));
    render(<MessageView message={message} />);
    expect(screen.getByRole('note')).toHaveTextContent('选中的文字太长，无法一次发送（约 540,001 个令牌；上限为 12,000）');
  });
});
