/**
 * The menu of a table (copy as Markdown or CSV) or a formula (copy its LaTeX) in a rendered reply,
 * opened by block-actions.tsx. Loaded when a menu is first opened.
 */
import { DropdownMenu as M } from 'radix-ui';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { MenuItem } from '@/components/ui/Menu';
import type { Words } from '@/lib/i18n/messages';
import { tableAsCsv, tableAsMarkdown, type ColumnAlign } from '@/lib/render/tables';
import { copyText } from './copy';

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

export interface OpenMenu {
  kind: 'table' | 'formula';
  anchor: HTMLElement;
  rect: DOMRect;
  /** Opened from the keyboard: its first item takes the focus. */
  byKeyboard: boolean;
}

export default function BlockMenu({ open, onClose, w }: { open: OpenMenu; onClose(): void; w: Words }) {
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

