/**
 * Replies that read like the best clients' (issue 29), in the built extension: highlighted code
 * (its colours following the theme), formulas with MathML, a Mermaid diagram, a sandboxed
 * preview, a table's menu; rendered by the page's worker. Screenshots of such a reply in light
 * and dark, at the popup's and the chat page's sizes, are kept in test-results/screens.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gatewayAndExtensionPerFile } from './fixture';
import { clearConversations, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';

const env = gatewayAndExtensionPerFile();

const LONG_PYTHON = Array.from({ length: 40 }, (_, i) => `def step_${i}(value):\n    return value * ${i}  # step ${i}`).join('\n');
const TS = 'export function add(a: number, b: number): number {\n  return a + b; // the sum <of> & "both"\n}';
const RICH = [
  'Here is **TypeScript**:',
  `\`\`\`ts\n${TS}\n\`\`\``,
  'Euler wrote $e^{i\\pi} + 1 = 0$, and the area is',
  '$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$',
  'Prices stay text: $5 and $10.',
  '| Model | Price | Notes |\n| --- | ---: | --- |\n| gpt-4o | 2.50 | fast, "multimodal" |\n| claude | 3.00 | a\\|b |',
  '```mermaid\ngraph TD\n  A[Ask] --> B{Cached?}\n  B -->|yes| C[Answer]\n  B -->|no| D[Render]\n```',
  '```html\n<button onclick="document.body.style.background=\'teal\'">Click</button>\n```',
  `\`\`\`python\n${LONG_PYTHON}\n\`\`\``,
].join('\n\n');

/** Records what the page copies, exactly as it hands it to the clipboard. */
async function recordCopies(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __copied: string[] };
    w.__copied = [];
    navigator.clipboard.writeText = async (text: string) => {
      w.__copied.push(text);
    };
  });
}
const copies = (page: Page) => page.evaluate(() => (window as unknown as { __copied: string[] }).__copied);

async function richReply(page: Page): Promise<void> {
  await send(page, RICH);
  await idle(page);
  await lastReply(page).getByRole('img', { name: 'Diagram' }).waitFor();
}

async function useTheme(theme: 'light' | 'dark'): Promise<void> {
  await clearConversations(env.ext);
  await resetSettings(env.ext, { ...profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey), appearance: { theme } });
}

describe('a reply with code, math, a diagram, a preview and a table', () => {
  it('in the popup: highlighted code with its controls, formulas with MathML, the diagram, the preview, the table\'s menu', async () => {
    await useTheme('light');
    const page = await env.ext.open('popup.html');
    await page.setViewportSize({ width: 400, height: 600 });
    await recordCopies(page);
    await richReply(page);
    const reply = lastReply(page);

    // Code: coloured token spans, exact copy, folding and wrapping.
    const ts = reply.locator('.code-block[data-lang="typescript"]');
    await expect(ts.locator('code span.hljs-keyword').count()).resolves.toBeGreaterThan(0);
    await reply.getByRole('button', { name: 'Copy ts code' }).click();
    await expect.poll(() => copies(page)).toEqual([`${TS}\n`]);
    const python = reply.locator('.code-block[data-lang="python"]');
    const folded = (await python.locator('pre').boundingBox())!.height;
    await reply.getByRole('button', { name: 'Show all 80 lines' }).click();
    expect((await python.locator('pre').boundingBox())!.height).toBeGreaterThan(folded * 2);
    const wrap = python.getByRole('button', { name: 'Wrap lines' });
    await wrap.click();
    await expect(wrap.getAttribute('aria-pressed')).resolves.toBe('true');

    // Math: KaTeX with MathML whose annotation is the source; prices stay text.
    const annotations = await reply.locator('math annotation[encoding="application/x-tex"]').allTextContents();
    expect(annotations).toEqual(['e^{i\\pi} + 1 = 0', '\\int_0^1 x^2\\,dx = \\frac{1}{3}']);
    await expect(reply.textContent()).resolves.toContain('Prices stay text: $5 and $10.');
    await reply.locator('[data-tex]').first().click();
    await page.getByRole('menuitem', { name: 'Copy LaTeX' }).click();
    await expect.poll(() => copies(page)).toContain('e^{i\\pi} + 1 = 0');
    // KaTeX's fonts are the page's own (declared with its styles, fetched from the package once a
    // formula asks for them); KaTeX's stylesheet, loaded with the first formula, adds none (one that
    // did would have the browser restyle and lay out the whole page again).
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      const faces = (sheet: CSSStyleSheet): CSSFontFaceRule[] => [...sheet.cssRules].filter((rule): rule is CSSFontFaceRule => rule instanceof CSSFontFaceRule);
      const sheets = [...document.styleSheets];
      const katex = sheets.filter((sheet) => [...sheet.cssRules].some((rule) => rule instanceof CSSStyleRule && rule.selectorText === '.katex'));
      const all = sheets.flatMap(faces);
      return {
        katexSheets: katex.length,
        facesInKatexSheet: katex.flatMap(faces).length,
        faces: all.length,
        // Addresses inside the extension (the page's own origin), never another.
        fromPackage: all.every((face) => /^url\("\/assets\/KaTeX_[A-Za-z0-9_-]+\.woff2"\) format\("woff2"\)$/.test(face.style.getPropertyValue('src'))),
        mainLoaded: [...document.fonts].some((font) => font.family.replace(/"/g, '') === 'KaTeX_Main' && font.status === 'loaded'),
      };
    });
    expect(fonts).toEqual({ katexSheets: 1, facesInKatexSheet: 0, faces: 20, fromPackage: true, mainLoaded: true });

    // The diagram: an image named Diagram, its source behind a toggle.
    await expect(reply.getByRole('img', { name: 'Diagram' }).isVisible()).resolves.toBe(true);
    await expect(reply.locator('.diagram-block .code-block').isVisible()).resolves.toBe(false);
    await reply.getByRole('button', { name: 'Show diagram source' }).click();
    await expect(reply.locator('.diagram-block .code-block').isVisible()).resolves.toBe(true);

    // The table: it scrolls inside the reply; its menu copies it as CSV.
    await reply.getByRole('button', { name: 'Table options' }).click();
    await page.getByRole('menuitem', { name: 'Copy as CSV' }).click();
    await expect.poll(async () => (await copies(page)).at(-1)).toBe('Model,Price,Notes\r\ngpt-4o,2.50,"fast, ""multimodal"""\r\nclaude,3.00,a|b');

    // The preview: never automatic; a frame titled Preview once asked for.
    expect(await page.locator('iframe[title="Preview"]').count()).toBe(0);
    await reply.getByRole('button', { name: 'Preview', exact: true }).click();
    // The snippet runs inside: its button is there, and its script works (in its own document).
    const snippet = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe');
    await snippet.getByRole('button', { name: 'Click' }).click();
    await expect.poll(() => snippet.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor)).toBe('rgb(0, 128, 128)');
    await page.screenshot({ path: 'test-results/screens/light-popup-rich-reply.png', fullPage: false });
    await page.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`looks designed in the ${theme} theme, at the popup's and the chat page's sizes; code colours follow the theme`, async () => {
      await useTheme(theme);
      const chat = await openChatPage(env.ext);
      await richReply(chat);
      await expect.poll(() => chat.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      const keyword = await lastReply(chat).locator('span.hljs-keyword').first().evaluate((el) => getComputedStyle(el).color);
      const plain = await lastReply(chat).locator('.code-block code').first().evaluate((el) => getComputedStyle(el).color);
      expect(keyword).not.toBe(plain);
      // GitHub's light and dark keyword colours (components/chat/render/code.css).
      expect(keyword).toBe(theme === 'light' ? 'rgb(207, 34, 46)' : 'rgb(255, 123, 114)');
      await lastReply(chat).getByRole('button', { name: 'Preview', exact: true }).click();
      await chat.frameLocator('iframe[title="Preview"]').frameLocator('iframe').getByRole('button', { name: 'Click' }).waitFor();
      // As the user sees it: the reply's top (code, formulas, table), then its diagram and preview.
      await lastReply(chat).locator('.markdown').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await chat.screenshot({ path: `test-results/screens/${theme}-chat-page-rich-reply-top.png` });
      await lastReply(chat).locator('.diagram-block').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      // The preview's frame is another process: its picture comes a moment after it scrolled into view.
      await chat.waitForTimeout(400);
      await chat.screenshot({ path: `test-results/screens/${theme}-chat-page-rich-reply-diagram.png` });
      await chat.close();
      const popup = await env.ext.open('popup.html');
      await popup.setViewportSize({ width: 400, height: 600 });
      await popup.getByRole('button', { name: 'New chat' }).click();
      await richReply(popup);
      await lastReply(popup).getByRole('button', { name: 'Preview', exact: true }).click();
      await popup.frameLocator('iframe[title="Preview"]').frameLocator('iframe').getByRole('button', { name: 'Click' }).waitFor();
      // As the user sees it: the reply's top, then scrolled to its diagram and preview.
      await lastReply(popup).locator('.markdown').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await popup.screenshot({ path: `test-results/screens/${theme}-popup-rich-reply-top.png` });
      await popup.locator('iframe[title="Preview"]').scrollIntoViewIfNeeded();
      await popup.waitForTimeout(400);
      await popup.screenshot({ path: `test-results/screens/${theme}-popup-rich-reply-preview.png` });
      await popup.close();
    });
  }
});
