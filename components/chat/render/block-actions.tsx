/**
 * What the buttons and formulas of a rendered reply do. The reply's HTML comes from the render
 * worker as a string (lib/render/code-block.ts, tables.ts, math.ts) and is never rendered again,
 * so its behaviour is delegated: one set of handlers on the reply's root reads the element that
 * was clicked, and its state (wrapped, unfolded) lives in that element's attributes.
 */
import { Suspense, useCallback, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { lazyWithWords, useWords } from '@/components/i18n/words';
import type { OpenMenu } from './BlockMenu';
import { copyText } from './copy';

/** The menu and what it copies load when a menu is first opened: Radix's menu stays out of the page's first chunk. */
const BlockMenu = lazyWithWords(() => import('./BlockMenu'));

/** Formulas (`[data-tex]`, lib/render/math.ts) take the keyboard's focus, to open their menu with Enter. */
export function makeFormulasFocusable(root: HTMLElement): void {
  for (const formula of root.querySelectorAll<HTMLElement>('[data-tex]:not([tabindex])')) formula.tabIndex = 0;
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
  const menu = open === undefined ? null : <Suspense fallback={null}><BlockMenu open={open} onClose={close} w={w} /></Suspense>;
  return { onClick, onKeyDown, onContextMenu, menu };
}
