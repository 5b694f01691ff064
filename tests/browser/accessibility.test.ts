/**
 * Accessibility as a tested property (issue 9): axe-core on every page and its main states in
 * both themes (no serious or critical violation), and the daily path by keyboard alone. Each
 * state is also saved as a screenshot under test-results/screens/.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { gatewayAndExtensionPerFile } from './fixture';
import { clearConversations, compareWith, lastReply, profileFor, resetSettings, send } from './harness';

const env = gatewayAndExtensionPerFile();

beforeEach(() => {
  env.gateway.reset();
});

/** The serious and critical violations on the page as it stands, one line each. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

const states: { name: string; surface: string; reach?: (page: Page) => Promise<void> }[] = [
  { name: 'popup, empty', surface: 'popup.html', reach: async (p) => { await p.getByRole('button', { name: 'New chat' }).click(); } },
  {
    name: 'popup, a reply and an error with Retry',
    surface: 'popup.html',
    reach: async (p) => {
      await p.getByRole('button', { name: 'New chat' }).click();
      await send(p, 'hello');
      await expect.poll(() => lastReply(p).getAttribute('data-status')).toBe('complete');
      env.gateway.setFault({ kind: 'rate-limit', retryAfter: 30 });
      await send(p, 'again');
      await p.getByRole('button', { name: /^Retry/ }).waitFor();
    },
  },
  { name: 'side panel, chat', surface: 'sidepanel.html', reach: async (p) => { await p.getByRole('textbox', { name: 'Message', exact: true }).waitFor(); } },
  { name: 'side panel, conversations', surface: 'sidepanel.html', reach: async (p) => { await p.getByRole('tab', { name: 'Conversations', exact: true }).click(); } },
  { name: 'side panel, catalogue', surface: 'sidepanel.html', reach: async (p) => { await p.getByRole('tab', { name: 'Catalogue', exact: true }).click(); await p.getByLabel('Model count').waitFor(); } },
  { name: 'options', surface: 'options.html' },
  {
    name: 'options, a key for another address',
    surface: 'options.html',
    reach: async (p) => {
      await p.getByRole('textbox', { name: 'Gateway address' }).fill('http://gw.example.com/v1');
      await p.getByRole('alert', { name: 'Key for another address' }).waitFor();
    },
  },
  // Checked (and pictured) once the conversation pane is drawn beside the rail.
  { name: 'chat page', surface: 'chat.html', reach: async (p) => { await p.getByRole('textbox', { name: 'Message', exact: true }).waitFor(); } },
  {
    name: 'chat page, three models compared',
    surface: 'chat.html',
    reach: async (p) => {
      await compareWith(p, ['summarise-1', 'reasoner-1']);
      await send(p, 'Which of you explains tides best?');
      await expect.poll(() => p.locator('[data-status="complete"]').count()).toBe(3);
    },
  },
  {
    name: 'chat page, the prompt list',
    surface: 'chat.html',
    reach: async (p) => {
      await p.getByRole('textbox', { name: 'Message', exact: true }).fill('/');
      await p.getByRole('listbox', { name: 'Prompts' }).waitFor();
    },
  },
  {
    name: 'chat page, conversation settings',
    surface: 'chat.html',
    reach: async (p) => {
      await send(p, 'hello');
      await expect.poll(() => lastReply(p).getAttribute('data-status')).toBe('complete');
      await p.getByRole('button', { name: 'Conversation settings' }).click();
      await p.getByRole('switch', { name: 'Use the global prompt' }).waitFor();
    },
  },
  { name: 'side panel, compare picker', surface: 'sidepanel.html', reach: async (p) => { await p.getByRole('button', { name: 'Compare models' }).click(); await p.getByRole('combobox', { name: 'Add a model to compare', exact: true }).waitFor(); } },
];

describe('axe: no serious or critical violations', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`every surface and its main states, ${theme} theme`, async () => {
      await clearConversations(env.ext);
      await resetSettings(env.ext, { ...profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey), appearance: { theme } });
      const found: string[] = [];
      for (const state of states) {
        const page = await env.ext.open(state.surface);
        await page.setViewportSize(state.surface === 'popup.html' ? { width: 400, height: 600 } : state.surface === 'sidepanel.html' ? { width: 400, height: 900 } : { width: 1280, height: 800 });
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        await state.reach?.(page);
        // Colour transitions (a tab's underline, say) settle first: the picture and the contrast
        // check see the state, not a frame of the fade.
        await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
        // Kept as artifacts: what each surface looks like, in each theme, at its real size.
        await page.screenshot({ path: `test-results/screens/${theme}-${state.name.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '').toLowerCase()}.png` });
        for (const line of await violations(page)) found.push(`${state.name}: ${line}`);
        await page.close();
      }
      expect(found).toEqual([]);
    });
  }
});

describe('by keyboard alone', () => {
  it('set up a gateway, send a message, stop it, and open the side panel\'s catalogue', async () => {
    await clearConversations(env.ext);
    await resetSettings(env.ext, undefined);
    const options = await env.ext.open('options.html');
    const focused = () => options.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id ?? document.activeElement?.tagName);
    // Tab to the address field, type; on to the key; then to Test connection and Save.
    const tabTo = async (page: Page, name: string, max = 30): Promise<void> => {
      for (let i = 0; i < max; i++) {
        const label = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (el === null) return '';
          const labelled = el.id === '' ? null : document.querySelector(`label[for="${el.id}"]`);
          return el.getAttribute('aria-label') ?? labelled?.textContent ?? el.textContent ?? '';
        });
        if (label.trim() === name) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached "${name}" (last: ${String(await focused())})`);
    };
    await tabTo(options, 'Gateway address');
    await options.keyboard.type(env.gateway.baseUrl);
    await tabTo(options, 'API key');
    await options.keyboard.type(env.gateway.demoKey);
    await tabTo(options, 'Test connection');
    await options.keyboard.press('Enter');
    await options.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await tabTo(options, 'Save');
    await options.keyboard.press('Enter');
    await options.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await options.close();

    env.gateway.setPace({ delayMs: 80, chunkChars: 2 });
    const popup = await env.ext.open('popup.html');
    // The composer has the focus when the popup opens.
    await expect.poll(() => popup.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    await popup.keyboard.type('a reply long enough to be stopped by keyboard');
    await popup.keyboard.press('Enter');
    await popup.getByRole('button', { name: 'Stop' }).waitFor();
    await tabTo(popup, 'Stop');
    await popup.keyboard.press('Enter');
    await expect.poll(() => lastReply(popup).getAttribute('data-status')).toBe('stopped');
    await popup.close();

    const panel = await env.ext.open('sidepanel.html');
    // The tabs are one stop in the Tab order (the chosen tab); arrows move between them.
    await tabTo(panel, 'Chat');
    // Each arrow moves the focus to the next tab, which selects it; the next arrow is pressed
    // once the focus is there. (Read as "focused → selected", so a failure says where both were.)
    const tabs = () => panel.evaluate(() => {
      const el = document.activeElement;
      const focused = el?.getAttribute('role') === 'tab' ? el.textContent : `${el?.tagName ?? 'nothing'} ${el?.getAttribute('aria-label') ?? ''}`.trim();
      return `${focused} → ${document.querySelector('[role=tab][aria-selected=true]')?.textContent ?? 'none'}`;
    });
    await panel.keyboard.press('ArrowRight');
    await expect.poll(tabs, { timeout: 5_000 }).toBe('Conversations → Conversations');
    await panel.keyboard.press('ArrowRight');
    await expect.poll(tabs, { timeout: 5_000 }).toBe('Catalogue → Catalogue');
    await panel.getByLabel('Model count').waitFor();
    await panel.close();
  });
});
