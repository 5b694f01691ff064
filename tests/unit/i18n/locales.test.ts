/**
 * Every string the user reads comes from the message files, in every language we ship:
 * the locales have the same keys, the same placeholders and plural forms where they make
 * sense, and no component renders a literal English word of its own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LOCALES, resolveLocale } from '@/lib/i18n/locale';
import { loadMessageTree, wordsFor } from '@/lib/i18n/messages';
import { flattenMessages } from '@/lib/i18n/translate';

const ROOT = join(import.meta.dirname, '../../..');
const placeholders = (text: string): string[] => [...new Set([...text.matchAll(/\{([A-Za-z0-9_]+)\}|\{\{(\w+)\}\}/g)].map((m) => m[0]))].sort();

const flat = Object.fromEntries(await Promise.all(LOCALES.map(async (l) => [l, flattenMessages(await loadMessageTree(l))] as const)));

describe('the message files', () => {
  const en = flat.en!;

  const keyDifference = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string[] => [
    ...[...a.keys()].filter((k) => !b.has(k)).map((k) => `missing: ${k}`),
    ...[...b.keys()].filter((k) => !a.has(k)).map((k) => `extra: ${k}`),
  ];

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale} has exactly the keys of en`, () => {
      expect(keyDifference(en, flat[locale]!)).toEqual([]);
    });

    it(`${locale} uses the placeholders of en, and no message is left empty`, () => {
      const other = flat[locale]!;
      const wrong = [...en.entries()].filter(([key, text]) => {
        const theirs = other.get(key);
        // The number of a plural may stand in the English "one" form only ("1 model").
        return theirs === undefined || theirs.trim() === '' || placeholders(theirs).join() !== placeholders(text).join();
      }).map(([key]) => key);
      expect(wrong).toEqual([]);
    });
  }

  it('a key missing from one file, or only in one, is caught (the check is real)', () => {
    const broken = new Map(flat['zh-CN']!);
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
