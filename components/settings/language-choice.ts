import { setLanguageChoice } from '@/components/i18n/words';
import { LANGUAGE_CHOICES, LOCALE_NAMES, type LanguageChoice } from '@/lib/i18n/locale';
import type { Words } from '@/lib/i18n/messages';
import { updateSettings } from '@/lib/settings/storage.adapter';

/** The interface's language: the browser's, or one we ship, each named in its own language. */
export function languageOptions(w: Words): { value: LanguageChoice; label: string }[] {
  return LANGUAGE_CHOICES.map((c) => ({ value: c, label: c === 'browser' ? w.t('language.browser') : LOCALE_NAMES[c] }));
}

/** Applies a language at once, then saves it; every open surface (and the context menu) follows the settings. */
export function chooseLanguage(language: LanguageChoice): void {
  setLanguageChoice(language);
  void updateSettings((now) => ({ ...now, appearance: { ...now.appearance, language } }));
}
