/**
 * The pages' language: one zustand store holding the user's choice (fed from the settings by
 * `useSettings`, and remembered in this extension's localStorage so a page opens in the right
 * language before the settings have loaded). Every component words its strings through
 * `useWords()`; a change re-renders every surface at once, without a reload.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { LANGUAGE_CHOICES, resolveLocale, type LanguageChoice, type Locale } from '@/lib/i18n/locale';
import { wordsFor, type Words } from '@/lib/i18n/messages';

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

function applyToDocument(locale: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}
applyToDocument(useLanguage.getState().locale);

/** Sets the pages' language (from the settings, or a test). */
export function setLanguageChoice(choice: LanguageChoice): void {
  const locale = resolveLocale(choice, browserLanguages());
  const now = useLanguage.getState();
  if (now.choice === choice && now.locale === locale) return;
  useLanguage.setState({ choice, locale });
  applyToDocument(locale);
  try {
    globalThis.localStorage?.setItem(REMEMBERED, choice);
  } catch {
    // Private modes may refuse: the settings still say it on the next load.
  }
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
