/**
 * The message files, and which of their words a page has loaded.
 *
 * Each locale's words are in two parts, with the same keys in every locale:
 * - the first words, `locales/<locale>.json`: exactly the words the popup's own scripts can say
 *   (the modules it imports statically), and the manifest's (which @wxt-dev/i18n reads from this
 *   file). English is bundled with every page.
 * - the more words, `locales/more/<locale>.json`: every other word (the options, chat, side panel
 *   and microphone pages; the popup's lazily loaded parts: first run, conversation settings, file
 *   chips and cards, dictation, images, menus, …). A chunk of its own.
 * Why: the popup's first chunk carries English, and all of it was 22 kB of that chunk's gzip
 * while the popup's own scripts say 441 of its 1,200 keys; those are 10 kB gzip (the popup's
 * first scripts, `npm run bench -- popup`: 162.6 -> 151.3 kB gzip when the words were split).
 *
 * Who loads what: every page but the popup loads both parts before its first render
 * (`prepareWords()` in its main.tsx); the popup renders with the first words and loads the more
 * words after its first frame, and each of its lazily loaded parts waits for them together with
 * its code (`withMoreWords` in components/i18n/words.ts: `lazyWithWords`, `deferred`, and the
 * `import()`s whose code speaks: Read aloud's, the diagrams', the previews'), so no page ever
 * shows a key for want of its words.
 * Where a key goes is not a choice: `npx tsx scripts/split-words.ts` puts each key where it
 * belongs, and tests/unit/i18n/locales.test.ts fails, naming the key, while one is misplaced.
 * Every locale but English is its own chunks too, loaded the same way (`ensureLocale`).
 * `locales/en.json` with `locales/more/en.json` are the reference: their keys are `MessageKey`.
 */
import first from '../../locales/en.json';
import type more from '../../locales/more/en.json';
import { type Locale } from './locale';
import { createTranslator, flattenMessages, type MessageTree, type Translator } from './translate';

/** The parts of every locale's words, in the order a page needs them. */
export const WORD_PARTS = ['first', 'more'] as const;
export type WordPart = (typeof WORD_PARTS)[number];

const LOADERS: Record<WordPart, Record<Locale, () => Promise<MessageTree>>> = {
  first: {
    en: () => Promise.resolve(first),
    'zh-CN': () => import('../../locales/zh-CN.json').then((m) => m.default),
  },
  more: {
    en: () => import('../../locales/more/en.json').then((m) => m.default),
    'zh-CN': () => import('../../locales/more/zh-CN.json').then((m) => m.default),
  },
};

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Every key of the message files, in both parts. */
export type MessageKey = Leaves<typeof first> | Leaves<typeof more>;

/** One part of a locale's message file, as written. */
export function loadMessageTree(locale: Locale, part: WordPart): Promise<MessageTree> {
  return LOADERS[part][locale]();
}

/** The words loaded so far, by locale: the parts' keys do not overlap, so they share one table. */
const tables = new Map<Locale, Map<string, string>>([['en', flattenMessages(first)]]);
const loaded = new Set<string>(['en/first']);
const loading = new Map<string, Promise<void>>();

function ensurePart(locale: Locale, part: WordPart): Promise<void> {
  const id = `${locale}/${part}`;
  if (loaded.has(id)) return Promise.resolve();
  let pending = loading.get(id);
  if (pending === undefined) {
    pending = loadMessageTree(locale, part).then((tree) => {
      let table = tables.get(locale);
      if (table === undefined) tables.set(locale, (table = new Map()));
      flattenMessages(tree, '', table);
      loaded.add(id);
    });
    loading.set(id, pending);
  }
  return pending;
}

/** Loads these parts of a locale's words (once; all of them unless told); `wordsFor` speaks them from then on. */
export function ensureLocale(locale: Locale, parts: readonly WordPart[] = WORD_PARTS): Promise<void> {
  return Promise.all(parts.map((part) => ensurePart(locale, part))).then(() => undefined);
}

export function isLocaleLoaded(locale: Locale, parts: readonly WordPart[] = WORD_PARTS): boolean {
  return parts.every((part) => loaded.has(`${locale}/${part}`));
}

/** A translator whose keys are the message files' keys. */
export interface Words extends Translator {
  t(key: MessageKey, params?: Record<string, string | number>): string;
  plural(key: MessageKey, count: number, params?: Record<string, string | number>): string;
}

const translators = new Map<Locale, Words>();

/**
 * The words of `locale`, once its first words are loaded (`ensureLocale`); English until then, so
 * a page never mixes two languages. A part loaded later joins the same translator.
 */
export function wordsFor(locale: Locale): Words {
  if (!loaded.has(`${locale}/first`)) return wordsFor('en');
  let words = translators.get(locale);
  if (words === undefined) {
    words = createTranslator(locale, tables.get(locale)!, locale === 'en' ? undefined : tables.get('en')) as Words;
    translators.set(locale, words);
  }
  return words;
}
