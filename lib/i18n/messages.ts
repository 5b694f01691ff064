/**
 * The message files. English is bundled with every page (the reference, and the fallback of a
 * key another file lacks: the parity test keeps that from happening); every other locale is its
 * own chunk, loaded before a page first renders in it (`ensureLocale`), so a page carries only
 * the words it speaks. `locales/en.json` is the reference: its keys are `MessageKey`.
 */
import en from '../../locales/en.json';
import { type Locale } from './locale';
import { createTranslator, flattenMessages, type MessageTree, type Translator } from './translate';

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Every key of the message files. */
export type MessageKey = Leaves<typeof en>;

const LOADERS: Record<Locale, () => Promise<MessageTree>> = {
  en: () => Promise.resolve(en),
  'zh-CN': () => import('../../locales/zh-CN.json').then((m) => m.default),
};

/** A locale's message file, as written. */
export function loadMessageTree(locale: Locale): Promise<MessageTree> {
  return LOADERS[locale]();
}

const flat = new Map<Locale, Map<string, string>>([['en', flattenMessages(en)]]);
const loading = new Map<Locale, Promise<void>>();

/** Loads a locale's words (once); `wordsFor` speaks it from then on. */
export function ensureLocale(locale: Locale): Promise<void> {
  if (flat.has(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (pending === undefined) {
    pending = loadMessageTree(locale).then((tree) => {
      flat.set(locale, flattenMessages(tree));
    });
    loading.set(locale, pending);
  }
  return pending;
}

export function isLocaleLoaded(locale: Locale): boolean {
  return flat.has(locale);
}

/** A translator whose keys are the message files' keys. */
export interface Words extends Translator {
  t(key: MessageKey, params?: Record<string, string | number>): string;
  plural(key: MessageKey, count: number, params?: Record<string, string | number>): string;
}

const translators = new Map<Locale, Words>();

/**
 * The words of `locale`, once it is loaded (`ensureLocale`); English until then, so a page
 * never mixes two languages.
 */
export function wordsFor(locale: Locale): Words {
  const table = flat.get(locale);
  const english = flat.get('en')!;
  if (table === undefined) return wordsFor('en');
  let words = translators.get(locale);
  if (words === undefined) {
    words = createTranslator(locale, table, locale === 'en' ? undefined : english) as Words;
    translators.set(locale, words);
  }
  return words;
}
