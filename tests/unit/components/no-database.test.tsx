// @vitest-environment jsdom
/**
 * A conversation database that will not open (issue 28, item 6): the popup says so (not busy
 * for ever), and its composer still works: replies arrive, and a follow-up continues the
 * conversation (the background keeps it in memory). The page's store is the real one, over an
 * IndexedDB left at a far higher version without our tables; the background is the real run
 * manager and protocol handler over its in-memory fallback, reached directly instead of through
 * the browser's messaging.
 */
import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PopupApp } from '@/components/popup/PopupApp';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import { withMemoryFallback } from '@/lib/conversations/fallback-store';
import { createGatewayClient, type ChatRequest } from '@/lib/gateway';
import { RunManager } from '@/lib/runs/run-manager';
import { defaultSettings, type Settings } from '@/lib/settings/schema';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

const background = vi.hoisted(() => ({ runs: undefined as RunManager | undefined, requests: [] as unknown[] }));

vi.mock('@/lib/protocol/background.adapter', async () => (await import('./in-process-background')).inProcessBackground(background));

let gateway: ReferenceGateway;
beforeAll(async () => {
  gateway = await startReferenceGateway();
});
afterAll(async () => {
  await gateway.close();
});

/** What a database at a far higher version without our tables looks like (left by another build). */
function databaseLeftElsewhere(): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('gateway-chat', 1000);
    open.onupgradeneeded = () => {
      for (const store of [...open.result.objectStoreNames]) open.result.deleteObjectStore(store);
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      open.result.close();
      resolve();
    };
  });
}

beforeEach(async () => {
  fakeBrowser.reset();
  await fakeBrowser.windows.create({ focused: true });
  localStorage.clear();
  await databaseLeftElsewhere();
  const profile = { id: 'p1', name: 'Reference', siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat' as const, defaultModel: 'echo-1', confirmedImageModels: [] };
  const settings: Settings = { ...defaultSettings(), profiles: [profile], activeProfileId: 'p1' };
  await fakeBrowser.storage.local.set({ settings });
  const store = withMemoryFallback();
  background.runs = new RunManager({
    store,
    ready: store.markStreamingInterrupted().catch(() => undefined),
    loadSettings: async () => settings,
    clientFor: (p) => {
      const client = createGatewayClient({ baseUrl: p.baseUrl, siteUrl: p.siteUrl, apiKey: p.apiKey });
      return { ...client, streamChat: (request: ChatRequest, options) => {
        background.requests.push(request);
        return client.streamChat(request, options);
      } };
    },
  });
});

describe('the popup when the conversation database will not open', () => {
  it('says so (not busy for ever), and its composer works: a reply, then a follow-up that continues it', async () => {
    const user = userEvent.setup();
    render(<PopupApp />);
    const callout = await screen.findByRole('alert', { name: 'Saved conversations unavailable' }, { timeout: 5000 });
    expect(callout).toHaveTextContent('Your saved conversations could not be read');
    expect(callout).toHaveTextContent('You can still chat');
    expect(screen.getByRole('main', { name: 'Quick chat' })).not.toHaveAttribute('aria-busy');

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'first question{Enter}');
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Assistant message' }).at(-1)).toHaveTextContent('Echo: first question'));
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Assistant message' }).at(-1)).toHaveAttribute('data-status', 'complete'));

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'and a follow-up{Enter}');
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Assistant message' }).at(-1)).toHaveTextContent('Echo: and a follow-up'));
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Assistant message' }).at(-1)).toHaveAttribute('data-status', 'complete'));
    // The conversation so far stays on screen, and went with the follow-up.
    expect(screen.getAllByRole('article', { name: 'User message' }).map((m) => m.textContent)).toEqual([expect.stringContaining('first question'), expect.stringContaining('and a follow-up')]);
    expect(screen.getAllByRole('article', { name: 'Assistant message' })[0]).toHaveTextContent('Echo: first question');
    const last = background.requests.at(-1) as ChatRequest;
    expect(last.messages.map((m) => [m.role, m.content])).toEqual([['user', 'first question'], ['assistant', 'Echo: first question'], ['user', 'and a follow-up']]);
    expect(screen.getByRole('alert', { name: 'Saved conversations unavailable' })).toBeInTheDocument();
  });
});

describe('the side panel when the conversation database will not open', () => {
  it('its chat says so, and its conversation list is empty with the same callout: no spinner, no search that never ends', async () => {
    const user = userEvent.setup();
    render(<SidePanelApp />);
    const chat = await screen.findByRole('region', { name: 'Conversation' }, { timeout: 5000 });
    expect(await within(chat).findByRole('alert', { name: 'Saved conversations unavailable' }, { timeout: 5000 })).toHaveTextContent('You can still chat');
    await user.click(screen.getByRole('tab', { name: 'Conversations' }));
    const list = screen.getByRole('region', { name: 'Conversations' });
    expect(await within(list).findByRole('alert', { name: 'Saved conversations unavailable' }, { timeout: 5000 })).toHaveTextContent('Your saved conversations could not be read');
    await waitFor(() => expect(within(list).getByLabelText('Conversation count')).toHaveTextContent('0 conversations'));
    expect(within(list).queryByLabelText('Loading conversations')).toBeNull();
    await user.type(within(list).getByRole('searchbox', { name: 'Search conversations' }), 'anything');
    await waitFor(() => expect(within(list).getByRole('status')).toHaveTextContent('0 conversations found'));
  });
});
