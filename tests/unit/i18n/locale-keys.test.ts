/**
 * The message files also become the extension's `_locales` (joined with `_`): Chrome refuses to
 * load an extension whose message names hold anything but ASCII letters, digits and `_` (a key
 * `streamable-http` once kept the built extension from starting at all). Only the first words
 * (`locales/<locale>.json`) become `_locales`, but a key may move there: both parts are checked.
 */
import { expect, it } from 'vitest';
import { LOCALES } from '@/lib/i18n/locale';
import { loadMessageTree, WORD_PARTS } from '@/lib/i18n/messages';
import { flattenMessages } from '@/lib/i18n/translate';

it('every key of every message file is a name Chrome takes', async () => {
  for (const locale of LOCALES) {
    const keys = (await Promise.all(WORD_PARTS.map(async (part) => [...flattenMessages(await loadMessageTree(locale, part)).keys()]))).flat();
    expect(keys.length).toBeGreaterThan(100);
    expect(keys.filter((k) => !/^[A-Za-z0-9_.]+$/.test(k))).toEqual([]);
  }
});
