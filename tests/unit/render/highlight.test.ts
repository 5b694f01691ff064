import { describe, expect, it, vi } from 'vitest';
import { codeLanguage, ensureLanguages, highlightCode, languagesIn } from '@/lib/render/highlight';

// Which grammars this module fetched, in order: each is its own dynamic import, made on first use.
const fetched = vi.hoisted(() => [] as string[]);
vi.mock('highlight.js/lib/languages/go', async (original) => {
  fetched.push('go');
  return original();
});
vi.mock('highlight.js/lib/languages/rust', async (original) => {
  fetched.push('rust');
  return original();
});

/** The text a browser would show for highlighted HTML, and the tags and classes it holds. */
function parse(html: string): { text: string; tags: string[]; classes: string[] } {
  const tags = [...html.matchAll(/<\/?([a-zA-Z]+)([^>]*)>/g)];
  const classes = tags.flatMap((t) => [...t[2]!.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(' ')));
  const text = html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return { text, tags: [...new Set(tags.map((t) => t[1]!))], classes: [...new Set(classes)] };
}

/** The text of the spans with `cls` (outermost level only). */
function tokens(html: string, cls: string): string[] {
  return [...html.matchAll(new RegExp(`<span class="${cls}">([^<]*)</span>`, 'g'))].map((m) => m[1]!);
}

describe('codeLanguage: a fence names a language we highlight, or none (never a guess)', () => {
  it('names and aliases, in any case, by the first word of the info string', () => {
    expect(codeLanguage('js')).toBe('javascript');
    expect(codeLanguage('TS')).toBe('typescript');
    expect(codeLanguage('tsx')).toBe('tsx');
    expect(codeLanguage('python {linenos=true}')).toBe('python');
    expect(codeLanguage('zsh')).toBe('bash');
    expect(codeLanguage('shell')).toBe('bash');
    expect(codeLanguage('yml')).toBe('yaml');
    expect(codeLanguage('svg')).toBe('svg');
    expect(codeLanguage('c++')).toBe('cpp');
    expect(codeLanguage('C#')).toBe('csharp');
    expect(codeLanguage('cs')).toBe('csharp');
    expect(codeLanguage('rb')).toBe('ruby');
    expect(codeLanguage('kt')).toBe('kotlin');
    expect(codeLanguage('patch')).toBe('diff');
    expect(codeLanguage('md')).toBe('markdown');
    expect(codeLanguage('Dockerfile')).toBe('dockerfile');
    expect(codeLanguage('toml')).toBe('toml');
  });

  it('a missing or unknown language is undefined', () => {
    for (const info of ['', '   ', 'text', 'plaintext', 'mermaid', 'brainfuck', 'constructor', '__proto__', 'toString']) expect(codeLanguage(info), info).toBeUndefined();
  });

  it('languagesIn finds the fences of a reply, in lists and quotes too, each once', () => {
    const reply = ['Intro', '```py', 'x = 1', '```', '- item', '  ```rust', '  fn main() {}', '  ```', '> ~~~ JSON', '> {}', '> ~~~', '```python', '```', '```', 'plain', '```', '```mermaid', 'graph TD', '```'].join('\n');
    expect(languagesIn(reply).sort()).toEqual(['json', 'python', 'rust']);
    expect(languagesIn('no code here, only `inline` code')).toEqual([]);
  });
});

describe('highlightCode', () => {
  it('a grammar is fetched on first use, and only the ones asked for', async () => {
    expect(highlightCode('package main', 'go')).toBeUndefined();
    expect(fetched).toEqual([]);
    await ensureLanguages(['golang']);
    expect(fetched).toEqual(['go']);
    expect(tokens(highlightCode('package main\nfunc main() {}', 'go')!, 'hljs-keyword')).toEqual(['package', 'func']);
    await ensureLanguages(['go', 'golang']);
    expect(fetched).toEqual(['go']);
    expect(highlightCode('fn main() {}', 'rust')).toBeUndefined();
  });

  it('colours tokens as spans with hljs classes, in many languages', async () => {
    await ensureLanguages(['python', 'ts', 'bash', 'json', 'sql', 'html', 'cpp', 'csharp', 'yaml', 'diff', 'toml', 'dockerfile', 'kotlin', 'swift', 'php', 'ruby', 'java', 'c', 'css', 'markdown']);
    const python = highlightCode('def greet(name):\n    return "hi " + name  # say hi\n', 'python')!;
    expect(tokens(python, 'hljs-keyword')).toContain('def');
    expect(tokens(python, 'hljs-string')).toEqual(['"hi "']);
    expect(tokens(python, 'hljs-comment')).toEqual(['# say hi']);
    const ts = highlightCode('const n: number = 42; // answer', 'ts')!;
    expect(tokens(ts, 'hljs-keyword')).toEqual(['const']);
    expect(tokens(ts, 'hljs-number')).toEqual(['42']);
    expect(tokens(ts, 'hljs-built_in')).toEqual(['number']);
    expect(tokens(highlightCode('SELECT id FROM users WHERE age > 30;', 'sql')!, 'hljs-keyword')).toEqual(['SELECT', 'FROM', 'WHERE']);
    expect(tokens(highlightCode('{"a": true}', 'json')!, 'hljs-attr')).toEqual(['"a"']);
    expect(tokens(highlightCode('echo "$HOME" # where', 'sh')!, 'hljs-built_in')).toEqual(['echo']);
    expect(tokens(highlightCode('-old\n+new\n', 'patch')!, 'hljs-addition')).toEqual(['+new']);
    // HTML colours its embedded CSS and JavaScript too.
    const html = highlightCode('<style>p { color: red }</style><script>let x = 1</script>', 'html')!;
    expect(tokens(html, 'hljs-keyword')).toContain('let');
    expect(tokens(html, 'hljs-attribute')).toContain('color');
    for (const [language, code] of [['cpp', 'int main() { return 0; }'], ['c#', 'public class A {}'], ['yaml', 'a: 1'], ['toml', '[a]\nb = 1'], ['dockerfile', 'FROM node:20\nRUN npm ci'], ['kt', 'fun main() {}'], ['swift', 'let x = 1'], ['php', '<?php echo 1;'], ['rb', 'def a; end'], ['java', 'class A {}'], ['c', 'int x = 1;'], ['css', 'a { color: red }'], ['md', '# Title\n\n**bold**']]) {
      expect(parse(highlightCode(code!, language!)!).classes.length, language).toBeGreaterThan(0);
    }
  });

  it('its text is exactly the code, and it holds nothing but spans with hljs classes', async () => {
    await ensureLanguages(['html', 'ts', 'python']);
    const samples: [string, string][] = [
      ['html', '<a href="javascript:alert(1)" onclick="x()">&amp; &lt;</a>\n<img src=x onerror=alert(2)>\t \n'],
      ['ts', 'const s = "</code></pre><script>alert(1)</script>";\t// 中文注释  \nlet a = b < c && d > e;\n'],
      ['python', 'print("<b>&</b>")  \n\tx = 1\n'],
    ];
    for (const [language, code] of samples) {
      const html = highlightCode(code, language)!;
      const { text, tags, classes } = parse(html);
      expect(text).toBe(code);
      expect(tags).toEqual(['span']);
      expect(classes.every((c) => /^hljs-[\w-]+$/.test(c)), classes.join()).toBe(true);
      expect(html).not.toMatch(/<(?!\/?span[ >])/);
    }
  });

  it('an unknown language is left plain', () => {
    expect(highlightCode('+++++[>++<-]', 'brainfuck')).toBeUndefined();
    expect(highlightCode('x', '')).toBeUndefined();
  });
});
