/**
 * The tab in front beside the popup or side panel, known before a send: asked once, then told by
 * the browser each time another tab of this window comes to the front (another window's are not
 * this page's).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { watchActiveTabId } from '@/lib/page/page.adapter';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const WINDOW = 3;

describe('watchActiveTabId', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    // The tab in front of this page's window (the fake browser keeps no tab in front to ask about).
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([{ id: 7, windowId: WINDOW, index: 0, highlighted: true, active: true, pinned: false, incognito: false }]);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('tells the tab in front now, then each tab of this window brought to the front, until stopped', async () => {
    const seen: (number | undefined)[] = [];
    const stop = watchActiveTabId((id) => seen.push(id));
    await settle();
    expect(seen).toEqual([7]);
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 8, windowId: WINDOW });
    expect(seen).toEqual([7, 8]);
    // Another window's tab coming to the front is not this page's.
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 999, windowId: WINDOW + 1 });
    expect(seen).toEqual([7, 8]);
    stop();
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 9, windowId: WINDOW });
    expect(seen).toEqual([7, 8]);
  });

  it('a tab brought to the front before the first answer is asked about again', async () => {
    const seen: (number | undefined)[] = [];
    const stop = watchActiveTabId((id) => seen.push(id));
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 8, windowId: WINDOW });
    await settle();
    expect(fakeBrowser.tabs.query).toHaveBeenCalledTimes(2);
    expect(seen).toEqual([7, 7]);
    stop();
  });
});
