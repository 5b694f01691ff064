/**
 * The composer's "Tools" menu (issue 33): which tools the model may call in this conversation.
 * "Read this page" (beside a page: the popup and the side panel), "Fetch a web page", "Web
 * search" (once a provider is chosen in the options page) and each of the user's MCP servers.
 * Every call still waits for the user's approval on its card unless they always allow it.
 */
import { Settings2, Wrench } from 'lucide-react';
import { browser } from 'wxt/browser';
import { useWords } from '@/components/i18n/words';
import { useToolConfig } from '@/components/stores/tools';
import { buttonClass } from '@/components/ui/Button';
import { cx } from '@/components/ui/cx';
import { Menu, MenuCheckboxItem, MenuItem, MenuLabel, MenuSeparator } from '@/components/ui/Menu';
import { toolSwitch } from '@/lib/tools/types';

export interface ToolsChoice {
  /** Switched off in this conversation (`toolSwitch` keys). */
  off: readonly string[];
  onToggle(key: string, on: boolean): void;
  /** "Read this page" is offered (a page is beside this surface). */
  readPage: boolean;
}

export function ToolsMenu({ choice, disabled }: { choice: ToolsChoice; disabled?: boolean }) {
  const w = useWords();
  const config = useToolConfig();
  const off = new Set(choice.off);
  const searchReady = config !== undefined && config.search.provider !== 'none';
  const items: { key: string; label: string; enabled: boolean }[] = [
    ...(choice.readPage ? [{ key: 'read_page', label: w.t('tools.names.read_page'), enabled: true }] : []),
    { key: 'fetch_page', label: w.t('tools.names.fetch_page'), enabled: true },
    { key: 'web_search', label: searchReady ? w.t('tools.names.web_search') : w.t('tools.menu.searchOff'), enabled: searchReady },
    ...(config?.mcpServers ?? []).map((s) => ({ key: toolSwitch(s.id, ''), label: w.t('tools.menu.server', { name: s.name }), enabled: true })),
  ];
  const on = items.filter((i) => i.enabled && !off.has(i.key)).length;
  return (
    <Menu
      align="start"
      label={w.t('tools.menu.label')}
      trigger={
        <button type="button" aria-label={w.t('tools.menu.button')} title={w.t('tools.menu.buttonOn', { count: on })} disabled={disabled} className={cx(buttonClass('ghost', 'sm', 'tools-menu relative !w-7 !px-0'), on > 0 && 'text-accent')}>
          <Wrench aria-hidden />
          {/* How many are on, as a dot's colour: the name stays "Tools" (its count is in the tip). */}
          {on > 0 && <span aria-hidden className="absolute top-1 right-1 size-1.5 rounded-full bg-accent" />}
        </button>
      }
    >
      <MenuLabel>{w.t('tools.menu.label')}</MenuLabel>
      {items.map((item) => (
        <MenuCheckboxItem key={item.key} checked={item.enabled && !off.has(item.key)} disabled={!item.enabled} onCheckedChange={(checked) => choice.onToggle(item.key, checked === true)}>
          <span className="truncate">{item.label}</span>
        </MenuCheckboxItem>
      ))}
      <MenuSeparator />
      <MenuItem onSelect={() => void browser.tabs.create({ url: `${browser.runtime.getURL('/options.html')}#tools` })}><Settings2 aria-hidden />{w.t('tools.menu.setUp')}</MenuItem>
    </Menu>
  );
}

export default ToolsMenu;
