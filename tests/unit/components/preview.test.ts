// @vitest-environment jsdom
/**
 * The Preview buttons of ```html / ```svg blocks on reply HTML as the worker emits it: the
 * frame, its sandbox and address, Close, the new tab; and, in Firefox's build, the note in
 * their place. (That the sandbox holds is proven in Chromium: tests/browser/previews-diagrams.)
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enhancePreviews, handlePreviewClick } from '@/components/chat/render/preview';
import { wordsFor } from '@/lib/i18n/messages';
import { readPreviewHash } from '@/lib/render/preview-page';

const en = wordsFor('en');

/** What Firefox's build sets: `import.meta.env.FIREFOX` is the boolean true (vitest's type wants a string). */
const stubFirefoxBuild = () => vi.stubEnv('FIREFOX', true as unknown as string);
const CODE = '<h1 id="x">Hi & bye</h1>\n<script>document.title = "ran"</script>';

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function reply(lang: 'html' | 'svg' = 'html', code = CODE): HTMLElement {
  const root = document.createElement('div');
  root.className = 'markdown';
  root.innerHTML = `<div class="md-block"><div class="code-block" data-lang="${lang}"><div class="code-head"><span class="code-lang">${lang}</span>`
    + `<button type="button" data-preview="${lang}">Preview</button><button type="button" data-preview-tab="${lang}">Open preview in a new tab</button>`
    + `<button type="button" data-copy-code aria-label="Copy ${lang} code">Copy</button></div><pre><code class="hljs language-${lang}">${escapeHtml(code)}</code></pre></div></div>`;
  root.addEventListener('click', (event) => {
    root.dataset.handled = String(handlePreviewClick(event, en));
  });
  document.body.append(root);
  return root;
}

describe('previews', () => {
  it('Preview puts a sandboxed frame titled Preview under the block, running the block\'s code from the preview page; Close takes it away', async () => {
    const root = reply();
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(root.dataset.handled).toBe('true');
    // (What opens it is fetched with the first preview asked for.)
    const frame = await screen.findByTitle('Preview');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    const src = new URL(frame.getAttribute('src')!);
    expect(src.pathname).toBe('/preview.html');
    expect(readPreviewHash(src.hash)).toEqual({ kind: 'html', code: CODE, title: 'Preview' });
    // Under its code block, not inside it.
    expect(root.querySelector('.code-block')!.nextElementSibling).toBe(frame.parentElement);

    // Asked again: the code runs afresh, still one frame.
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(screen.getByTitle('Preview')).not.toBe(frame));
    expect(screen.getAllByTitle('Preview')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Close preview' }));
    expect(screen.queryByTitle('Preview')).toBeNull();
    expect(screen.getByRole('button', { name: 'Preview' })).toHaveFocus();
  });

  it('Open preview in a new tab opens the preview page, without an opener', async () => {
    reply('svg', '<svg><circle r="5"/></svg>');
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    await userEvent.click(screen.getByRole('button', { name: 'Open preview in a new tab' }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    const [url, target, features] = open.mock.calls[0]!;
    const address = new URL(String(url));
    expect(address.pathname).toBe('/preview.html');
    expect(readPreviewHash(address.hash)).toEqual({ kind: 'svg', code: '<svg><circle r="5"/></svg>', title: 'Preview' });
    expect([target, features]).toEqual(['_blank', 'noopener']);
    expect(screen.queryByTitle('Preview')).toBeNull();
  });

  it('other clicks are not its business', async () => {
    const root = reply();
    await userEvent.click(screen.getByRole('button', { name: 'Copy html code' }));
    expect(root.dataset.handled).toBe('false');
  });

  it('in Firefox\'s build the buttons give way to a note saying why, and the source stays', async () => {
    stubFirefoxBuild();
    const root = reply();
    enhancePreviews(root, en);
    expect(screen.queryByRole('button', { name: 'Preview' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open preview in a new tab' })).toBeNull();
    expect(screen.getByRole('note')).toHaveTextContent(/^No preview in Firefox: it has no sandboxed extension pages/);
    expect(root.querySelector('code')).toBeVisible();
    // Once per block.
    enhancePreviews(root, en);
    expect(screen.getAllByRole('note')).toHaveLength(1);
  });

  it('in Firefox\'s build a click that comes before the enhancer also just explains', async () => {
    stubFirefoxBuild();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const root = reply();
    await userEvent.click(screen.getByRole('button', { name: 'Open preview in a new tab' }));
    expect(root.dataset.handled).toBe('true');
    expect(open).not.toHaveBeenCalled();
    expect(screen.queryByTitle('Preview')).toBeNull();
    expect(screen.getByRole('note')).toHaveTextContent('No preview in Firefox');
  });
});
