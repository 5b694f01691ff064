/**
 * KaTeX's fonts are declared with the page's own styles (components/chat/render/math-fonts.css),
 * and its stylesheet comes without them (wxt.config.ts): the faces must stay KaTeX's own, as the
 * KaTeX in package.json declares them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

function faces(css: string): string[] {
  return [...css.matchAll(/@font-face\s*\{([^}]*)\}/g)].map(([, body]) => {
    const get = (property: string): string => new RegExp(`${property}\\s*:\\s*([^;]+)`).exec(body!)?.[1]?.trim() ?? '';
    const woff2 = /url\(\s*"?([^")]+\.woff2)"?\s*\)\s*format\(\s*"woff2"\s*\)/.exec(get('src'))?.[1]?.split('/').at(-1);
    return [get('font-family'), get('font-style'), get('font-weight'), get('font-display'), woff2].join(' ');
  }).sort();
}

describe('KaTeX\'s fonts, declared with the page', () => {
  it('are the faces KaTeX declares, each its woff2 file from the package', () => {
    const ours = faces(readFileSync(resolve(ROOT, 'components/chat/render/math-fonts.css'), 'utf8'));
    const katex = faces(readFileSync(resolve(ROOT, 'node_modules/katex/dist/katex.min.css'), 'utf8'));
    expect(ours).toHaveLength(20);
    expect(ours).toEqual(katex);
    expect(readFileSync(resolve(ROOT, 'components/chat/render/math-fonts.css'), 'utf8')).not.toMatch(/url\(\s*"?(https?:|\/\/)/);
  });

  it('are among the page\'s own styles', () => {
    expect(readFileSync(resolve(ROOT, 'components/styles.css'), 'utf8')).toContain('@import "./chat/render/math-fonts.css";');
  });
});
