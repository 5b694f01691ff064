// @vitest-environment jsdom
/**
 * The two parts of the words (lib/i18n/messages.ts), as a page that has loaded only the first
 * words sees them (the popup, until its first frame is drawn): the more words arrive on asking,
 * in the page's language; a lazily loaded component is shown only once they are there; a change of
 * language waits for every part the page speaks. Each test starts from freshly loaded modules
 * (tests/unit/setup.ts loads every part for the other tests).
 */
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as WordsModule from '@/components/i18n/words';
import type * as Messages from '@/lib/i18n/messages';

async function fresh(): Promise<{ messages: typeof Messages; words: typeof WordsModule }> {
  vi.resetModules();
  return { messages: await import('@/lib/i18n/messages'), words: await import('@/components/i18n/words') };
}

beforeEach(() => {
  localStorage.clear();
});

describe('the first words and the more words', () => {
  it('English\'s first words are there at once; its more words after asking, in the same translator', async () => {
    const { messages } = await fresh();
    const en = messages.wordsFor('en');
    expect(messages.isLocaleLoaded('en', ['first'])).toBe(true);
    expect(messages.isLocaleLoaded('en')).toBe(false);
    expect(en.t('popup.label')).toBe('Quick chat');
    expect(en.has('options.saved')).toBe(false);
    await messages.ensureLocale('en', ['more']);
    expect(en.t('options.saved')).toBe('Saved');
    expect(messages.isLocaleLoaded('en')).toBe(true);
  });

  it('another locale speaks once its first words are loaded (English until then), and its more words join them', async () => {
    const { messages } = await fresh();
    expect(messages.wordsFor('zh-CN').locale).toBe('en');
    await messages.ensureLocale('zh-CN', ['first']);
    const zh = messages.wordsFor('zh-CN');
    expect(zh.locale).toBe('zh-CN');
    expect(zh.t('popup.label')).toBe('快速聊天');
    await messages.ensureLocale('zh-CN', ['more']);
    expect(zh.t('options.saved')).toBe('已保存');
  });

  it('a component loaded with lazyWithWords is shown only with the more words, never with a key', async () => {
    const { words, messages } = await fresh();
    await words.prepareWords(['first']);
    expect(messages.isLocaleLoaded('en', ['more'])).toBe(false);
    function Saved() {
      return <p>{words.useWords().t('options.saved')}</p>;
    }
    const Lazy = words.lazyWithWords(() => Promise.resolve({ default: Saved }));
    render(<Suspense fallback={<p>waiting</p>}><Lazy /></Suspense>);
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(screen.queryByText('options.saved')).toBeNull();
  });

  it('a change of language switches once every part the page speaks is there in the new one', async () => {
    const { words, messages } = await fresh();
    await words.prepareWords();
    words.setLanguageChoice('zh-CN');
    // Still English while the Chinese words load: never a mix.
    expect(words.currentWords().locale).toBe('en');
    await vi.waitFor(() => expect(words.currentWords().locale).toBe('zh-CN'));
    expect(messages.isLocaleLoaded('zh-CN')).toBe(true);
    expect(words.currentWords().t('options.saved')).toBe('已保存');
  });
});
