// @vitest-environment jsdom
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { MAX_FORMULA_CHARS, mathPlugin, type MathEnv } from '@/lib/render/math';
import { sanitizeRendered } from '@/lib/render/sanitize';
import { wordsFor } from '@/lib/i18n/messages';
import { onPage, pageTree, writtenTree } from './html-tree';

const md = new MarkdownIt({ html: false }).use(mathPlugin);
const labels = { formulaBlocked: wordsFor('en').t('markdown.formulaBlocked'), formulaTooLong: wordsFor('en').t('markdown.formulaTooLong') };

/** `source` rendered and sanitised as the worker does it, set on a page. */
function render(source: string, env: MathEnv = { labels }): HTMLDivElement {
  const html = sanitizeRendered(md.render(source, env));
  expect(pageTree(html)).toBe(writtenTree(html));
  return onPage(html);
}

function formulas(el: HTMLElement): Array<{ kind: string; tex: string | null; tag: string }> {
  return Array.from(el.querySelectorAll('.math')).map((m) => ({
    kind: ['math-inline', 'math-display', 'math-error'].filter((c) => m.classList.contains(c)).join(' '),
    tex: m.getAttribute('data-tex'),
    tag: m.localName,
  }));
}

/** The MathML a screen reader gets: its annotation holds the source. */
function annotation(formula: Element): string | undefined {
  const math = formula.querySelector('.katex-mathml math');
  expect(math?.namespaceURI).toBe('http://www.w3.org/1998/Math/MathML');
  return math?.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? undefined;
}

describe('mathPlugin: a formula as rendered', () => {
  it('comes focusable (its menu opens from the keyboard), so the page never sets it on each frame a growing block is morphed', () => {
    const el = render('Euler: $e^{i\\pi}+1=0$ and $\\frac{1}{0$');
    expect(Array.from(el.querySelectorAll('.math')).map((m) => m.getAttribute('tabindex'))).toEqual(['0', '0']);
  });
});

describe('mathPlugin: delimiters', () => {
  it('$…$ and \\(…\\) are inline formulas', () => {
    const el = render('Euler: $e^{i\\pi}+1=0$, and \\( \\frac{a}{b} \\) too.');
    expect(formulas(el)).toEqual([
      { kind: 'math-inline', tex: 'e^{i\\pi}+1=0', tag: 'span' },
      { kind: 'math-inline', tex: '\\frac{a}{b}', tag: 'span' },
    ]);
    expect(el.querySelector('p')?.textContent).toMatch(/^Euler: .*, and .* too\.$/s);
    expect(el.querySelectorAll('p .math .katex')).toHaveLength(2);
  });

  it('$$…$$ and \\[…\\] on lines of their own are display blocks', () => {
    const el = render('Before\n$$\nE = mc^2\n$$\nbetween\n\n\\[\n\\int_0^1 x\\,dx\n\\]\n\n$$a+b$$');
    expect(formulas(el)).toEqual([
      { kind: 'math-display', tex: 'E = mc^2', tag: 'div' },
      { kind: 'math-display', tex: '\\int_0^1 x\\,dx', tag: 'div' },
      { kind: 'math-display', tex: 'a+b', tag: 'div' },
    ]);
    expect(el.querySelectorAll('div.math > .katex-display > .katex')).toHaveLength(3);
    expect(Array.from(el.querySelectorAll('p')).map((p) => p.textContent)).toEqual(['Before', 'between']);
  });

  it('$$…$$ and \\[…\\] inside a line are displayed formulas within it', () => {
    const el = render('so $$x^2$$ and \\[y^2\\] here');
    expect(formulas(el)).toEqual([
      { kind: 'math-display', tex: 'x^2', tag: 'span' },
      { kind: 'math-display', tex: 'y^2', tag: 'span' },
    ]);
    expect(el.querySelectorAll('p > span.math > .katex-display')).toHaveLength(2);
  });

  it('works in list items, nested lists, quotes and table cells', () => {
    const el = render(
      '- area $\\pi r^2$\n- sum:\n  $$\n  \\sum_i i\n  $$\n  1. nested \\(x_1\\)\n\n> quoted $q$\n\n| f | value |\n| --- | --- |\n| $f(x)$ | $$\\frac{1}{2}$$ |',
    );
    expect(el.querySelector('ul > li .math')?.getAttribute('data-tex')).toBe('\\pi r^2');
    expect(el.querySelector('ul > li > div.math.math-display')?.getAttribute('data-tex')).toBe('\\sum_i i');
    expect(el.querySelector('ol > li .math')?.getAttribute('data-tex')).toBe('x_1');
    expect(el.querySelector('blockquote .math')?.getAttribute('data-tex')).toBe('q');
    expect(Array.from(el.querySelectorAll('td .math')).map((m) => [m.getAttribute('data-tex'), m.classList.contains('math-display')])).toEqual([
      ['f(x)', false],
      ['\\frac{1}{2}', true],
    ]);
    expect(el.querySelectorAll('.math .katex')).toHaveLength(6);
  });

  it('the MathML annotation is the source, exactly', () => {
    for (const tex of ['x^2', 'a<b \\& c > d', '\\text{"quoted" \\& \'single\'}', '\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}']) {
      for (const source of [`$${tex}$`, `\\(${tex}\\)`, `$$${tex}$$`, `\\[\n${tex}\n\\]`]) {
        const formula = render(source).querySelector('.math')!;
        expect(formula.getAttribute('data-tex'), source).toBe(tex);
        expect(annotation(formula), source).toBe(tex);
      }
    }
  });

  it('says when KaTeX’s styles are needed', () => {
    const env: MathEnv = {};
    md.render('$x$', env);
    expect(env.mathStylesNeeded).toBe(true);
    const none: MathEnv = {};
    md.render('It costs $5 and $10, `$x$`, $\\frac{$', none);
    expect(none.mathStylesNeeded).toBeUndefined();
  });
});

describe('mathPlugin: dollars that are not math', () => {
  it('prices stay text (Pandoc’s rule)', () => {
    for (const source of [
      'It costs $5 and $10.',
      'costs $5, or $10 with tax',
      'between $20,000 and $30,000',
      'US$5 and US$10',
      'from $ 5 to $ 10',
      'a $ b $ c',
      'pay $5 now$1 later',
      'only one $ here',
      '$$ alone',
    ]) {
      const el = render(source);
      expect(el.querySelector('.math'), source).toBeNull();
      expect(el.textContent?.trim(), source).toBe(source);
    }
  });

  it('$x$ is still math, next to prices too', () => {
    expect(formulas(render('$x$ costs $5.'))).toEqual([{ kind: 'math-inline', tex: 'x', tag: 'span' }]);
    expect(formulas(render('If $n$ is $5, then'))).toEqual([{ kind: 'math-inline', tex: 'n', tag: 'span' }]);
  });

  it('an escaped \\$ is a dollar, also inside a formula', () => {
    const el = render('\\$x\\$ and $\\$5 + y$');
    expect(el.querySelector('p')?.firstChild?.textContent).toBe('$x$ and ');
    expect(formulas(el)).toEqual([{ kind: 'math-inline', tex: '\\$5 + y', tag: 'span' }]);
  });

  it('nothing inside code spans or code blocks', () => {
    for (const source of ['`$x$` and `\\(y\\)`', '```\n$$x$$\n\\[y\\]\n```', '    $x$ indented code', '~~~tex\n$a$\n~~~']) {
      const el = render(source);
      expect(el.querySelector('.math'), source).toBeNull();
      expect(el.querySelector('code')?.textContent, source).toContain('$');
    }
  });
});

describe('mathPlugin: formulas still streaming', () => {
  it('an unclosed formula shows as its source until it closes', () => {
    const steps: Array<[string, string]> = [
      ['The area is $\\pi r', 'The area is $\\pi r'],
      ['Then \\(\\frac{a}{', 'Then \\(\\frac{a}{'],
      ['$$\n\\int_0^1 f(x)', '$$\n\\int_0^1 f(x)'],
      ['\\[\n\\sum_{i=1}^n', '\\[\n\\sum_{i=1}^n'],
      ['Known $a$, next $b +', 'Known , next $b +'],
    ];
    for (const [partial, text] of steps) {
      const el = render(partial);
      expect(el.querySelectorAll('.math .katex').length, partial).toBe(partial.startsWith('Known') ? 1 : 0);
      expect(el.querySelector('.math-error'), partial).toBeNull();
      const shown = Array.from(el.querySelectorAll('p'))
        .map((p) => Array.from(p.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join(''))
        .join('');
      expect(shown, partial).toBe(text);
    }
    expect(formulas(render('The area is $\\pi r^2$'))).toEqual([{ kind: 'math-inline', tex: '\\pi r^2', tag: 'span' }]);
    expect(formulas(render('$$\n\\int_0^1 f(x)\\,dx\n$$'))).toEqual([{ kind: 'math-display', tex: '\\int_0^1 f(x)\\,dx', tag: 'div' }]);
  });
});

describe('mathPlugin: invalid formulas', () => {
  it('show their source and KaTeX’s message, never KaTeX’s red error', () => {
    const cases: Array<[string, string, string, boolean]> = [
      ['$\\frac{a$', '\\frac{a', "Unexpected end of input in a macro argument, expected '}'", false],
      ['$\\foo{x}$', '\\foo{x}', 'Undefined control sequence: \\foo', false],
      ['$$\n\\begin{matrix} a \\end{pmatrix}\n$$', '\\begin{matrix} a \\end{pmatrix}', 'Mismatch: \\begin{matrix} matched by \\end{pmatrix}', true],
      ['$\\def\\a{\\a}\\a$', '\\def\\a{\\a}\\a', 'Too many expansions: infinite loop or need to increase maxExpand setting', false],
    ];
    for (const [source, tex, message, display] of cases) {
      const el = render(source);
      const error = el.querySelector('.math.math-error')!;
      expect(error, source).not.toBeNull();
      expect(error.getAttribute('data-tex')).toBe(tex);
      expect(error.classList.contains('math-display')).toBe(display);
      expect(error.querySelector('code')?.textContent).toBe(tex);
      expect(error.querySelector('.math-message')?.textContent).toBe(message);
      expect(el.querySelector('.katex, .katex-error, [style], [title]')).toBeNull();
    }
  });

  it('a source that looks like markup stays text', () => {
    const el = render('$\\frac{</span><img src=x onerror=alert(1)>$ and $<script>alert(1)</script>$');
    expect(el.querySelector('img, script')).toBeNull();
    expect(formulas(el).map((f) => f.tex)).toEqual(['\\frac{</span><img src=x onerror=alert(1)>', '<script>alert(1)</script>']);
  });

  it('a formula too long to lay out quickly stays source, saying so', () => {
    const tex = 'x_1+'.repeat(MAX_FORMULA_CHARS / 4) + 'y';
    const env: MathEnv = { labels };
    const el = render(`$${tex}$`, env);
    expect(el.querySelector('.katex')).toBeNull();
    expect(el.querySelector('.math-error code')?.textContent).toBe(tex);
    expect(el.querySelector('.math-error .math-message')?.textContent).toBe(`A formula this long (${tex.length} characters) is shown as its source`);
    expect(env.mathStylesNeeded).toBeUndefined();
    expect(render(`$${tex.slice(2)}$`).querySelector('.katex')).not.toBeNull();
  });

  it('no \\gdef lasts beyond its formula', () => {
    expect(render('$\\gdef\\myvar{42}\\myvar$').querySelector('.katex')).not.toBeNull();
    expect(render('$\\myvar$').querySelector('.math-error .math-message')?.textContent).toBe('Undefined control sequence: \\myvar');
  });
});

describe('mathPlugin: escape attempts', () => {
  const attempts: Array<[string, string]> = [
    ['$\\href{javascript:alert(1)}{click}$', '\\href'],
    ['$\\href{JaVaScRiPt:alert(1)}{click}$', '\\href'],
    ['$\\href{javascript&colon;alert(1)}{click}$', '\\href'],
    ['$\\href{ javascript:alert(1)}{click}$', '\\href'],
    ['$\\href{https://evil.example/}{click}$', '\\href'],
    ['$\\url{https://evil.example/}$', '\\url'],
    ['$\\url{javascript:alert(1)}$', '\\url'],
    ['$$\\includegraphics{https://evil.example/track.png}$$', '\\includegraphics'],
    ['$\\includegraphics[height=1em]{https://evil.example/track.png}$', '\\includegraphics'],
    ['$\\htmlClass{evil fixed inset-0}{x}$', '\\htmlClass'],
    ['$\\htmlId{evil}{x}$', '\\htmlId'],
    ['$\\htmlStyle{background:url(https://evil.example/b.png);position:fixed}{x}$', '\\htmlStyle'],
    ['$\\htmlData{evil=1, onclick=alert(1)}{x}$', '\\htmlData'],
    ['$\\def\\link{\\href}\\link{javascript:alert(1)}{x}$', '\\href'],
    ['$\\let\\u\\url \\u{https://evil.example/}$', '\\url'],
    ['$\\newcommand{\\pic}{\\includegraphics}\\pic{https://evil.example/p.png}$', '\\includegraphics'],
    ['$\\text{\\href{https://evil.example/}{x}}$', '\\href'],
    ['$x^{\\htmlClass{evil}{2}}$', '\\htmlClass'],
  ];

  for (const [source, command] of attempts) {
    it(source, () => {
      const el = render(source);
      expect(el.querySelector('a, img, [href], [src], [id], [data-evil], [onclick], .evil, .fixed')).toBeNull();
      for (const styled of Array.from(el.querySelectorAll('[style]'))) expect(styled.getAttribute('style')).not.toMatch(/url|fixed|background/i);
      // Refused as a whole, saying which command and why, not drawn as KaTeX's red text.
      const error = el.querySelector('.math-error')!;
      expect(error.getAttribute('data-tex')).toBe(source.replace(/^\$+|\$+$/g, ''));
      expect(error.querySelector('.math-message')?.textContent).toBe(`${command} is turned off: a formula cannot link to or load anything`);
      expect(el.querySelector('.katex')).toBeNull();
    });
  }

  it('without the caller’s words, a refused command’s message is the command', () => {
    expect(render('$\\url{https://evil.example/}$', {}).querySelector('.math-message')?.textContent).toBe('\\url');
  });

  it('sizes are capped: a formula cannot draw over the page', () => {
    const el = render('$\\rule{500em}{500em}\\kern-500em\\raisebox{500em}{x}\\raisebox{-500em}{y}\\rule[-500em]{1em}{1em}\\hspace{-90em}z$');
    const lengths = Array.from(el.querySelectorAll('[style]')).flatMap((s) =>
      (s.getAttribute('style') ?? '').split(';').flatMap((d) => [...d.matchAll(/(-?[\d.]+)em/g)].map((m) => [d.split(':')[0]!, Math.abs(Number(m[1]))] as const)),
    );
    expect(lengths.length).toBeGreaterThan(0);
    expect(Math.max(...lengths.map(([, n]) => n))).toBeLessThanOrEqual(42);
    expect(Math.max(...lengths.filter(([p]) => p.startsWith('margin')).map(([, n]) => n))).toBeLessThanOrEqual(20);
    expect(el.querySelector('.katex')?.textContent).toContain('xyz');
  });
});
