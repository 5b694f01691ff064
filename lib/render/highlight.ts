/**
 * Code highlighting for rendered replies, with lowlight (highlight.js's grammars, output as a
 * hast tree) rather than Shiki:
 * - its output is classes (`hljs-keyword`), not inline colours, so the light and dark themes are
 *   CSS variables (components/chat/render/code.css) and a theme change re-highlights nothing;
 *   Shiki writes each theme's colours into every span's `style` (which our sanitiser refuses);
 * - its grammars are small (2–23 kB each, unminified) and load one by one on first use; Shiki's
 *   TextMate grammars are several times larger and need its regex engine on top;
 * - it is fast: 2,000 lines of this project's TypeScript (89 kB) highlight and serialise in 36 ms
 *   (median of 10 runs once warm, Node 20 under vitest, a shared 2-core machine; a scratch script).
 *   Shiki is not installed here, so it was not timed side by side;
 * - the tree it returns is serialised below with an allow-list, so the worker needs no HTML parser
 *   (and no DOM) to trust it.
 * Highlighting never guesses: a block whose language is missing or unknown stays plain text
 * (highlight.js's auto-detection is not used; it colours prose as some language or other).
 */
import type { ElementContent, Root } from 'hast';
import type { LanguageFn } from 'highlight.js';
import { createLowlight } from 'lowlight';

/** A grammar of highlight.js, fetched by its own chunk on first use. */
type Grammar = 'bash' | 'c' | 'cpp' | 'csharp' | 'css' | 'diff' | 'dockerfile' | 'go' | 'ini' | 'java' | 'javascript' | 'json' | 'kotlin' | 'markdown' | 'php' | 'python' | 'ruby' | 'rust' | 'sql' | 'swift' | 'typescript' | 'xml' | 'yaml';

// Each import is written out so the bundler makes one chunk per grammar.
const GRAMMARS: Record<Grammar, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/**
 * The languages we highlight, by the name a block shows (`data-lang`), each with its grammar,
 * the fence words that mean it, and the grammars its embedded code uses (a `<style>` in HTML is
 * CSS, a Dockerfile's RUN is shell).
 */
const LANGUAGES: Record<string, { grammar: Grammar; aliases: readonly string[]; embeds?: readonly Grammar[] }> = {
  javascript: { grammar: 'javascript', aliases: ['js', 'mjs', 'cjs', 'node'] },
  jsx: { grammar: 'javascript', aliases: [] },
  typescript: { grammar: 'typescript', aliases: ['ts', 'mts', 'cts'] },
  tsx: { grammar: 'typescript', aliases: [] },
  python: { grammar: 'python', aliases: ['py', 'python3', 'py3'] },
  bash: { grammar: 'bash', aliases: ['sh', 'shell', 'zsh', 'ksh'] },
  json: { grammar: 'json', aliases: ['jsonc', 'json5'] },
  yaml: { grammar: 'yaml', aliases: ['yml'] },
  html: { grammar: 'xml', aliases: ['htm', 'xhtml'], embeds: ['css', 'javascript'] },
  svg: { grammar: 'xml', aliases: [], embeds: ['css', 'javascript'] },
  xml: { grammar: 'xml', aliases: ['plist', 'xsd', 'xsl', 'rss', 'atom'] },
  css: { grammar: 'css', aliases: [] },
  sql: { grammar: 'sql', aliases: ['mysql', 'postgresql', 'postgres', 'sqlite', 'plsql'] },
  go: { grammar: 'go', aliases: ['golang'] },
  rust: { grammar: 'rust', aliases: ['rs'] },
  java: { grammar: 'java', aliases: [] },
  c: { grammar: 'c', aliases: ['h'] },
  cpp: { grammar: 'cpp', aliases: ['c++', 'cc', 'cxx', 'hpp', 'hh', 'hxx', 'h++'] },
  csharp: { grammar: 'csharp', aliases: ['c#', 'cs'] },
  php: { grammar: 'php', aliases: [] },
  ruby: { grammar: 'ruby', aliases: ['rb'] },
  kotlin: { grammar: 'kotlin', aliases: ['kt', 'kts'] },
  swift: { grammar: 'swift', aliases: [] },
  diff: { grammar: 'diff', aliases: ['patch'] },
  markdown: { grammar: 'markdown', aliases: ['md', 'mkd', 'mdown'], embeds: ['xml'] },
  dockerfile: { grammar: 'dockerfile', aliases: ['docker'], embeds: ['bash'] },
  toml: { grammar: 'ini', aliases: [] },
  ini: { grammar: 'ini', aliases: ['cfg'] },
};

const BY_WORD = new Map<string, string>();
for (const [name, language] of Object.entries(LANGUAGES)) {
  BY_WORD.set(name, name);
  for (const alias of language.aliases) BY_WORD.set(alias, name);
}

/**
 * The language a fence's info string names (its first word, any case), by the name we show, or
 * undefined when it names none we highlight (then the block is plain: never a guess).
 */
export function codeLanguage(info: string): string | undefined {
  const word = info.trim().split(/\s/, 1)[0]!.toLowerCase();
  return BY_WORD.get(word);
}

// The first word after a fence's opening backticks or tildes, in a list item or a quote too.
const FENCE_INFO = /^[ \t>*+\-\d.)]*(?:`{3,}|~{3,})[ \t]*([^\s`{]+)/gm;

/** The languages of the fenced code blocks in a piece of markdown (each once, by the name we show). */
export function languagesIn(markdown: string): string[] {
  const found = new Set<string>();
  for (const match of markdown.matchAll(FENCE_INFO)) {
    const language = codeLanguage(match[1]!);
    if (language !== undefined) found.add(language);
  }
  return [...found];
}

const lowlight = createLowlight();
const loads = new Map<Grammar, Promise<void>>();

function load(grammar: Grammar): Promise<void> {
  let pending = loads.get(grammar);
  if (pending === undefined) {
    pending = GRAMMARS[grammar]().then(
      (module) => lowlight.register(grammar, module.default),
      // A chunk that failed to arrive (an extension updated under an open page): the block stays
      // plain, and the next block that needs it asks again.
      () => {
        loads.delete(grammar);
      },
    );
    loads.set(grammar, pending);
  }
  return pending;
}

/**
 * Loads the grammars `names` (languages or their aliases) need, each once; unknown names are
 * ignored. Resolves when they are ready (a grammar that failed to load leaves its blocks plain).
 */
export async function ensureLanguages(names: readonly string[]): Promise<void> {
  const grammars = new Set<Grammar>();
  for (const name of names) {
    const language = LANGUAGES[codeLanguage(name) ?? ''];
    if (language === undefined) continue;
    grammars.add(language.grammar);
    for (const embedded of language.embeds ?? []) grammars.add(embedded);
  }
  await Promise.all([...grammars].map(load));
}

const HLJS_CLASS = /^hljs-[a-z0-9_-]+$/i;

function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * lowlight's tree as HTML, keeping only what the allow-list lets through: spans with `hljs-*`
 * classes and escaped text. Anything else (an embedded language's wrapper, a class without the
 * prefix such as `function_`) is dropped, its text kept.
 */
function toHtml(nodes: readonly ElementContent[], out: string[]): void {
  for (const node of nodes) {
    if (node.type === 'text') {
      out.push(escapeText(node.value));
    } else if (node.type === 'element') {
      const classes = (Array.isArray(node.properties.className) ? node.properties.className : []).map(String).filter((c) => HLJS_CLASS.test(c));
      if (classes.length === 0) {
        toHtml(node.children, out);
      } else {
        out.push(`<span class="${classes.join(' ')}">`);
        toHtml(node.children, out);
        out.push('</span>');
      }
    }
  }
}

/**
 * `code` highlighted as `language` (a name or alias), as the inner HTML of its `<code>`: spans
 * with `hljs-*` classes around escaped text, whose text is exactly `code`. Undefined when the
 * language is unknown or its grammar is not loaded yet (`ensureLanguages`): show it plain.
 */
export function highlightCode(code: string, language: string): string | undefined {
  const known = LANGUAGES[codeLanguage(language) ?? ''];
  if (known === undefined || !lowlight.registered(known.grammar)) return undefined;
  const tree: Root = lowlight.highlight(known.grammar, code);
  const out: string[] = [];
  toHtml(tree.children as ElementContent[], out);
  return out.join('');
}
