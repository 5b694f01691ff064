/**
 * Every string the user reads comes from the message files, in every language we ship:
 * the locales have the same keys (in the same part of the files: lib/i18n/messages.ts), the
 * same placeholders and plural forms where they make sense, and no component renders a literal
 * English word of its own. The first words are exactly what the popup's own scripts say.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LOCALES, resolveLocale, type Locale } from '@/lib/i18n/locale';
import { loadMessageTree, WORD_PARTS, wordsFor, type WordPart } from '@/lib/i18n/messages';
import { flattenMessages } from '@/lib/i18n/translate';
import { allKeys, isFirstWord, partFile, POPUP_ENTRY, wordsSaidBy } from '../../../scripts/split-words';

const ROOT = join(import.meta.dirname, '../../..');
const placeholders = (text: string): string[] => [...new Set([...text.matchAll(/\{([A-Za-z0-9_]+)\}|\{\{(\w+)\}\}/g)].map((m) => m[0]))].sort();

/** Each part of each locale's words, flattened. */
const parts = Object.fromEntries(await Promise.all(WORD_PARTS.map(async (part) =>
  [part, Object.fromEntries(await Promise.all(LOCALES.map(async (l) => [l, flattenMessages(await loadMessageTree(l, part))] as const)))] as const,
))) as Record<WordPart, Record<Locale, Map<string, string>>>;
/** Each locale's words, both parts. */
const flat = Object.fromEntries(LOCALES.map((l) => [l, new Map(WORD_PARTS.flatMap((part) => [...parts[part][l]]))] as const)) as Record<Locale, Map<string, string>>;

describe('the message files', () => {
  const en = flat.en;

  const keyDifference = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string[] => [
    ...[...a.keys()].filter((k) => !b.has(k)).map((k) => `missing: ${k}`),
    ...[...b.keys()].filter((k) => !a.has(k)).map((k) => `extra: ${k}`),
  ];

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    for (const part of WORD_PARTS) {
      it(`${partFile(part, locale)} has exactly the keys of ${partFile(part, 'en')}`, () => {
        expect(keyDifference(parts[part].en, parts[part][locale])).toEqual([]);
      });
    }

    it(`${locale} uses the placeholders of en, and no message is left empty`, () => {
      const other = flat[locale];
      const wrong = [...en.entries()].filter(([key, text]) => {
        const theirs = other.get(key);
        // The number of a plural may stand in the English "one" form only ("1 model").
        return theirs === undefined || theirs.trim() === '' || placeholders(theirs).join() !== placeholders(text).join();
      }).map(([key]) => key);
      expect(wrong).toEqual([]);
    });
  }

  it('no key is in both parts', () => {
    expect([...parts.first.en.keys()].filter((k) => parts.more.en.has(k))).toEqual([]);
  });

  it('the first words are exactly what the popup\'s own scripts say, and the manifest\'s (`npx tsx scripts/split-words.ts` puts every key where it belongs)', () => {
    const said = wordsSaidBy(POPUP_ENTRY, allKeys());
    const misplaced = [
      ...[...parts.first.en.keys()].filter((k) => !isFirstWord(k, said)).map((k) => `${k}: in ${partFile('first', 'en')}, but the popup's first scripts never say it`),
      ...[...parts.more.en.keys()].filter((k) => isFirstWord(k, said)).map((k) => `${k}: in ${partFile('more', 'en')}, but ${said.get(k) ?? 'the manifest'} says it`),
    ];
    expect(misplaced).toEqual([]);
  });

  it('what the popup says is found in literals and under templates, and not past a dynamic import (the check is real)', () => {
    const said = wordsSaidBy(POPUP_ENTRY, allKeys());
    expect(said.get('popup.label')).toBe('components/popup/PopupApp.tsx');
    // `error.title.${error.kind}`
    expect(said.get('error.title.rate_limited')).toBe('components/i18n/problems.ts');
    // The first run's form is imported lazily; the options page is another page.
    expect(said.has('connection.address')).toBe(false);
    expect(said.has('options.saved')).toBe(false);
  });

  it('a key missing from one file, or only in one, is caught (the check is real)', () => {
    const broken = new Map(flat['zh-CN']);
    broken.delete('app.name');
    broken.set('app.extra', 'x');
    expect(keyDifference(en, broken)).toEqual(['missing: app.name', 'extra: app.extra']);
  });

  it('plurals and numbers follow the locale', () => {
    expect(wordsFor('en').plural('picker.count', 1)).toBe('1 model');
    expect(wordsFor('en').plural('picker.count', 12345)).toBe('12,345 models');
    expect(wordsFor('zh-CN').plural('picker.count', 12345)).toBe('12,345 个模型');
    expect(wordsFor('en').t('refusal.text_too_long', { tokens: 150000, limit: 128000 })).toContain('150,000');
  });

  it('the language follows the browser unless the settings choose one', () => {
    expect(resolveLocale('browser', ['zh-CN', 'en'])).toBe('zh-CN');
    expect(resolveLocale('browser', ['zh'])).toBe('zh-CN');
    expect(resolveLocale('browser', ['fr-FR', 'en-GB'])).toBe('en');
    expect(resolveLocale('browser', ['zh-TW'])).toBe('en');
    expect(resolveLocale('en', ['zh-CN'])).toBe('en');
    expect(resolveLocale('zh-CN', ['en-US'])).toBe('zh-CN');
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.tsx') ? [path] : [];
  });
}

/** Attributes whose value the user reads (or hears). */
const WORDED_PROPS = new Set(['label', 'title', 'placeholder', 'aria-label', 'tip', 'hint', 'description', 'confirm', 'cancel', 'emptyText', 'alt', 'content', 'intro', 'error', 'footer']);
/** Letters that make a word: text such as "·", "…", "1." or "{" is not one. */
const WORD = /[A-Za-z]{2,}/;

/** Literal text in JSX, and literal strings in worded attributes, of a .tsx file. */
export function literalWords(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (node: ts.Node): string => `${relative(ROOT, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && WORD.test(node.text)) found.push(`${where(node)} text “${node.text.trim()}”`);
    if (ts.isJsxAttribute(node) && WORDED_PROPS.has(node.name.getText(source)) && node.initializer !== undefined) {
      const init = node.initializer;
      const literal = ts.isStringLiteral(init)
        ? init
        : ts.isJsxExpression(init) && init.expression !== undefined && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression)) ? init.expression : undefined;
      if (literal !== undefined && WORD.test(literal.text)) found.push(`${where(node)} ${node.name.getText(source)}="${literal.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('components speak through the message files', () => {
  it('no component renders a literal English word', () => {
    const files = [...sourceFiles(join(ROOT, 'components')), ...sourceFiles(join(ROOT, 'entrypoints'))];
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(literalWords)).toEqual([]);
  });

  it('the check finds literal words (it is not vacuous)', () => {
    const probe = join(import.meta.dirname, 'fixtures/literal.tsx.txt');
    const copy = join(ROOT, 'test-results/literal-probe.tsx');
    ts.sys.writeFile(copy, readFileSync(probe, 'utf8'));
    expect(literalWords(copy).map((l) => l.replace(/^[^ ]+ /, ''))).toEqual(['aria-label="Close panel"', 'text “Save the file”', 'placeholder="Ask anything"']);
  });
});
