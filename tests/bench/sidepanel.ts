/**
 * Bench (Chromium, e2e build): the side panel with 5,000 models, from a search keystroke to
 * the updated list; and with 5,000 conversations stored, from opening the Conversations tab
 * to the list's first paint.
 */
import type { Page } from 'playwright-core';
import { launchExtension, profileFor, writeSettings } from '../browser/harness';
import { median, pollPage, type Figure } from './measure';
import { build } from './popup';

const MODELS = 5000;
const CONVERSATIONS = 5000;
const OWNERS = ['openai', 'anthropic', 'google', 'meta-llama', 'mistralai', 'deepseek', 'qwen', 'x-ai', 'cohere', 'nvidia'];
const WORDS = ['chat', 'turbo', 'mini', 'pro', 'vision', 'instruct', 'coder', 'flash', 'large', 'small', 'reasoner', 'preview'];

function syntheticModels(): unknown[] {
  return Array.from({ length: MODELS }, (_, i) => {
    const owner = OWNERS[i % OWNERS.length]!;
    const id = `${owner}/${WORDS[i % WORDS.length]}-${WORDS[(i * 7) % WORDS.length]}-${i}`;
    const caps = { chat: true, responses: i % 3 === 0, imageInput: i % 4 === 0 ? true : 'unknown', imageGeneration: i % 50 === 0, embeddings: false, reasoning: i % 5 === 0, tools: i % 2 === 0 };
    return { id, ownedBy: owner, capabilities: caps };
  });
}

/** Plain JavaScript for the page (functions compiled by tsx carry helpers the page lacks). */
const KEYSTROKE_PROBE = `
  window.__keystrokes = [];
  document.addEventListener('keydown', () => {
    const t0 = performance.now();
    let last = -1;
    const observer = new MutationObserver(() => { last = performance.now(); });
    observer.observe(document.querySelector('.catalogue'), { subtree: true, childList: true, characterData: true, attributes: true });
    setTimeout(() => { observer.disconnect(); if (last > 0) window.__keystrokes.push(last - t0); }, 250);
  }, true);`;

const LIST_PROBE = `
  document.addEventListener('click', (e) => {
    if (!(e.target instanceof Element) || e.target.textContent !== 'Conversations' || e.target.getAttribute('role') !== 'tab') return;
    const t0 = performance.now();
    const check = () => {
      if (document.querySelector('[aria-label="Conversation list"] [role="listitem"]')) {
        requestAnimationFrame(() => { window.__listPaint = performance.now() - t0; });
        return;
      }
      requestAnimationFrame(check);
    };
    check();
  }, true);`;

async function seedConversations(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('gateway-chat');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction('conversations', 'readwrite');
      const store = tx.objectStore('conversations');
      const now = Date.now();
      for (let i = 0; i < ${CONVERSATIONS}; i++) {
        store.put({ id: 'bench-' + i, title: 'Conversation number ' + i + ' about topic ' + (i % 97), createdAt: now - i * 60000, updatedAt: now - i * 60000, profileId: 'p1', model: 'echo-1', surface: i % 2 ? 'popup' : 'sidepanel' });
      }
      tx.oncomplete = () => { db.close(); resolve(undefined); };
      tx.onerror = () => reject(tx.error);
    };
  })`);
}

export async function benchSidePanel(): Promise<Figure[]> {
  build('e2e');
  const ext = await launchExtension();
  try {
    const setup = await ext.open('sidepanel.html');
    await writeSettings(setup, profileFor('http://127.0.0.1:9/v1', 'http://127.0.0.1:9', 'sk-bench-0000000000000000000000'));
    await setup.evaluate(`chrome.storage.local.set({ 'catalogue:p1': { fetchedAt: Date.now(), baseUrl: 'http://127.0.0.1:9/v1', models: ${JSON.stringify(syntheticModels())} } })`);
    await setup.reload();
    await setup.getByRole('tablist', { name: 'Side panel' }).waitFor();
    await seedConversations(setup);
    await setup.close();

    // Search keystrokes against 5,000 models.
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 420, height: 900 });
    await page.addInitScript({ content: KEYSTROKE_PROBE });
    await page.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
    await page.getByRole('tab', { name: 'Catalogue' }).click();
    await pollPage(page, `document.querySelector('[aria-label="Model count"]')?.textContent === '${MODELS} of ${MODELS} models'`, 10_000);
    const search = page.getByRole('searchbox', { name: 'Search models' });
    for (const word of ['vision', 'coder-pro', 'qwen/fl', 'mstrlrg']) {
      await search.click();
      for (const ch of word) {
        await page.keyboard.type(ch);
        await page.waitForTimeout(300);
      }
      await search.fill('');
      await page.waitForTimeout(300);
    }
    const keystrokes = await page.evaluate('window.__keystrokes') as number[];
    await page.close();

    // First paint of the conversation list with 5,000 stored.
    const paints: number[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await ext.context.newPage();
      await p.setViewportSize({ width: 420, height: 900 });
      await p.addInitScript({ content: LIST_PROBE });
      await p.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
      await p.getByRole('tab', { name: 'Conversations' }).click();
      await pollPage(p, 'window.__listPaint !== undefined', 10_000);
      paints.push(await p.evaluate('window.__listPaint') as number);
      // Then the whole list arrives.
      await pollPage(p, `document.querySelector('[aria-label="Conversation count"]')?.textContent === '${CONVERSATIONS} conversations'`, 10_000);
      await p.close();
    }
    const keyMedian = median(keystrokes);
    const paintMedian = median(paints);
    return [
      { label: `search keystroke → updated list, ${MODELS} models (${keystrokes.length} keystrokes)`, value: `median ${keyMedian.toFixed(1)} ms, max ${Math.max(...keystrokes).toFixed(1)} ms`, budget: 16, actual: keyMedian },
      { label: `Conversations tab → first paint of the list, ${CONVERSATIONS} stored (5 runs)`, value: `median ${paintMedian.toFixed(0)} ms (all: ${paints.map((t) => t.toFixed(0)).join(', ')})`, budget: 200, actual: paintMedian },
    ];
  } finally {
    await ext.close();
  }
}
