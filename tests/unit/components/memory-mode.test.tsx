// @vitest-environment jsdom
/**
 * The background keeps conversations in memory (its own open of the database failed, a blocked
 * one say) while this page's open goes through: the page must not take the database for the
 * conversation's record. It says why and keeps each reply on screen once it ends, instead of
 * dropping it to wait for a save that never comes (review of issue 28, item 6).
 */
import 'fake-indexeddb/auto';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PopupApp } from '@/components/popup/PopupApp';
import { noteMemoryMode } from '@/lib/conversations/memory-mode.adapter';
import { ConversationStore } from '@/lib/conversations/store';
import { createGatewayClient } from '@/lib/gateway';
import { RunManager } from '@/lib/runs/run-manager';
import { defaultSettings, type Settings } from '@/lib/settings/schema';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

const background = vi.hoisted(() => ({ runs: undefined as RunManager | undefined }));

vi.mock('@/lib/protocol/background.adapter', async () => (await import('./in-process-background')).inProcessBackground(background));

let gateway: ReferenceGateway;
beforeAll(async () => {
  gateway = await startReferenceGateway();
});
afterAll(async () => {
  await gateway.close();
});

beforeEach(async () => {
  fakeBrowser.reset();
  await fakeBrowser.windows.create({ focused: true });
  localStorage.clear();
  const profile = { id: 'p1', name: 'Reference', siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat' as const, defaultModel: 'echo-1', confirmedImageModels: [] };
  const settings: Settings = { ...defaultSettings(), profiles: [profile], activeProfileId: 'p1' };
  await fakeBrowser.storage.local.set({ settings });
  // The background's store is in memory; the page's database ('gateway-chat') opens as usual.
  const memory = new ConversationStore('background-memory', { indexedDB: new IDBFactory(), IDBKeyRange });
  background.runs = new RunManager({
    store: memory,
    loadSettings: async () => settings,
    clientFor: (p) => createGatewayClient({ baseUrl: p.baseUrl, siteUrl: p.siteUrl, apiKey: p.apiKey }),
  });
  await noteMemoryMode({ problem: 'blocked', detail: 'BlockedError: version 3 is held open; 30 was asked for' });
});

describe('a page whose database opens while the background keeps conversations in memory', () => {
  it('says why, and the reply stays on screen once it ends', async () => {
    const user = userEvent.setup();
    render(<PopupApp />);
    const callout = await screen.findByRole('alert', { name: 'Saved conversations unavailable' }, { timeout: 5000 });
    expect(callout).toHaveTextContent('You can still chat');
    expect(callout).toHaveTextContent('BlockedError');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'kept on screen{Enter}');
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Assistant message' }).at(-1)).toHaveAttribute('data-status', 'complete'));
    // Long after the run's end: nothing was saved where this page reads, and nothing left the screen.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('article', { name: 'User message' })).toHaveTextContent('kept on screen');
    expect(screen.getByRole('article', { name: 'Assistant message' })).toHaveTextContent('Echo: kept on screen');
  });
});
