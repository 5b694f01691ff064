// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MarkdownIt from 'markdown-it';
import { useEffect, useRef } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFormulasFocusable, useBlockActions } from '@/components/chat/render/block-actions';
import { preloadSurfaceMenu } from '@/components/surface/SurfaceMenu';
import { UiRoot } from '@/components/ui/UiRoot';
import { codeBlockHtml } from '@/lib/render/code-block';
import { ensureLanguages, highlightCode } from '@/lib/render/highlight';
import { tablePlugin } from '@/lib/render/tables';
import { renderLabels } from '../render/render-labels';

afterAll(() => preloadSurfaceMenu());

const labels = renderLabels();

/** A reply's root as the chat mounts it: the rendered HTML, the hook's handlers and its menu. */
function Reply({ html }: { html: string }) {
  const { onClick, onKeyDown, onContextMenu, menu } = useBlockActions();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => makeFormulasFocusable(ref.current!), []);
  return (
    <UiRoot>
      <p>Before the reply</p>
      <div ref={ref} className="markdown" onClick={onClick} onKeyDown={onKeyDown} onContextMenu={onContextMenu}>
        <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />
        {menu}
      </div>
    </UiRoot>
  );
}

async function codeBlock(info: string, code: string): Promise<string> {
  await ensureLanguages([info]);
  return codeBlockHtml({ info, code, highlighted: highlightCode(code, info), labels });
}

const TRICKY = 'if a < b && c > d:\n\tprint("<b>&amp;</b>")   \n    s = "中文，日本語、한국어"\t\n\n';
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `x${i} = ${i}`).join('\n') + '\n';

describe('code blocks', () => {
  it('Copy … code copies the code exactly, says so, and the button says Copied for a moment', async () => {
    const user = userEvent.setup();
    render(<Reply html={await codeBlock('python', TRICKY)} />);
    const copy = screen.getByRole('button', { name: 'Copy python code' });
    await user.click(copy);
    await expect(navigator.clipboard.readText()).resolves.toBe(TRICKY);
    expect(await screen.findByText('Copied', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(copy).toHaveTextContent('Copied');
  });

  it('plain code (no language) copies exactly too', async () => {
    const user = userEvent.setup();
    render(<Reply html={codeBlockHtml({ info: '', code: TRICKY, highlighted: undefined, labels })} />);
    await user.click(screen.getByRole('button', { name: 'Copy code code' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(TRICKY);
  });

  it('Show all 45 lines unfolds the block; Show fewer lines folds it again', async () => {
    const user = userEvent.setup();
    const { container } = render(<Reply html={await codeBlock('python', lines(45))} />);
    const block = container.querySelector('.code-block')!;
    expect(block).toHaveAttribute('data-folded');
    await user.click(screen.getByRole('button', { name: 'Show all 45 lines' }));
    expect(block).not.toHaveAttribute('data-folded');
    await user.click(screen.getByRole('button', { name: 'Show fewer lines' }));
    expect(block).toHaveAttribute('data-folded');
    expect(screen.getByRole('button', { name: 'Show all 45 lines' })).toBeInTheDocument();
  });

  it('a 30-line block has nothing to show', async () => {
    render(<Reply html={await codeBlock('python', lines(30))} />);
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('Wrap lines is a toggle: pressed, the block wraps; pressed again, it does not', async () => {
    const user = userEvent.setup();
    const { container } = render(<Reply html={await codeBlock('python', 'x = 1\n')} />);
    await user.click(screen.getByRole('button', { name: 'Wrap lines', pressed: false }));
    expect(screen.getByRole('button', { name: 'Wrap lines', pressed: true })).toBeInTheDocument();
    expect(container.querySelector('.code-block')).toHaveAttribute('data-wrapped');
    await user.click(screen.getByRole('button', { name: 'Wrap lines' }));
    expect(screen.getByRole('button', { name: 'Wrap lines', pressed: false })).toBeInTheDocument();
    expect(container.querySelector('.code-block')).not.toHaveAttribute('data-wrapped');
  });

  it('two blocks keep their own state', async () => {
    const user = userEvent.setup();
    render(<Reply html={(await codeBlock('python', 'a = 1\n')) + (await codeBlock('python', 'b = 2\n'))} />);
    const [first, second] = screen.getAllByRole('button', { name: 'Wrap lines' });
    await user.click(second!);
    expect(first).toHaveAttribute('aria-pressed', 'false');
    expect(second).toHaveAttribute('aria-pressed', 'true');
  });
});

const md = new MarkdownIt({ html: false });
md.use(tablePlugin);
const FORMULA = '<span class="math math-inline" data-tex="a^2+b^2"><span class="katex">a²+b²</span></span>';
const table = (): string =>
  md
    .render(
      [
        '| Item | Price, in € | Said | Formula |',
        '| :--- | ---: | :---: | --- |',
        '| Tea | 1,50 | "hot" \\| "cold" | FORMULA |',
        '| `a\\|b` **bold** | 10 | [link](https://example.com) | none |',
      ].join('\n'),
      { labels },
    )
    .replace('FORMULA', FORMULA);

describe('tables', () => {
  it('the table menu copies it as Markdown, then as CSV, and gives the focus back', async () => {
    const user = userEvent.setup();
    render(<Reply html={table()} />);
    const options = screen.getByRole('button', { name: 'Table options' });
    expect(options).toHaveAttribute('aria-expanded', 'false');
    await user.click(options);
    const menu = await screen.findByRole('menu', { name: 'Table options' });
    expect(options).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(menu).getByRole('menuitem', { name: 'Copy as Markdown' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(
      [
        '| Item | Price, in € | Said | Formula |',
        '| :--- | ---: | :---: | --- |',
        '| Tea | 1,50 | "hot" \\| "cold" | $a^2+b^2$ |',
        '| `a\\|b` **bold** | 10 | [link](https://example.com) | none |',
      ].join('\n'),
    );
    expect(screen.queryByRole('menu')).toBeNull();
    expect(options).toHaveFocus();
    expect(options).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{Enter}');
    const again = await screen.findByRole('menu', { name: 'Table options' });
    // Opened from the keyboard, the first item has the focus; arrows move it.
    expect(within(again).getByRole('menuitem', { name: 'Copy as Markdown' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(again).getByRole('menuitem', { name: 'Copy as CSV' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await expect(navigator.clipboard.readText()).resolves.toBe('Item,"Price, in €",Said,Formula\r\nTea,"1,50","""hot"" | ""cold""",a^2+b^2\r\na|b bold,10,link,none');
    expect(options).toHaveFocus();
  });

  it('Escape closes the menu without copying', async () => {
    const user = userEvent.setup();
    await navigator.clipboard.writeText('before');
    render(<Reply html={table()} />);
    await user.click(screen.getByRole('button', { name: 'Table options' }));
    await screen.findByRole('menu', { name: 'Table options' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'Table options' })).toHaveFocus();
    await expect(navigator.clipboard.readText()).resolves.toBe('before');
  });
});

describe('formulas', () => {
  const html = `<p>By Pythagoras, ${FORMULA}.</p><div class="math math-display" data-tex="\\int_0^1 x\\,dx = \\tfrac12"><span class="katex">∫x dx = ½</span></div>`;

  it('a click on a formula opens its menu, and Copy LaTeX copies its source', async () => {
    const user = userEvent.setup();
    render(<Reply html={html} />);
    await user.click(screen.getByText('∫x dx = ½'));
    const menu = await screen.findByRole('menu', { name: 'Formula options' });
    await user.click(within(menu).getByRole('menuitem', { name: 'Copy LaTeX' }));
    await expect(navigator.clipboard.readText()).resolves.toBe('\\int_0^1 x\\,dx = \\tfrac12');
  });

  it('a formula is reached with Tab; Enter opens its menu, and the focus comes back to it', async () => {
    const user = userEvent.setup();
    const { container } = render(<Reply html={html} />);
    await user.tab();
    const inline = container.querySelector('[data-tex="a^2+b^2"]')!;
    expect(inline).toHaveFocus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Formula options' });
    expect(within(menu).getByRole('menuitem', { name: 'Copy LaTeX' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await expect(navigator.clipboard.readText()).resolves.toBe('a^2+b^2');
    expect(inline).toHaveFocus();
  });

  it('the context menu of a focused formula is its menu', async () => {
    const user = userEvent.setup();
    const { container } = render(<Reply html={html} />);
    await user.tab();
    await user.tab();
    const display = container.querySelector<HTMLElement>('.math-display')!;
    expect(display).toHaveFocus();
    await user.pointer({ keys: '[MouseRight]', target: display });
    expect(await screen.findByRole('menu', { name: 'Formula options' })).toBeInTheDocument();
  });
});
