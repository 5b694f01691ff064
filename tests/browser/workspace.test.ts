/**
 * The chat page as a workspace (issue 11): search across every conversation (Chinese too),
 * versions that survive a reload, a conversation's own system prompt, export → clear → import
 * byte for byte, ChatGPT's export with its branches, and the keyboard.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chooseModel, clearConversations, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';
import { HISTORY_FORMAT, HISTORY_VERSION } from '../../lib/transfer/history-file';

const env = gatewayAndExtensionPerFile();

beforeEach(async () => {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, { ...profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey), chat: { systemPrompt: 'GLOBAL SYSTEM PROMPT' } });
});

const chatPage = (query = ''): Promise<Page> => openChatPage(env.ext, query);

/** The "‹ 2 / 3 ›" of the nth message of a role (a reply's is inside it; a question's just under it). */
const versions = (page: Page, role: 'User message' | 'Assistant message', n = 0) => {
  const article = page.getByRole('article', { name: role }).nth(n);
  return (role === 'User message' ? article.locator('xpath=..') : article).getByRole('group', { name: 'Versions' });
};
const replyText = async (page: Page, n: number): Promise<string> => ((await page.getByRole('article', { name: 'Assistant message' }).nth(n).locator('.markdown').first().textContent()) ?? '').trim();

/** Every conversation and message as IndexedDB holds them, in a stable order. */
async function dump(page: Page): Promise<string> {
  return page.evaluate(() => new Promise<string>((done, fail) => {
    const open = indexedDB.open('gateway-chat');
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const db = open.result;
      // Every message record, whether saved as a row of its own or inside an imported conversation's pack.
      const tx = db.transaction(['conversations', 'messages', 'packs'], 'readonly');
      const c = tx.objectStore('conversations').getAll();
      const m = tx.objectStore('messages').getAll();
      const p = tx.objectStore('packs').getAll();
      tx.oncomplete = () => {
        db.close();
        const packed = (p.result as { messages: { id: string }[] }[]).flatMap((pack) => pack.messages);
        const messages = [...(m.result as { id: string }[]), ...packed].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        done(JSON.stringify({ conversations: c.result, messages }));
      };
    };
  }));
}

/** Runs a check; when it fails, prints what the page shows and what IndexedDB holds, then fails. */
async function explainOnFailure(page: Page, check: () => Promise<unknown>): Promise<void> {
  try {
    await check();
  } catch (error) {
    const shown = await page.getByRole('article').evaluateAll((articles) => articles.map((a) => `${a.getAttribute('aria-label') ?? ''} [${a.getAttribute('data-status') ?? ''}] ${(a.textContent ?? '').slice(0, 60)}`));
    const said = await page.locator('[role="alert"], [role="status"]').evaluateAll((els) => els.map((e) => (e.textContent ?? '').slice(0, 120)));
    console.error('Shown:', shown, 'Said:', said, 'Stored:', await dump(page));
    throw error;
  }
}

describe('search', () => {
  it('finds a word from a reply made in the popup, and a Chinese phrase, and opens the conversation at that message', async () => {
    const popup = await env.ext.open('popup.html');
    await send(popup, 'Tell me about the platypus please');
    await expect.poll(() => lastReply(popup).textContent()).toContain('Echo: Tell me about the platypus');
    // More turns after it, long enough that the match is far above the end.
    for (const n of [1, 2, 3]) {
      await send(popup, `Filler turn ${n}: ${'lorem ipsum dolor sit amet '.repeat(60)}`);
      await expect.poll(() => popup.locator('[data-status="streaming"]').count(), { timeout: 15_000 }).toBe(0);
    }
    const other = await env.ext.open('popup.html');
    await other.getByRole('button', { name: 'New chat' }).click();
    await send(other, '我们明天讨论量子计算机的原理');
    await expect.poll(() => lastReply(other).textContent()).toContain('量子计算机');
    await popup.close();
    await other.close();

    const page = await chatPage();
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('platyp');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => results.locator('mark').first().textContent()).toMatch(/platyp/i);
    await results.getByRole('button').first().click();
    // Opened at the reply that matched: it is on screen, the newest turn is not.
    const match = page.getByRole('article', { name: 'Assistant message' }).first();
    await expect.poll(() => match.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    })).toBe(true);
    await expect.poll(() => lastReply(page).evaluate((el) => el.getBoundingClientRect().top > window.innerHeight)).toBe(true);

    await search.fill('量子计算');
    await expect.poll(() => results.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => results.locator('mark').first().textContent()).toBe('量子计算');
    await search.fill('量机');
    await expect.poll(() => page.getByRole('status').filter({ hasText: /conversations? found/ }).textContent()).toBe('0 conversations found');
  });
});

describe('versions', () => {
  it('regenerate and edit make versions that survive a reload and switch with ‹ ›; a failed regenerate keeps the earlier one', async () => {
    const page = await chatPage();
    // Whatever step fails, the page and the database are printed with it.
    await explainOnFailure(page, async () => {
      await send(page, 'alpha question');
      await expect.poll(() => replyText(page, 0)).toBe('Echo: alpha question');
      // The reply's text can be whole a moment before its run ends; until then Enter sends nothing.
      await idle(page);
      await send(page, 'second question');
      await expect.poll(() => page.getByRole('article', { name: 'User message' }).count()).toBe(2);
      await idle(page);

      // Regenerate the first reply with another model: a second version, the rest of the
      // conversation stays with the first.
      await chooseModel(page, 'summarise-1');
      await page.getByRole('button', { name: 'Regenerate' }).first().click();
      await idle(page);
      await expect.poll(() => versions(page, 'Assistant message').textContent()).toContain('2 / 2');
      // Read once the new version's run has ended (its text is then whole).
      await idle(page);
      await expect.poll(() => replyText(page, 0)).not.toBe('Echo: alpha question');
      const second = await replyText(page, 0);
      expect(env.gateway.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body).toMatchObject({ model: 'summarise-1' });
      await expect.poll(() => page.getByRole('article', { name: 'User message' }).count()).toBe(1);

      // A regenerate that fails is a third version; the second is untouched.
      env.gateway.setFault({ kind: 'server-error' });
      await page.getByRole('button', { name: 'Regenerate' }).first().click();
      await expect.poll(() => versions(page, 'Assistant message').textContent()).toContain('3 / 3');
      await expect.poll(() => page.getByRole('article', { name: 'Assistant message' }).first().getAttribute('data-status')).toBe('error');
      await versions(page, 'Assistant message').getByRole('button', { name: 'Previous version' }).click();
      await expect.poll(() => replyText(page, 0)).toBe(second);
      await versions(page, 'Assistant message').getByRole('button', { name: 'Previous version' }).click();
      await expect.poll(() => replyText(page, 0)).toBe('Echo: alpha question');
      await expect.poll(() => page.getByRole('article', { name: 'User message' }).count()).toBe(2);

      // Edit & resend the second question.
      await chooseModel(page, 'echo-1');
      await page.getByRole('button', { name: 'Edit message' }).nth(1).click();
      await page.getByRole('textbox', { name: 'Edited message' }).fill('second question, edited');
      await page.getByRole('button', { name: 'Save and send' }).click();
      await expect.poll(() => replyText(page, 1)).toBe('Echo: second question, edited');
      await expect.poll(() => versions(page, 'User message', 1).textContent()).toContain('2 / 2');

      // After a reload: the same branch, and every version still there.
      await page.reload();
      await expect.poll(() => replyText(page, 1)).toBe('Echo: second question, edited');
      await versions(page, 'User message', 1).getByRole('button', { name: 'Previous version' }).click();
      await expect.poll(() => replyText(page, 1)).toBe('Echo: second question');
      await expect.poll(() => versions(page, 'Assistant message').textContent()).toContain('1 / 3');
    });
  });
});

describe("a conversation's own settings", () => {
  it('its system prompt reaches the gateway; another conversation keeps the global one', async () => {
    const page = await chatPage();
    await send(page, 'first in mine');
    await idle(page);
    await page.getByRole('button', { name: 'Conversation settings' }).click();
    // Typing in the box is enough to give the conversation a prompt of its own.
    await page.getByRole('textbox', { name: 'System prompt' }).fill('You are a terse pirate.');
    await page.getByRole('button', { name: 'Save' }).click();
    await send(page, 'second in mine');
    await idle(page);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'in another');
    await idle(page);
    const bodies = env.gateway.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { messages: { role: string; content: string }[] });
    const system = (text: string) => bodies.find((b) => b.messages.at(-1)?.content === text)?.messages[0];
    expect(system('first in mine')).toEqual({ role: 'system', content: 'GLOBAL SYSTEM PROMPT' });
    expect(system('second in mine')).toEqual({ role: 'system', content: 'You are a terse pirate.' });
    expect(system('in another')).toEqual({ role: 'system', content: 'GLOBAL SYSTEM PROMPT' });
  });
});

describe('export and import', () => {
  it('export → clear → import gives back every conversation and version byte for byte; the file holds no key', async () => {
    const page = await chatPage();
    await send(page, 'keep me');
    await idle(page);
    await page.getByRole('button', { name: 'Regenerate' }).first().click();
    await idle(page);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await send(page, '第二个对话');
    await idle(page);
    const before = await dump(page);

    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('checkbox', { name: /Include profiles/ }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const file = resolve(import.meta.dirname, '../../test-results/history-export.json');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(env.gateway.demoKey);
    expect(JSON.parse(text).conversations).toHaveLength(2);

    await clearConversations(env.ext);
    await expect.poll(() => page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').count()).toBe(0);
    await page.getByLabel('History file to import').setInputFiles(file);
    await expect.poll(() => page.getByRole('dialog').getByRole('status').textContent()).toContain('Imported 2 conversations');
    expect(await dump(page)).toBe(before);
  });

  it("ChatGPT's conversations.json imports with its branches as versions", async () => {
    const page = await chatPage();
    await page.getByLabel('History file to import').setInputFiles(resolve(import.meta.dirname, '../fixtures/chatgpt/conversations.json'));
    await expect.poll(() => page.getByRole('dialog').getByRole('status').textContent()).toContain('Imported 2 conversations');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Sourdough starter' }).click();
    await expect.poll(() => replyText(page, 1)).toBe('Whole rye gets it going fastest.');
    await expect.poll(() => versions(page, 'Assistant message', 0).textContent()).toContain('2 / 2');
    await versions(page, 'Assistant message', 0).getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(() => replyText(page, 0)).toBe('Mix equal parts flour and water.');
    await expect.poll(() => replyText(page, 1)).toBe('Once a day, discarding half.');
  });
});

/**
 * A history of two conversations: "Long one", of `pairs` questions each answered with a code block
 * (of 6 to 40 lines) and a table (of 4 to 23 rows: rows drawn taller than first guessed), and "Short one".
 */
function longHistory(pairs: number): string {
  const now = Date.now();
  const messages: Record<string, unknown>[] = [];
  let parent: string | null = null;
  for (let m = 0; m < pairs * 2; m++) {
    const n = Math.floor(m / 2);
    const code = Array.from({ length: 6 + ((n * 7) % 35) }, (_, i) => `print("step ${n}.${i}")`).join('\n');
    const table = Array.from({ length: 4 + (n % 20) }, (_, i) => `| ${n} | ${i} | row ${i} |`).join('\n');
    const text = m % 2 === 0 ? `Question ${n}` : `Answer ${n}:\n\n\`\`\`python\n${code}\n\`\`\`\n\n| Step | Row | Name |\n|---|---|---|\n${table}\n\nThat is all for step ${n}.`;
    messages.push({ id: `long-m${m}`, conversationId: 'long', seq: m, role: m % 2 === 0 ? 'user' : 'assistant', parentId: parent, text, reasoning: '', status: 'complete', createdAt: now - (pairs * 2 - m) * 60_000 });
    parent = `long-m${m}`;
  }
  const conversation = (id: string, title: string, updatedAt: number) => ({ id, title, createdAt: now - pairs * 120_000, updatedAt, profileId: 'p1', model: 'echo-1', surface: 'chat', replyStatus: 'complete' });
  const short = [{ id: 'short-m0', conversationId: 'short', seq: 0, role: 'user', parentId: null, text: 'Hello', reasoning: '', status: 'complete', createdAt: now - 10_000 }];
  return JSON.stringify({ format: HISTORY_FORMAT, version: HISTORY_VERSION, exportedAt: now, conversations: [{ conversation: conversation('long', 'Long one', now - 60_000), messages }, { conversation: conversation('short', 'Short one', now), messages: short }] });
}

/** The chat page, with `longHistory(80)` imported through it. */
async function chatPageWithLongHistory(): Promise<Page> {
  const page = await chatPage();
  const file = resolve(import.meta.dirname, '../../test-results/long-history.json');
  writeFileSync(file, longHistory(80));
  await page.getByLabel('History file to import').setInputFiles(file);
  await expect.poll(() => page.getByRole('dialog').getByRole('status').textContent()).toContain('Imported 2 conversations');
  await page.getByRole('button', { name: 'Close' }).click();
  return page;
}

describe('a long conversation', () => {
  it('opens at its newest message, and again when opened a second time after another', async () => {
    const page = await chatPageWithLongHistory();
    const history = page.getByRole('log', { name: 'Chat history' });
    const fromBottom = () => history.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    const atNewest = async (): Promise<void> => {
      await page.getByText('That is all for step 79.').waitFor();
      // Settled at the end: the rows drawn since were measured, and the view followed them down.
      await expect.poll(fromBottom).toBeLessThan(40);
      await page.waitForTimeout(300);
      expect(await fromBottom()).toBeLessThan(40);
      expect(await page.getByRole('button', { name: 'Jump to latest' }).count()).toBe(0);
      // Opened, the rows just above the view are drawn too (ready to scroll into).
      await expect.poll(() => history.evaluate((el) => {
        const top = el.getBoundingClientRect().top;
        return [...el.querySelectorAll('[data-message-id]')].filter((row) => row.getBoundingClientRect().bottom < top).length;
      })).toBeGreaterThan(0);
    };
    // Whether the empty conversation's invitation showed at any moment from now: a saved
    // conversation being opened is not empty while its messages are read.
    const watchEmpty = () => history.evaluate((log) => {
      const seen = { empty: false };
      (window as unknown as { emptySeen: typeof seen }).emptySeen = seen;
      new MutationObserver(() => {
        if (log.textContent?.includes('Ask echo-1 anything')) seen.empty = true;
      }).observe(log, { childList: true, subtree: true, characterData: true });
    });
    const emptySeen = () => page.evaluate(() => (window as unknown as { emptySeen: { empty: boolean } }).emptySeen.empty);
    // Rows drawn and then dropped while the conversation opens (each a reply laid out for nothing).
    const watchDropped = () => history.evaluate((log) => {
      const dropped: string[] = [];
      (window as unknown as { dropped: string[] }).dropped = dropped;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.removedNodes) {
            if (node instanceof HTMLElement && node.parentElement === null && record.target instanceof HTMLElement && record.target.classList.contains('virtual-messages')) dropped.push(node.dataset.index ?? '?');
          }
        }
      }).observe(log, { childList: true, subtree: true });
    });
    const dropped = () => page.evaluate(() => (window as unknown as { dropped: string[] }).dropped);
    for (let round = 0; round < 2; round++) {
      if (round > 0) await watchEmpty();
      await watchDropped();
      await page.getByRole('button', { name: 'Long one', exact: true }).click();
      await atNewest();
      // Opened again (its renderings at hand), only the rows of its first screen are drawn: each is
      // taken at its guessed height until it is laid out, not read short before the browser has
      // decided which of its parts are on screen (which had the rows above it drawn, then dropped).
      if (round > 0) expect(await dropped()).toEqual([]);
      await watchEmpty();
      await page.getByRole('button', { name: 'Short one', exact: true }).click();
      await page.getByText('Hello', { exact: true }).waitFor();
      expect(await emptySeen()).toBe(false);
    }
    expect(await emptySeen()).toBe(false);
  });

  it('scrolled up with the wheel, what is on screen moves by the wheel\'s steps: rows drawn above the view never push it down', async () => {
    const page = await chatPageWithLongHistory();
    await page.getByRole('button', { name: 'Long one', exact: true }).click();
    await page.getByText('That is all for step 79.').waitFor();
    await page.waitForTimeout(500);
    const history = page.getByRole('log', { name: 'Chat history' });
    const box = await history.boundingBox();
    if (box === null) throw new Error('the history is not on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const STEP = 300;
    // After each frame is painted: how far the message that was in the middle of the view moved
    // since the frame before. The wheel moves it by whole steps (one, or more in a slow frame);
    // anything else is the view jumping.
    await history.evaluate((log, step) => {
      const moves: number[] = [];
      (window as unknown as { moves: number[] }).moves = moves;
      let last: { id: string; top: number } | undefined;
      const sample = (): void => {
        if (last !== undefined) {
          const row = log.querySelector(`[data-message-id="${CSS.escape(last.id)}"]`);
          if (row !== null) moves.push(Math.round(row.getBoundingClientRect().top - last.top));
        }
        const r = log.getBoundingClientRect();
        const middle = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('[data-message-id]');
        last = middle === null || middle === undefined ? undefined : { id: middle.getAttribute('data-message-id') ?? '', top: middle.getBoundingClientRect().top };
        requestAnimationFrame(afterPaint);
      };
      const channel = new MessageChannel();
      channel.port1.onmessage = sample;
      const afterPaint = (): void => channel.port2.postMessage(step);
      requestAnimationFrame(afterPaint);
    }, STEP);
    for (let i = 0; i < 30; i++) {
      await page.mouse.wheel(0, -STEP);
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(300);
    const moves = await page.evaluate(() => (window as unknown as { moves: number[] }).moves);
    // It did scroll up (by 30 steps, less what reached the top), and never by anything but steps.
    expect(moves.filter((m) => m > 0).reduce((a, b) => a + b, 0)).toBeGreaterThan(10 * STEP);
    expect(moves.filter((m) => Math.abs(m - Math.round(m / STEP) * STEP) > 2)).toEqual([]);
  });
});

describe('keyboard', () => {
  it('Ctrl/Cmd+K opens the palette that finds a conversation; Esc stops a reply; ↑ edits the last message', async () => {
    const page = await chatPage();
    await send(page, 'the walrus conversation');
    await idle(page);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'something else');
    await idle(page);

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('combobox', { name: 'Search conversations, models and commands' });
    await palette.fill('walrus');
    await expect.poll(() => page.getByRole('option').first().textContent()).toContain('the walrus conversation');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('article', { name: 'User message' }).first().textContent()).toContain('the walrus conversation');

    env.gateway.setPace({ delayMs: 60, chunkChars: 2 });
    await send(page, 'a slow reply that I will stop with Escape');
    await expect.poll(() => lastReply(page).getAttribute('data-status')).toBe('streaming');
    await page.keyboard.press('Escape');
    await expect.poll(() => lastReply(page).getAttribute('data-status')).toBe('stopped');

    await page.getByRole('textbox', { name: 'Message', exact: true }).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.getByRole('textbox', { name: 'Edited message' }).inputValue()).toBe('a slow reply that I will stop with Escape');
    await page.keyboard.press('Escape');

    await page.locator('body').click({ position: { x: 700, y: 20 } });
    await page.keyboard.press('Shift+?');
    await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible()).toBe(true);
  });
});
