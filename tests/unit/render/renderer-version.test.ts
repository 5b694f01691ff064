/**
 * A saved rendering is shown as it was saved: the render worker sanitised it as it made it, and
 * does not sanitise it again when it reads it back (lib/render/worker/handler.ts). What keeps a
 * rendering made by another sanitiser off the page is the sanitiser each build names
 * (`SANITISER`, lib/render/cache.ts, from scripts/sanitiser-fingerprint.ts): a row saved by
 * another is made again.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANITISER } from '@/lib/render/cache';
import { sanitizeRendered } from '@/lib/render/sanitize';
import { createRenderService } from '@/lib/render/worker/handler';
import { BARE_LABELS } from '@/lib/render/labels';
import { sanitiserFingerprint } from '@/scripts/sanitiser-fingerprint';

const SOURCE = readFileSync(resolve(import.meta.dirname, '../../../lib/render/sanitize.ts'), 'utf8');

describe('the sanitiser a build names', () => {
  it('is the sanitiser\'s source as built: any change to it names another', () => {
    expect(SANITISER).toBe(sanitiserFingerprint());
    expect(sanitiserFingerprint(`${SOURCE}\n`)).not.toBe(SANITISER);
    expect(sanitiserFingerprint(SOURCE.replace("'href'", "'hreF'"))).not.toBe(SANITISER);
    expect(sanitiserFingerprint(SOURCE.replace(/\n/g, '\r\n'))).toBe(SANITISER);
  });

  it('covers all of the sanitiser\'s rules: its one file imports nothing but its parser', () => {
    const imports = [...SOURCE.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)].map((m) => m[1]);
    expect(imports).toEqual(['htmlparser2']);
    expect(SOURCE).not.toMatch(/\bimport\s*\(/);
  });

  it('what the worker saves is the sanitiser\'s last word: sanitised again, it would read the same', async () => {
    const saved: unknown[] = [];
    const service = createRenderService({ get: async () => undefined, put: async (_m, _w, _s, blocks) => void saved.push(...blocks) });
    await service.handle({ type: 'labels', key: 'en', labels: { ...BARE_LABELS } });
    const sources = [
      '# Title with *emphasis*, `code` and a [link](https://example.com/a?b=1&c=2 "title")\n',
      '| a | b |\n| - | -: |\n| `x` | $y^2$ |\n',
      '- one\n- two with $\\frac{a}{b}$\n  1. nested\n',
      '```ts\nconst x: number = 1; // comment\n```\n',
      '```mermaid\ngraph TD; A-->B\n```\n',
      '```html\n<b onclick="x()">hi</b>\n```\n',
      '$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$\n',
      'Raw <img src=x onerror=alert(1)> and <script>alert(1)</script> & "quotes" <b>bold</b>\n',
      '> quote with ![image](https://example.com/x.png) and <https://example.com>\n',
    ];
    await service.handle({ type: 'render', id: 1, sources, saved: { id: 'm1', conversationId: 'c1' } });
    await expect.poll(() => saved.length).toBe(sources.length);
    for (const block of saved as { html: string }[]) expect(sanitizeRendered(block.html)).toBe(block.html);
  });
});
