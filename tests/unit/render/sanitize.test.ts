// @vitest-environment jsdom
import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { sanitizeRendered } from '@/lib/render/sanitize';
import { onPage, pageTree, writtenTree } from './html-tree';

/** The sanitised HTML as the page holds it, after checking that the page's parse is the tree the sanitiser wrote. */
function clean(html: string): HTMLDivElement {
  const out = sanitizeRendered(html);
  expect(pageTree(out), `page parse of ${out}`).toBe(writtenTree(out));
  expect(sanitizeRendered(out), 'sanitising twice changes nothing').toBe(out);
  return onPage(out);
}

/** Everything that must never be in the page, whatever went in. */
function expectInert(el: HTMLElement): void {
  expect(el.querySelectorAll('script, style, iframe, object, embed, form, input, textarea, link, meta, base, template, noscript, foreignObject, image, use')).toHaveLength(0);
  for (const node of Array.from(el.querySelectorAll('*'))) {
    for (const { name } of Array.from(node.attributes)) {
      const where = `${node.localName}[${name}]`;
      expect(name, where).not.toMatch(/^on/i);
      if (/^(src|href|xlink:href|action|formaction|srcdoc|srcset|style)$/i.test(name)) {
        const allowed = node.closest('.katex') !== null ? name === 'style' : ['a[href]', 'img[src]', 'td[style]', 'th[style]'].includes(where);
        expect(allowed, where).toBe(true);
      }
    }
  }
  for (const a of Array.from(el.querySelectorAll('a[href]'))) expect(['http:', 'https:', 'mailto:']).toContain(new URL((a as HTMLAnchorElement).href, 'https://page.invalid/').protocol);
  for (const img of Array.from(el.querySelectorAll('img'))) expect(img.getAttribute('src')).toMatch(/^data:image\/(png|jpeg|gif|webp);/);
  // KaTeX's markup only below a KaTeX root.
  for (const node of Array.from(el.querySelectorAll('math, svg, [style]'))) {
    if (node.matches('td[style], th[style]')) continue;
    expect(node.closest('.katex'), `${node.localName} outside .katex`).not.toBeNull();
  }
}

describe('sanitizeRendered: markdown allow-list', () => {
  it('keeps prose, lists, tables, code blocks and their buttons as they are', () => {
    const html =
      '<h2>Title</h2><p>Some <em>em</em>, <strong>strong</strong>, <del>del</del>, <s>s</s>, <code>code</code><br>line</p>' +
      '<blockquote><p>quote</p></blockquote><hr><ol start="3"><li>three</li></ol><ul><li>one</li></ul>' +
      '<table><thead><tr><th style="text-align:center">h</th></tr></thead><tbody><tr><td style="text-align:right">1</td></tr></tbody></table>' +
      '<div class="code-block" data-lang="python" data-lines="2"><div class="code-head"><span class="code-lang">python</span>' +
      '<button type="button" data-wrap aria-pressed="false">Wrap lines</button><button type="button" data-copy-code aria-label="Copy python code">Copy</button></div>' +
      '<pre><code class="hljs language-python"><span class="hljs-keyword">def</span> <span class="hljs-title function_">f</span>():\n  <span class="hljs-keyword">pass</span>\n</code></pre></div>' +
      '<p><a href="https://example.com/a?b=1&amp;c=2">link</a> <a href="mailto:me@example.com">mail</a> <a href="#note">note</a></p>' +
      '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="dot"> <button type="button" class="remote-image" data-load-image="https://x.example/cat.png" aria-label="Load image">Load</button></p>';
    const el = clean(html);
    expect(el.querySelector('h2')?.textContent).toBe('Title');
    expect(el.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect(el.querySelector('th')?.getAttribute('style')).toBe('text-align:center');
    expect(el.querySelector('td')?.getAttribute('style')).toBe('text-align:right');
    expect(el.querySelector('.code-block')?.getAttribute('data-lang')).toBe('python');
    expect(el.querySelector('button[data-wrap]')?.getAttribute('aria-pressed')).toBe('false');
    expect(el.querySelector('button[data-copy-code]')?.getAttribute('aria-label')).toBe('Copy python code');
    expect(el.querySelectorAll('code.hljs span.hljs-keyword')).toHaveLength(2);
    expect(el.querySelector('code.hljs span.hljs-title')?.className).toBe('hljs-title function_');
    expect(el.querySelector('code.hljs')?.textContent).toBe('def f():\n  pass\n');
    expect(el.querySelector('a')?.getAttribute('href')).toBe('https://example.com/a?b=1&c=2');
    expect(el.querySelector('img')?.getAttribute('alt')).toBe('dot');
    expect(el.querySelector('.remote-image')?.getAttribute('data-load-image')).toBe('https://x.example/cat.png');
    expectInert(el);
  });

  it('links open in a new tab without opener, whatever they said', () => {
    for (const a of Array.from(clean('<a href="https://e.example" target="_self" rel="opener">x</a><a href="#top">y</a>').querySelectorAll('a'))) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }
  });

  it('drops every on* attribute, on markdown, KaTeX, MathML and SVG elements alike', () => {
    const el = clean(
      '<p onclick="alert(1)" ONMOUSEOVER="alert(2)" onfocus=alert(3) tabindex="0">p</p>' +
        '<img src="data:image/png;base64,AA==" onerror="alert(4)" onload="alert(5)">' +
        '<button type="button" onclick="alert(6)" formaction="javascript:alert(7)">b</button>' +
        '<span class="katex" onmouseenter="alert(8)"><span onclick="alert(9)">k</span><math onclick="alert(10)"><mi onfocus="alert(11)">x</mi></math>' +
        '<svg onload="alert(12)"><path d="M0 0" onclick="alert(13)"></path></svg></span>',
    );
    expect(el.querySelectorAll('*')).not.toHaveLength(0);
    for (const node of Array.from(el.querySelectorAll('*'))) expect(Array.from(node.attributes).filter((a) => /^on/i.test(a.name))).toEqual([]);
    expect(el.querySelector('button')?.getAttribute('formaction')).toBeNull();
    expectInert(el);
  });

  it('keeps no javascript:, data:, vbscript: or file: link, however it is spelled', () => {
    const hrefs = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      '\u0001javascript:alert(1)',
      'java\tscript:alert(1)',
      'java&#x09;script:alert(1)',
      'java&#10;script:alert(1)',
      'java&NewLine;script:alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)',
      '&#0000106&#0000097vascript:alert(1)',
      'javascript&colon;alert(1)',
      'javascript&#58;alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x',
      '/relative',
    ];
    for (const href of hrefs) {
      for (const quoted of [`"${href}"`, `'${href}'`]) {
        const el = clean(`<a href=${quoted}>x</a>`);
        expect(el.querySelector('a')?.getAttribute('href') ?? null, href).toBeNull();
        expect(el.textContent).toBe('x');
      }
    }
  });

  it('keeps a safe link whose address has spaces or tabs a browser would strip', () => {
    expect(clean('<a href="  https://e.example/p\t ">x</a>').querySelector('a')?.getAttribute('href')).toBe('https://e.example/p');
  });

  it('an image loads nothing: only inline png/jpeg/gif/webp pictures are kept', () => {
    const el = clean(
      '<img src="data:text/html,<script>alert(1)</script>"><img src="data:image/svg+xml;base64,PHN2Zz4="><img src="https://tracker.example/p.png">' +
        '<img src="//tracker.example/p.png"><img src="javascript:alert(1)"><img srcset="https://tracker.example/a.png 1x"><img src=" data:image/gif;base64,R0lGOD">',
    );
    expect(Array.from(el.querySelectorAll('img')).map((i) => i.getAttribute('src'))).toEqual(['data:image/gif;base64,R0lGOD']);
    expectInert(el);
  });

  it('style is dropped outside KaTeX, but for a table cell’s text-align', () => {
    const el = clean(
      '<p style="color:red">a</p><span style="position:fixed;inset:0">b</span><div style="background:url(https://x.example)">c</div>' +
        '<table><tbody><tr><td style="text-align:left;background:url(https://x.example)">1</td><td style="text-align: CENTER">2</td><td style="color:red">3</td></tr></tbody></table>',
    );
    expect(Array.from(el.querySelectorAll('[style]')).map((n) => n.getAttribute('style'))).toEqual(['text-align:center']);
    expect(el.textContent).toBe('abc123');
  });

  it('removes unknown elements but keeps their text, escaped', () => {
    const el = clean('<font color="red">a<b>b</b><marquee>c</marquee></font><blink>&lt;img src=x onerror=alert(1)&gt;</blink>');
    expect(el.children).toHaveLength(0);
    expect(el.textContent).toBe('abc<img src=x onerror=alert(1)>');
  });

  it('drops script, style, iframe, object, embed, template, noscript, textarea, title and xmp with what they hold', () => {
    const el = clean(
      '<p>keep</p><script>alert(1)</script><style>p{color:red}</style><iframe src="https://x.example" srcdoc="<script>alert(2)</script>">i</iframe>' +
        '<object data="https://x.example/o">o</object><embed src="https://x.example/e"><template><img src=x onerror=alert(3)>t</template>' +
        '<noscript><p title="</noscript><img src=x onerror=alert(4)>">n</p></noscript><textarea><img src=x onerror=alert(5)></textarea>' +
        '<title><img src=x onerror=alert(6)></title><xmp><img src=x onerror=alert(7)></xmp><noembed>e</noembed><noframes>f</noframes>',
    );
    expect(el.innerHTML).toBe('<p>keep</p>');
  });

  it('drops form controls and forms, keeping their text', () => {
    const el = clean('<form action="https://x.example"><input name="a" value="v"><button type="submit">Send</button><select><option>o</option></select></form>');
    expect(el.querySelector('button')?.getAttribute('type')).toBe('button');
    expect(el.textContent).toBe('Send');
    expectInert(el);
  });

  it('drops comments, CDATA and processing instructions, and whatever a parser might read in them', () => {
    const inputs = [
      '<p>a<!-- <img src=x onerror=alert(1)> -->b</p>',
      '<p>a<!--><img src=x onerror=alert(1)>--></p>',
      '<p>a<!-- --!><img src=x onerror=alert(1)> --></p>',
      '<p>a<![CDATA[<img src=x onerror=alert(1)>]]>b</p>',
      '<?xml-stylesheet href="javascript:alert(1)"?><p>a</p>',
      '<!DOCTYPE html><p>a</p>',
      '<span class="katex"><math><mi><![CDATA[</mi><img src=x onerror=alert(1)>]]></mi></math></span>',
      '<span class="katex"><svg><![CDATA[<img src=x onerror=alert(1)>]]></svg></span>',
    ];
    for (const input of inputs) {
      const el = clean(input);
      expect(el.innerHTML, input).not.toContain('<!--');
      expect(el.querySelector('img'), input).toBeNull();
      expectInert(el);
    }
  });

  it('escapes `</` and quotes in attribute values, so none ends its element', () => {
    const el = clean(`<p title="</p><img src=x onerror=alert(1)>" data-x='a"b&amp;c'>t</p><a href="https://e.example/</a><script>alert(1)</script>">l</a>`);
    expect(el.querySelector('p')?.getAttribute('title')).toBe('</p><img src=x onerror=alert(1)>');
    expect(el.querySelector('p')?.getAttribute('data-x')).toBe('a"b&c');
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('a')?.getAttribute('href')).toBe('https://e.example/</a><script>alert(1)</script>');
    expectInert(el);
  });

  it('keeps only data-* names a page can read, and no id (which could shadow the page’s globals)', () => {
    const el = clean('<div id="app" name="x" data-ok="1" data-x"y="2" data-Upper="3" data-="4" lang="en">d</div>');
    const div = el.querySelector('div')!;
    expect(Array.from(div.attributes).map((a) => `${a.name}=${a.value}`)).toEqual(['data-ok=1', 'data-upper=3']);
  });
});

describe('sanitizeRendered: what a parser would move is not left to move', () => {
  const cases = [
    '<p>a<span>b<div>c</div>d</span>e</p>',
    '<p>a<em><ul><li>x</li></ul></em></p>',
    '<p><span><table><tbody><tr><td>x</td></tr></tbody></table></span></p>',
    '<p><span><h1>x</h1></span></p>',
    '<p><span><hr></span>after</p>',
    '<a href="https://a.example">a<span><a href="https://b.example">b</a></span>c</a>',
    '<button type="button">a<span><button type="button">b</button></span></button>',
    '<h1>a<span><h2>b</h2></span></h1>',
    '<ul><li>a<span><li>b</li></span></li></ul>',
    '<table><tbody><tr><td>1</td></tr></tbody>loose text<div>moved</div></table>',
    '<table><tr><td>1</td></tr></table>',
    '<td>cell</td><tr><th>h</th></tr><tbody>b</tbody>',
    '<table><tbody><tr><td><table><thead><tr><th>n</th></tr></thead></table></td></tr></tbody></table>',
    '<p>a<button type="button"><div>in button</div></button>b</p>',
    '<span class="katex"><math><mi><div>breakout</div><span>x</span><b>y</b></mi><mtext><p>z</p></mtext></math></span>',
    '<span class="katex"><math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math></span>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
    '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
    '<span class="katex"><svg></p><style><a id="</style><img src=1 onerror=alert(1)>"></svg></span>',
    '<span class="katex"><svg><p><style><img src=x onerror=alert(1)></style></p></svg></span>',
    '<span class="katex"><math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math></span>',
    '<span class="katex"><math><annotation encoding="application/x-tex">&lt;/annotation&gt;&lt;img src=x onerror=alert(1)&gt;</annotation></math></span>',
    '<span class="katex"><svg><foreignObject><iframe src="https://x.example"></iframe></foreignObject><desc><img src=x onerror=alert(1)></desc><title><img src=x onerror=alert(1)></title></svg></span>',
    '<span class="katex"><math><mi>x</mi></math><svg viewBox="0 0 1 1"><path d="M0 0h1"/><line x1="0" y1="0" x2="1" y2="1"/></svg></span>',
    '<pre>\nx</pre><pre>\n\ny</pre>',
    'a\u0000b<p title="c\u0000d">e</p>',
  ];
  for (const input of cases) {
    it(JSON.stringify(input).slice(0, 90), () => {
      expectInert(clean(input));
    });
  }
});

describe('sanitizeRendered: KaTeX allow-list', () => {
  const formulas = [
    'x^2',
    '\\frac{a}{b}',
    '\\sqrt[3]{x+1}',
    '\\begin{pmatrix}a&b\\\\c&d\\end{pmatrix}',
    '\\begin{array}{c|c}a&b\\\\\\hline c&d\\\\\\hdashline e&f\\end{array}',
    '\\cancel{x}\\bcancel{y}\\xcancel{z}\\sout{w}',
    '\\boxed{x}\\fbox{y}\\colorbox{red}{z}\\fcolorbox{red}{blue}{w}',
    '\\xrightarrow[under]{over}\\xLeftrightarrow{b}',
    '\\overbrace{a+b}^{n}\\underbrace{c+d}_{m}',
    '\\widehat{abc}\\overrightarrow{AB}\\overline{x}\\underline{y}',
    '\\left(\\frac{a}{b}\\right)\\bigg(\\Big[',
    '\\rule{1em}{2em}\\kern1em\\raisebox{0.5em}{x}',
    '\\mathbb{R}\\mathcal{A}\\mathfrak{g}\\boldsymbol{\\alpha}',
    '\\text{hello}\\operatorname{argmax}_x',
    '\\lim_{n\\to\\infty}\\sum_{i=1}^n\\int_0^1\\oint',
    '\\not=\\stackrel{!}{=}\\phase{x}\\angl{n}',
    '\\color{blue}x\\textcolor{#ff0000}{y}',
    '\\binom{n}{k}\\cfrac{1}{1+\\cfrac{1}{x}}',
    '\\begin{cases}a&x>0\\\\b&\\text{else}\\end{cases}',
    '\\overgroup{AB}\\utilde{x}\\overlinesegment{AB}',
    '\\sqrt{\\frac{\\frac{a}{b}}{\\frac{c}{d}}}',
    '\\mathllap{a}\\mathrlap{b}\\smash{w}\\hphantom{x}',
    'a\\\\b',
    'x < y \\;\\&\\; \\text{"q" \'s\'}',
  ];
  const display = ['\\begin{align}a&=b\\tag{1}\\\\c&=d\\end{align}', '\\begin{CD}A @>a>> B\\\\@VbVV @AAcA\\\\C @= D\\end{CD}', '\\begin{equation}E=mc^2\\end{equation}'];

  it('KaTeX’s own output (HTML, MathML, SVG) passes unchanged', () => {
    for (const [tex, displayMode] of [...formulas.map((f) => [f, false] as const), ...formulas.map((f) => [f, true] as const), ...display.map((f) => [f, true] as const)]) {
      const html = katex.renderToString(tex, { displayMode, output: 'htmlAndMathml', throwOnError: true, strict: 'ignore' });
      const out = sanitizeRendered(html);
      // KaTeX writes xmlns on <math> and <svg>: the page's parser gives the namespace anyway.
      expect(pageTree(out), tex).toBe(pageTree(html).replace(/ xmlns="[^"]*"/g, ''));
      expect(pageTree(out), tex).toBe(writtenTree(out));
    }
  });

  it('MathML, SVG and style are only allowed below a KaTeX root', () => {
    const forged = [
      '<math><mi>x</mi></math>',
      '<svg viewBox="0 0 1 1"><path d="M0 0"></path></svg>',
      '<span class="katex-html"><svg><path d="M0 0"></path></svg></span>',
      '<span class="katex-display"><math><mi>x</mi></math></span>',
      '<span class="notkatex katex-mathml"><math><mi>x</mi></math></span>',
      '<div class="katex"><math><mi>x</mi></math><span style="color:red">r</span></div>',
      '<code class="hljs"><span class="katex"><math><mi>x</mi></math><span style="color:red">r</span></span></code>',
      '<code><span class="hljs-keyword katex"><svg><path d="M0 0"></path></svg></span></code>',
    ];
    for (const input of forged) {
      const el = clean(input);
      expect(el.querySelectorAll('math, svg, path, mi, [style]'), input).toHaveLength(0);
    }
  });

  it('inside a KaTeX root: no links, images, address-bearing attributes or other markup', () => {
    const el = clean(
      '<span class="katex"><a href="https://x.example">a</a><img src="data:image/png;base64,AA=="><button type="button">b</button>' +
        '<math><mrow href="javascript:alert(1)"><mi xlink:href="javascript:alert(2)">x</mi><maction actiontype="statusline">s</maction><mglyph src="https://x.example/g.png"></mglyph></mrow></math>' +
        '<svg><a href="javascript:alert(3)"><text>t</text></a><image href="https://x.example/i.png"></image><use href="https://x.example/s.svg#a"></use>' +
        '<path d="M0 0" fill="url(https://x.example/f)" style="fill:url(https://x.example/g)"></path><animate attributeName="href" to="javascript:alert(4)"></animate>' +
        '<set attributeName="onload" to="alert(5)"></set><script>alert(6)</script></svg></span>',
    );
    expect(el.querySelectorAll('.katex a, .katex img, .katex button, maction, mglyph, svg a, svg text, svg image, svg use, animate, set')).toHaveLength(0);
    expect(el.querySelector('mrow')?.attributes).toHaveLength(0);
    expect(el.querySelector('mi')?.attributes).toHaveLength(0);
    expect(el.querySelector('path')?.getAttribute('fill')).toBeNull();
    expect(el.querySelector('path')?.getAttribute('style')).toBeNull();
    expectInert(el);
  });

  it('checks KaTeX’s styles: known properties with plain values only', () => {
    const el = clean(
      '<span class="katex"><span style="height:0.8em;vertical-align:-0.2em;color:#cc0000">a</span>' +
        '<span style="background-image:url(https://x.example/a.png);color:red">b</span>' +
        '<span style="background-color:red;width:expression(alert(1))">c</span>' +
        '<span style="color:red;}@import url(https://x.example/s.css);">d</span>' +
        '<span style="color:\\72 ed;margin-left:1em">e</span>' +
        '<span style="position:fixed;top:0;left:0;width:100%;height:100%">f</span>' +
        '<span style="color: javascript:alert(1)">g</span>' +
        '<span style="border: 0.04em solid red; text-shadow: 0.02em 0.01em 0.04px">h</span>' +
        '<span style="margin-right:-500em">i</span><span style="margin-left:-0.1667em;top:497em;height:120em">j</span>' +
        // Lengths read whole (an exponent is not a small number) and only in KaTeX's units.
        '<span style="height:1e+21em;vertical-align:-1e+21em;top:1e+21em;color:red">k</span>' +
        '<span style="width:99999vw;height:99999vh;top:-99999px;left:2px">l</span></span>',
    );
    expect(Array.from(el.querySelectorAll('.katex span')).map((s) => s.getAttribute('style'))).toEqual([
      'height:0.8em;vertical-align:-0.2em;color:#cc0000',
      'color:red;',
      'background-color:red;',
      'color:red;',
      'margin-left:1em;',
      'top:0;left:0;width:100%;height:100%;',
      null,
      'border: 0.04em solid red; text-shadow: 0.02em 0.01em 0.04px',
      null,
      'margin-left:-0.1667em;height:120em;',
      'color:red;',
      'left:2px;',
    ]);
  });

  it('`<style>` inside SVG or MathML is dropped with its text', () => {
    for (const input of [
      '<span class="katex"><svg><style>@import url(https://x.example/s.css); *{background:url(https://x.example/b)}</style><path d="M0 0"></path></svg></span>',
      '<span class="katex"><math><style>@import url(https://x.example/s.css);</style><mi>x</mi></math></span>',
      '<svg><style>@import url(https://x.example/s.css);</style></svg>',
    ]) {
      const el = clean(input);
      expect(el.querySelector('style')).toBeNull();
      expect(el.textContent).not.toContain('@import');
    }
  });
});
