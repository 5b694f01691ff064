/**
 * Looking words up in the message files (`locales/*.json`, the same files `@wxt-dev/i18n`
 * turns into the manifest's `_locales`). `browser.i18n` only speaks the browser's language;
 * this speaks whichever locale the user chose, with the same file format: nested keys joined
 * by ".", named substitutions `{name}`, and plural forms "one | other" (or "zero | one | other")
 * chosen by a count, which is also available as `{count}`, formatted for the locale.
 */
import type { Locale } from './locale';

export type MessageTree = { [key: string]: string | MessageTree };
export type Params = Record<string, string | number>;

/** "a.b.c" → the string, for every leaf of a message file. */
export function flattenMessages(tree: MessageTree, prefix = '', out: Map<string, string> = new Map()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') out.set(path, value);
    else flattenMessages(value, path, out);
  }
  return out;
}

const NAMED = /\{([A-Za-z0-9_]+)\}/g;

function pluralForm(message: string, count: number, locale: Locale): string {
  const forms = message.split(' | ');
  if (forms.length === 1) return message;
  if (forms.length === 3 && count === 0) return forms[0] ?? message;
  const rule = new Intl.PluralRules(locale).select(count);
  const [one, other] = forms.length === 3 ? [forms[1], forms[2]] : [forms[0], forms[1]];
  return (rule === 'one' ? one : other) ?? message;
}

export interface Translator {
  readonly locale: Locale;
  /** The words for `key`; the key itself (and a warning in tests) when no file has it. */
  t(key: string, params?: Params): string;
  /** The same, choosing the plural form by `count` (also given as `{count}`). */
  plural(key: string, count: number, params?: Params): string;
  /** A number written the locale's way. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  has(key: string): boolean;
}

export function createTranslator(locale: Locale, messages: ReadonlyMap<string, string>, fallback?: ReadonlyMap<string, string>): Translator {
  const numbers = new Intl.NumberFormat(locale);
  const fill = (message: string, params: Params | undefined): string =>
    params === undefined
      ? message
      : message.replace(NAMED, (whole, name: string) => {
          if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
          const value = params[name];
          return typeof value === 'number' ? numbers.format(value) : String(value);
        });
  const lookup = (key: string): string => messages.get(key) ?? fallback?.get(key) ?? key;
  return {
    locale,
    t: (key, params) => fill(lookup(key), params),
    plural: (key, count, params) => fill(pluralForm(lookup(key), count, locale), { count, ...params }),
    number: (value, options) => (options === undefined ? numbers.format(value) : new Intl.NumberFormat(locale, options).format(value)),
    has: (key) => messages.has(key),
  };
}
