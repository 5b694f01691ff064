import { describe, expect, it } from 'vitest';
import { fromOwnPage, type SenderLike } from '@/lib/protocol/senders';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const chrome = { id: ID, root: `chrome-extension://${ID}/` };
const UUID = '6b1e7c2a-0d3f-4f6e-9a51-2c8d7e4b9f10';
const firefox = { id: 'gateway-chat@example.org', root: `moz-extension://${UUID}/` };

describe('only our pages command the background (issue 28, item 11)', () => {
  it.each<[string, SenderLike]>([
    ['the popup (no tab)', { id: ID, url: `chrome-extension://${ID}/popup.html`, origin: `chrome-extension://${ID}` }],
    ['the side panel (no tab)', { id: ID, url: `chrome-extension://${ID}/sidepanel.html?conversation=c1`, origin: `chrome-extension://${ID}` }],
    ['the chat page in a tab', { id: ID, url: `chrome-extension://${ID}/chat.html`, origin: `chrome-extension://${ID}`, tab: { url: `chrome-extension://${ID}/chat.html` } }],
    ['the options page in a tab whose address the browser keeps to itself', { id: ID, url: `chrome-extension://${ID}/options.html`, tab: {} }],
    ['a page of ours in a tab still loading (no address yet)', { id: ID, url: `chrome-extension://${ID}/chat.html`, tab: { url: '' } }],
  ])('Chrome: %s', (_what, sender) => {
    expect(fromOwnPage(sender, chrome)).toBe(true);
  });

  it.each<[string, SenderLike]>([
    ['the sidebar (no tab, no origin field)', { id: firefox.id, url: `moz-extension://${UUID}/sidepanel.html` }],
    ['the options page in a tab', { id: firefox.id, url: `moz-extension://${UUID}/options.html`, tab: { url: `moz-extension://${UUID}/options.html` } }],
  ])('Firefox: %s', (_what, sender) => {
    expect(fromOwnPage(sender, firefox)).toBe(true);
  });

  it.each<[string, SenderLike]>([
    // Our own injected scripts (the page reader, the selection reader) carry our id.
    ['our content script in a web page', { id: ID, url: 'https://example.com/article', origin: 'https://example.com', tab: { url: 'https://example.com/article' } }],
    ['our content script in a frame of a web page', { id: ID, url: 'https://ads.example/frame', origin: 'https://ads.example', tab: { url: 'https://example.com/' } }],
    ['our content script in about:blank', { id: ID, url: 'about:blank', origin: 'https://example.com', tab: { url: 'https://example.com/' } }],
    ['another extension\'s page', { id: 'ponmlkjihgfedcbaponmlkjihgfedcba', url: 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/popup.html' }],
    ['another extension that claims our id', { id: ID, url: 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/popup.html' }],
    ['a web page (externally_connectable: it has no id)', { url: 'https://evil.example/', origin: 'https://evil.example', tab: { url: 'https://evil.example/' } }],
    ['a web page seen without an origin field', { url: 'https://evil.example/' }],
    ['a page of ours framed inside a web page', { id: ID, url: `chrome-extension://${ID}/popup.html`, origin: `chrome-extension://${ID}`, tab: { url: 'https://evil.example/' } }],
    ['a sandboxed page of ours (opaque origin)', { id: ID, url: `chrome-extension://${ID}/sandbox.html`, origin: 'null' }],
    ['a host that only starts like ours', { id: ID, url: `chrome-extension://${ID}.evil.example/popup.html` }],
    ['no address at all', { id: ID }],
    ['an address that cannot be read', { id: ID, url: 'chrome-extension://' }],
  ])('refused: %s', (_what, sender) => {
    expect(fromOwnPage(sender, chrome)).toBe(false);
  });

  it('refused: no sender; a Firefox content script; Chrome\'s page in Firefox\'s extension', () => {
    expect(fromOwnPage(undefined, chrome)).toBe(false);
    expect(fromOwnPage({ id: firefox.id, url: 'https://example.com/', tab: { url: 'https://example.com/' } }, firefox)).toBe(false);
    expect(fromOwnPage({ id: firefox.id, url: `chrome-extension://${ID}/popup.html` }, firefox)).toBe(false);
  });
});
