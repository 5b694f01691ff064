/**
 * The message files, bundled: every surface can speak any locale we ship without asking the
 * browser (whose `i18n` API only speaks the browser's language). `locales/en.json` is the
 * reference: its keys are `MessageKey`, and a unit test holds the other files to the same keys.
 */
import en from '../../locales/en.json';
import zhCN from '../../locales/zh-CN.json';
import { type Locale } from './locale';
import { createTranslator, flattenMessages, type MessageTree, type Translator } from './translate';

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Every key of the message files. */
export type MessageKey = Leaves<typeof en>;

export const MESSAGE_FILES: Record<Locale, MessageTree> = { en, 'zh-CN': zhCN };

const flat = new Map<Locale, Map<string, string>>();
function flatFor(locale: Locale): Map<string, string> {
  let table = flat.get(locale);
  if (table === undefined) {
    table = flattenMessages(MESSAGE_FILES[locale]);
    flat.set(locale, table);
  }
  return table;
}

/** A translator whose keys are the message files' keys. */
export interface Words extends Translator {
  t(key: MessageKey, params?: Record<string, string | number>): string;
  plural(key: MessageKey, count: number, params?: Record<string, string | number>): string;
}

const translators = new Map<Locale, Words>();

/** The words of `locale` (English where a key is missing: the parity test keeps that from happening). */
export function wordsFor(locale: Locale): Words {
  let words = translators.get(locale);
  if (words === undefined) {
    words = createTranslator(locale, flatFor(locale), locale === 'en' ? undefined : flatFor('en')) as Words;
    translators.set(locale, words);
  }
  return words;
}
