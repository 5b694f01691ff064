/**
 * `npx tsx scripts/split-words.ts`: puts every message key in the part of the message files it
 * belongs to (lib/i18n/messages.ts says why there are two): the words the popup's own scripts can
 * say in `locales/<locale>.json`, every other word in `locales/more/<locale>.json`, in every locale,
 * each file keeping its order. Add a key to either file, run this, and it lands where it belongs;
 * tests/unit/i18n/locales.test.ts fails, naming the key, until it does. A key found in both parts (a
 * merge from before a move) keeps the text of `locales/<locale>.json`.
 *
 * "Can say": a key named in a module the popup imports statically (its HTML loads those before
 * anything runs), as a string or as the fixed start of a template (`error.title.${kind}`: every key
 * under `error.title.`). `t()` takes only `MessageKey`s, so a key cannot be built any other way
 * without a cast. Dynamic `import()`s and type-only imports are not followed.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { LOCALES } from '../lib/i18n/locale';
import { flattenMessages, type MessageTree } from '../lib/i18n/translate';

const ROOT = resolve(import.meta.dirname, '..');

/** The popup's entry: the words of the modules it imports statically are its first words. */
export const POPUP_ENTRY = 'entrypoints/popup/main.tsx';
/** The manifest's words (`__MSG_app_name__`, the commands): @wxt-dev/i18n reads them from `locales/<locale>.json`. */
const MANIFEST_GROUPS = ['app', 'manifest'];

export const partFile = (part: 'first' | 'more', locale: string): string => (part === 'first' ? `locales/${locale}.json` : `locales/more/${locale}.json`);

function resolveModule(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('@/')) base = join(ROOT, specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return undefined; // a package: it names no keys of ours
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined; // styles, JSON, assets
}

/** The modules a module imports (or re-exports) statically, type-only imports aside. */
function staticImports(path: string, source: ts.SourceFile): string[] {
  const found: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly
        || (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (specifier !== undefined && ts.isStringLiteral(specifier)) {
      const target = resolveModule(path, specifier.text);
      if (target !== undefined) found.push(target);
    }
  }
  return found;
}

/** The keys a module names: strings equal to a key, and every key under a template's fixed start. */
function namedKeys(source: ts.SourceFile, keys: ReadonlySet<string>): string[] {
  const named: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && keys.has(node.text)) named.push(node.text);
    if (ts.isTemplateExpression(node) && /^[A-Za-z]\w*\.(\w+\.)*$/.test(node.head.text)) {
      for (const key of keys) if (key.startsWith(node.head.text)) named.push(key);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return named;
}

/** The keys said by the modules `entry` imports statically, each with the first module found saying it. */
export function wordsSaidBy(entry: string, keys: ReadonlySet<string>): Map<string, string> {
  const seen = new Set<string>();
  const said = new Map<string, string>();
  const queue = [join(ROOT, entry)];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    for (const key of namedKeys(source, keys)) if (!said.has(key)) said.set(key, relative(ROOT, path));
    queue.push(...staticImports(path, source));
  }
  return said;
}

const readTree = (file: string): MessageTree => (existsSync(join(ROOT, file)) ? JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as MessageTree : {});

/** Every key of the English files (both parts). */
export function allKeys(): Set<string> {
  return new Set([...flattenMessages(readTree(partFile('first', 'en'))).keys(), ...flattenMessages(readTree(partFile('more', 'en'))).keys()]);
}

/** Whether a key belongs in the first words: the popup says it (`popupSaid`), or the manifest does. */
export function isFirstWord(key: string, popupSaid: ReadonlyMap<string, string>): boolean {
  return popupSaid.has(key) || MANIFEST_GROUPS.includes(key.split('.')[0]!);
}

/** `tree` with only the leaves `keep` accepts (empty groups dropped), in its order. */
function pick(tree: MessageTree, keep: (key: string) => boolean, prefix = ''): MessageTree {
  const out: MessageTree = {};
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    if (typeof value === 'string') {
      if (keep(key)) out[name] = value;
    } else {
      const inner = pick(value, keep, key);
      if (Object.keys(inner).length > 0) out[name] = inner;
    }
  }
  return out;
}

/**
 * The names of two groups in one order that keeps the order of each (a group both have stays where
 * the first part has it; the other part's own names stay before the shared name that follows them
 * there), so that splitting the merged tree again gives back each file as it was: moving a key
 * changes nothing else in either file.
 */
function mergedOrder(first: readonly string[], more: readonly string[]): string[] {
  const inFirst = new Set(first);
  const out: string[] = [];
  const placed = new Set<string>();
  const place = (name: string): void => {
    if (!placed.has(name)) out.push(name);
    placed.add(name);
  };
  let i = 0;
  let j = 0;
  while (i < first.length || j < more.length) {
    // The other part's own names, up to the next shared one (which waits for its place in the first part's order).
    while (j < more.length && (placed.has(more[j]!) || !inFirst.has(more[j]!))) place(more[j++]!);
    if (i < first.length) place(first[i++]!);
    else if (j < more.length) place(more[j++]!);
  }
  return out;
}

/** Both parts as one tree (a key in both keeps the first part's text). */
function merge(first: MessageTree, more: MessageTree): MessageTree {
  return Object.fromEntries(mergedOrder(Object.keys(first), Object.keys(more)).map((name) => {
    const [mine, theirs] = [first[name], more[name]];
    const both = mine !== undefined && theirs !== undefined && typeof mine !== 'string' && typeof theirs !== 'string';
    return [name, both ? merge(mine, theirs) : (mine ?? theirs)!];
  }));
}

function split(): void {
  const said = wordsSaidBy(POPUP_ENTRY, allKeys());
  const inFirst = (key: string): boolean => isFirstWord(key, said);
  for (const locale of LOCALES) {
    const whole = merge(readTree(partFile('first', locale)), readTree(partFile('more', locale)));
    for (const part of ['first', 'more'] as const) {
      const tree = pick(whole, part === 'first' ? inFirst : (key) => !inFirst(key));
      writeFileSync(join(ROOT, partFile(part, locale)), `${JSON.stringify(tree, null, 2)}\n`);
    }
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) split();
