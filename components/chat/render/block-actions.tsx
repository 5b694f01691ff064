/**
 * What the buttons and formulas of a rendered reply do. The reply's HTML comes from the render
 * worker as a string (lib/render/code-block.ts, tables.ts, math.ts) and is never rendered again,
 * so its behaviour is delegated: one set of handlers on the reply's root reads the element that
 * was clicked, and its state (wrapped, unfolded) lives in that element's attributes.
 */
import { DropdownMenu as M } from 'radix-ui';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useWords } from '@/components/i18n/words';
import { MenuItem } from '@/components/ui/Menu';
import { toast } from '@/components/ui/Toast';
import type { Words } from '@/lib/i18n/messages';
import { tableAsCsv, tableAsMarkdown, type ColumnAlign } from '@/lib/render/tables';

async function copyText(text: string, w: Words): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast(w.t('common.copied'));
    return true;
  } catch {
    toast(w.t('common.copyFailed'), 'error');
    return false;
  }
}

/** A cell's content as text; in Markdown its code, emphasis, links and formulas keep their markers. */
function cellText(node: Node, markdown: boolean): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  const tex = node.getAttribute('data-tex');
  if (tex !== null) {
    if (!markdown) return tex;
    return node.classList.contains('math-display') ? `$$${tex}$$` : `$${tex}$`;
  }
  switch (node.localName) {
    case 'br':
      return '\n';
    case 'img':
      return node.getAttribute('alt') ?? '';
    case 'button':
      // An image not loaded yet (lib/render/markdown.ts): its alt text, not the button's words.
      return node.getAttribute('data-alt') ?? '';
  }
  const inner = [...node.childNodes].map((child) => cellText(child, markdown)).join('');
  if (!markdown) return inner;
  switch (node.localName) {
    case 'code':
      return inner.includes('`') ? `\`\` ${inner} \`\`` : `\`${inner}\``;
    case 'strong':
      return `**${inner}**`;
    case 'em':
      return `*${inner}*`;
    case 'del':
    case 's':
      return `~~${inner}~~`;
    case 'a': {
      const href = node.getAttribute('href');
      return href === null ? inner : `[${inner}](${href})`;
    }
    default:
      return inner;
  }
}

function tableCells(table: HTMLTableElement, markdown: boolean): string[][] {
  return [...table.rows].map((row) => [...row.cells].map((cell) => cellText(cell, markdown)));
}

function tableAlign(table: HTMLTableElement): ColumnAlign[] {
  return [...(table.rows[0]?.cells ?? [])].map((cell) => {
    const align = cell.style.textAlign;
    return align === 'left' || align === 'right' || align === 'center' ? align : undefined;
  });
}

/** Formulas (`[data-tex]`, lib/render/math.ts) take the keyboard's focus, to open their menu with Enter. */
export function makeFormulasFocusable(root: HTMLElement): void {
  for (const formula of root.querySelectorAll<HTMLElement>('[data-tex]:not([tabindex])')) formula.tabIndex = 0;
}

interface OpenMenu {
  kind: 'table' | 'formula';
  anchor: HTMLElement;
  rect: DOMRect;
  /** Opened from the keyboard: its first item takes the focus. */
  byKeyboard: boolean;
}

function BlockMenu({ open, onClose, w }: { open: OpenMenu; onClose(): void; w: Words }) {
  const { anchor, rect, byKeyboard } = open;
  const focused = useRef(false);
  // The table's button is what the reader pressed: it says its menu is open.
  useEffect(() => {
    if (!anchor.hasAttribute('aria-haspopup')) return;
    anchor.setAttribute('aria-expanded', 'true');
    return () => anchor.setAttribute('aria-expanded', 'false');
  }, [anchor]);
  const copyTable = (markdown: boolean): void => {
    const table = anchor.closest('.table-block')?.querySelector('table');
    if (!table) return;
    const rows = tableCells(table, markdown);
    void copyText(markdown ? tableAsMarkdown(rows, tableAlign(table)) : tableAsCsv(rows), w);
  };
  return (
    <M.Root open onOpenChange={(next) => !next && onClose()}>
      {/* The menu is anchored to an element of the reply's HTML, which React does not own: an
          invisible stand-in over it, outside any transformed list, is the menu's trigger. */}
      {createPortal(
        <M.Trigger asChild>
          <span aria-hidden="true" style={{ position: 'fixed', left: rect.left, top: rect.top, width: rect.width, height: rect.height, pointerEvents: 'none' }} />
        </M.Trigger>,
        document.body,
      )}
      <M.Portal>
        <M.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-labelledby={undefined}
          aria-label={open.kind === 'table' ? w.t('markdown.tableMenu') : w.t('markdown.formulaMenu')}
          // Radix knows a keyboard opened a menu only from its own trigger's keys; this one opens from the
          // reply's. When it first takes the focus, a menu opened by keys hands it to its first item.
          onFocus={(event) => {
            if (!byKeyboard || focused.current || event.target !== event.currentTarget) return;
            focused.current = true;
            event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
          }}
          // Focus goes back where it was: the table's button, or the formula.
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            anchor.focus({ preventScroll: true });
          }}
          // As components/ui/Menu's.
          className="animate-pop z-50 min-w-48 rounded-md border border-line bg-raised p-1 shadow-pop"
        >
          {open.kind === 'table' ? (
            <>
              <MenuItem onSelect={() => copyTable(true)}>{w.t('markdown.copyTableMarkdown')}</MenuItem>
              <MenuItem onSelect={() => copyTable(false)}>{w.t('markdown.copyTableCsv')}</MenuItem>
            </>
          ) : (
            <MenuItem onSelect={() => void copyText(anchor.getAttribute('data-tex') ?? '', w)}>{w.t('markdown.copyLatex')}</MenuItem>
          )}
        </M.Content>
      </M.Portal>
    </M.Root>
  );
}

export interface BlockActions {
  /** Copy, Wrap lines, Show all, the table menu, a formula's menu; true when the click was one of them. */
  onClick(event: MouseEvent<HTMLElement>): boolean;
  /** Enter, Space, Shift+F10 or the menu key on a focused formula opens its menu; true when handled. */
  onKeyDown(event: KeyboardEvent<HTMLElement>): boolean;
  /** The context menu of a focused formula is its own menu; true when handled. */
  onContextMenu(event: MouseEvent<HTMLElement>): boolean;
  /** The open menu, if any: render it anywhere (it portals itself). */
  menu: ReactNode;
}

/** The rendered reply's interactions, for its root element (`.markdown`). */
export function useBlockActions(): BlockActions {
  const w = useWords();
  const [open, setOpen] = useState<OpenMenu | undefined>();

  const openMenu = useCallback((kind: OpenMenu['kind'], anchor: HTMLElement, byKeyboard: boolean) => {
    setOpen({ kind, anchor, rect: anchor.getBoundingClientRect(), byKeyboard });
  }, []);

  const onClick = useCallback(
    (event: MouseEvent<HTMLElement>): boolean => {
      const target = event.target as Element;
      const button = target.closest<HTMLButtonElement>('button[data-copy-code], button[data-wrap], button[data-show-all], button[data-table-menu]');
      if (button !== null && event.currentTarget.contains(button)) {
        const block = button.closest<HTMLElement>('.code-block');
        if (button.hasAttribute('data-copy-code')) {
          const before = button.textContent;
          void copyText(block?.querySelector('code')?.textContent ?? '', w).then((copied) => {
            if (!copied) return;
            button.textContent = w.t('common.copied');
            setTimeout(() => {
              button.textContent = before;
            }, 1500);
          });
        } else if (button.hasAttribute('data-wrap')) {
          const wrapped = button.getAttribute('aria-pressed') !== 'true';
          button.setAttribute('aria-pressed', String(wrapped));
          block?.toggleAttribute('data-wrapped', wrapped);
        } else if (button.hasAttribute('data-show-all')) {
          if (block?.hasAttribute('data-folded')) {
            block.removeAttribute('data-folded');
            button.dataset.foldedLabel = button.textContent ?? '';
            button.textContent = w.t('markdown.showFewerLines');
          } else if (block) {
            block.setAttribute('data-folded', '');
            button.textContent = button.dataset.foldedLabel ?? '';
            // The block shrank under the reader: its end (and this button) comes back into view.
            button.scrollIntoView({ block: 'nearest' });
          }
        } else {
          // A click with no pointer behind it (detail 0) is Enter or Space on the button.
          openMenu('table', button, event.detail === 0);
        }
        return true;
      }
      const formula = target.closest<HTMLElement>('[data-tex]');
      // A click that ends a selection of the formula's text is not a request for its menu.
      if (formula !== null && event.currentTarget.contains(formula) && (window.getSelection()?.isCollapsed ?? true)) {
        openMenu('formula', formula, false);
        return true;
      }
      return false;
    },
    [w, openMenu],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>): boolean => {
      const formula = event.target as HTMLElement;
      if (!formula.hasAttribute('data-tex')) return false;
      if (event.key === 'Enter' || event.key === ' ' || event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
        event.preventDefault();
        openMenu('formula', formula, true);
        return true;
      }
      return false;
    },
    [openMenu],
  );

  const onContextMenu = useCallback(
    (event: MouseEvent<HTMLElement>): boolean => {
      const formula = (event.target as Element).closest<HTMLElement>('[data-tex]');
      if (formula === null || formula !== document.activeElement) return false;
      event.preventDefault();
      openMenu('formula', formula, event.detail === 0);
      return true;
    },
    [openMenu],
  );

  const close = useCallback(() => setOpen(undefined), []);
  const menu = open === undefined ? null : <BlockMenu open={open} onClose={close} w={w} />;
  return { onClick, onKeyDown, onContextMenu, menu };
}
