/**
 * The languages we ship, and which one a surface speaks: the user's choice in the settings,
 * else the first of the browser's languages we have, else English.
 */

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language in its own name, as the Language menu lists it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

/** The settings' value: follow the browser, or one of LOCALES. */
export const LANGUAGE_CHOICES = ['browser', ...LOCALES] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/** The locale a BCP 47 tag falls under, if we ship one for it (zh, zh-Hans, zh-SG → zh-CN). */
export function localeForTag(tag: string): Locale | undefined {
  const lower = tag.toLowerCase().replace(/_/g, '-');
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  // Traditional Chinese readers get English until we ship zh-TW, not Simplified characters.
  if (lower === 'zh' || lower.startsWith('zh-cn') || lower.startsWith('zh-sg') || lower.startsWith('zh-hans')) return 'zh-CN';
  return undefined;
}

export function resolveLocale(choice: LanguageChoice | undefined, browserLanguages: readonly string[]): Locale {
  if (choice !== undefined && choice !== 'browser') return choice;
  for (const tag of browserLanguages) {
    const locale = localeForTag(tag);
    if (locale !== undefined) return locale;
  }
  return 'en';
}
