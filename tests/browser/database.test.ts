/**
 * A conversation database that will not open (issue 28, item 6), in the built extension: another
 * connection takes it to a far higher version without our tables (what a newer build that
 * changed them leaves after a downgrade; Dexie opens any higher version at that version, so
 * only a change this build cannot read fails), and the worker is restarted so that it meets
 * the database as it now is. Every surface says so, and the user still chats, without history:
 * the background keeps the conversation in memory, the page the messages its runs sent.
 */
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayAndExtensionPerFile } from './fixture';
import { breakDatabase, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';

const env = gatewayAndExtensionPerFile();

const CALLOUT = 'Saved conversations unavailable';

async function saysSo(scope: ReturnType<Page['getByRole']> | Page): Promise<string> {
  const callout = scope.getByRole('alert', { name: CALLOUT });
  await callout.first().waitFor({ timeout: 15_000 });
  return (await callout.first().textContent()) ?? '';
}

const chats = () => env.gateway.requests.filter((r) => r.path === '/v1/chat/completions');

beforeAll(async () => {
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
  await breakDatabase(env.ext);
});

beforeEach(() => {
  env.gateway.reset();
});

describe('a database that will not open', () => {
  it('the popup says so, and a message gets its reply; a follow-up continues the conversation', async () => {
    const popup = await env.ext.open('popup.html');
    await popup.setViewportSize({ width: 400, height: 600 });
    const text = await saysSo(popup);
    expect(text).toContain('Your saved conversations could not be read');
    expect(text).toContain('You can still chat');
    expect(text).toContain('A newer version of Gateway Chat changed the saved conversations');
    expect(await popup.getByRole('main', { name: 'Quick chat' }).getAttribute('aria-busy')).toBeNull();

    await send(popup, 'first question');
    await expect.poll(() => lastReply(popup).getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(await lastReply(popup).textContent()).toContain('Echo: first question');
    await send(popup, 'and a follow-up');
    await expect.poll(() => popup.getByRole('article', { name: 'Assistant message' }).count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => lastReply(popup).getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(await lastReply(popup).textContent()).toContain('Echo: and a follow-up');
    // The first turn is still on screen, and went to the gateway with the follow-up.
    expect(await popup.getByRole('article', { name: 'Assistant message' }).first().textContent()).toContain('Echo: first question');
    const sent = chats().at(-1)?.body as { messages: { role: string; content: unknown }[] } | undefined;
    expect(sent?.messages.map((m) => [m.role, m.content])).toEqual([['user', 'first question'], ['assistant', 'Echo: first question'], ['user', 'and a follow-up']]);
    // Still said: nothing of this is saved.
    expect(await popup.getByRole('alert', { name: CALLOUT }).count()).toBe(1);
    await popup.close();
  });

  it('the side panel says so in its chat and in its conversation list (empty, not loading), and chats', async () => {
    const panel = await env.ext.open('sidepanel.html');
    await panel.setViewportSize({ width: 420, height: 900 });
    expect(await saysSo(panel.getByRole('region', { name: 'Conversation', exact: true }))).toContain('You can still chat');
    await send(panel, 'from the panel');
    await expect.poll(() => lastReply(panel).getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(await lastReply(panel).textContent()).toContain('Echo: from the panel');
    await panel.getByRole('tab', { name: 'Conversations', exact: true }).click();
    const list = panel.getByRole('region', { name: 'Conversations', exact: true });
    expect(await saysSo(list)).toContain('Your saved conversations could not be read');
    await expect.poll(() => list.getByLabel('Conversation count').textContent()).toBe('0 conversations');
    expect(await list.getByLabel('Loading conversations').count()).toBe(0);
    await panel.close();
  });

  it('the chat page says so in its chat and in its rail, and chats', async () => {
    const chat = await openChatPage(env.ext);
    expect(await saysSo(chat.getByRole('main'))).toContain('You can still chat');
    expect(await saysSo(chat.getByRole('navigation', { name: 'Conversations' }))).toContain('Your saved conversations could not be read');
    await send(chat, 'from the chat page');
    await idle(chat);
    expect(await lastReply(chat).textContent()).toContain('Echo: from the chat page');
    // Search finds nothing, and says so (it does not search for ever).
    await chat.getByRole('searchbox', { name: 'Search conversations' }).fill('chat');
    await expect.poll(() => chat.getByRole('navigation', { name: 'Conversations' }).getByRole('status').first().textContent(), { timeout: 10_000 }).toBe('0 conversations found');
    // An export says why it failed (it does not wait for ever).
    await chat.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = chat.getByRole('dialog', { name: 'Export conversations' });
    await dialog.getByRole('button', { name: 'Export JSON' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('The export failed: SchemaError');
    await chat.close();
  });
});
