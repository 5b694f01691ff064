/**
 * The pages' language: one zustand store holding the user's choice (fed from the settings by
 * `useSettings`, and remembered in this extension's localStorage so a page opens in the right
 * language before the settings have loaded). Every component words its strings through
 * `useWords()`; a change re-renders every surface at once, without a reload. Which parts of the
 * words a page loads, and when: lib/i18n/messages.ts.
 */
import { lazy, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { create } from 'zustand';
import { LANGUAGE_CHOICES, resolveLocale, type LanguageChoice, type Locale } from '@/lib/i18n/locale';
import { ensureLocale, isLocaleLoaded, WORD_PARTS, wordsFor, type WordPart, type Words } from '@/lib/i18n/messages';

const REMEMBERED = 'gateway-chat.language';

function rememberedChoice(): LanguageChoice {
  try {
    const value = globalThis.localStorage?.getItem(REMEMBERED);
    return (LANGUAGE_CHOICES as readonly string[]).includes(value ?? '') ? (value as LanguageChoice) : 'browser';
  } catch {
    return 'browser';
  }
}

function browserLanguages(): readonly string[] {
  return globalThis.navigator?.languages ?? [globalThis.navigator?.language ?? 'en'];
}

interface LanguageState {
  choice: LanguageChoice;
  locale: Locale;
}

const initial = rememberedChoice();
const useLanguage = create<LanguageState>(() => ({ choice: initial, locale: resolveLocale(initial, browserLanguages()) }));

/** The parts of the words this page speaks (the first words at least): a change of language loads them in the new one first. */
const pageParts = new Set<WordPart>(['first']);

/**
 * Loads the words of the language a page opens in (all parts unless told); the entrypoints render
 * once it is done. The popup asks for its first words alone, and for the more words after its first frame.
 */
export function prepareWords(parts: readonly WordPart[] = WORD_PARTS): Promise<void> {
  for (const part of parts) pageParts.add(part);
  return ensureLocale(useLanguage.getState().locale, parts);
}

/**
 * Code the popup may load that speaks: it arrives together with the more words, so it never shows
 * a key for a word not yet loaded (on every other page the words are there already).
 */
export function withMoreWords<T>(load: () => Promise<T>): Promise<T> {
  return Promise.all([load(), prepareWords(['more'])]).then(([loaded]) => loaded);
}

/** `React.lazy` for a component the popup may load, with the more words (`withMoreWords`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export function lazyWithWords<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => withMoreWords(load));
}

function applyToDocument(locale: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}
applyToDocument(useLanguage.getState().locale);

/** Sets the pages' language (from the settings, or a test). */
export function setLanguageChoice(choice: LanguageChoice): void {
  const locale = resolveLocale(choice, browserLanguages());
  // The settings feed the choice on every save: only a change is written down.
  if (choice !== useLanguage.getState().choice) {
    try {
      globalThis.localStorage?.setItem(REMEMBERED, choice);
    } catch {
      // Private modes may refuse: the settings still say it on the next load.
    }
  }
  const apply = (): void => {
    const now = useLanguage.getState();
    if (now.choice === choice && now.locale === locale) return;
    useLanguage.setState({ choice, locale });
    applyToDocument(locale);
  };
  // The page switches when the new words are there (every part it has asked for), all at once.
  const parts = [...pageParts];
  if (isLocaleLoaded(locale, parts)) apply();
  else void ensureLocale(locale, parts).then(apply);
}

/** The words of the current language, for components (re-rendered when it changes). */
export function useWords(): Words {
  return wordsFor(useLanguage((s) => s.locale));
}

/** The words of the current language, outside React (toasts from handlers). */
export function currentWords(): Words {
  return wordsFor(useLanguage.getState().locale);
}

/** The tab's title in the current language (the HTML's <title> is the English one, until this runs). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
