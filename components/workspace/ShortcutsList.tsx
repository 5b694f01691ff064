import { useWords } from '@/components/i18n/words';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl';

/** The "?" dialog: every shortcut of the chat page. */
export function ShortcutsList() {
  const w = useWords();
  const rows: [string, string][] = [
    [`${MOD}+K`, w.t('shortcuts.palette')],
    [`${MOD}+Shift+O`, w.t('shortcuts.new')],
    ['Enter', w.t('shortcuts.send')],
    ['Shift+Enter', w.t('shortcuts.newline')],
    ['Esc', w.t('shortcuts.stop')],
    ['↑', w.t('shortcuts.editLast')],
    ['/', w.t('shortcuts.prompts')],
    ['Alt+Shift+M', w.t('shortcuts.compare')],
    ['Alt+Shift+A', w.t('shortcuts.askPage')],
    ['?', w.t('shortcuts.help')],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(([keys, what]) => (
        <div key={keys} className="contents">
          <dt><kbd className="rounded border border-line bg-surface px-1.5 py-0.5 font-mono text-xs">{keys}</kbd></dt>
          <dd className="text-muted">{what}</dd>
        </div>
      ))}
    </dl>
  );
}
