import { Command } from 'cmdk';
import { Dialog as D } from 'radix-ui';
import { Cpu, Download, Images, Keyboard, MessageSquare, MessageSquarePlus, Settings, Upload } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useWords } from '@/components/i18n/words';
import { useConversationList } from '@/components/stores/conversations';
import { useConversationSearch } from '@/components/stores/useConversationSearch';

export interface PaletteCommand {
  id: 'new' | 'images' | 'export' | 'import' | 'shortcuts' | 'options';
  run(): void;
}

export interface CommandPaletteProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  onOpenConversation(id: string, messageId?: string): void;
  commands: readonly PaletteCommand[];
  models: readonly string[];
  onModel(model: string): void;
}

const ICONS: Record<PaletteCommand['id'], ReactNode> = {
  new: <MessageSquarePlus aria-hidden />,
  images: <Images aria-hidden />,
  export: <Download aria-hidden />,
  import: <Upload aria-hidden />,
  shortcuts: <Keyboard aria-hidden />,
  options: <Settings aria-hidden />,
};

const itemClass = 'flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-1.5 text-sm data-[selected=true]:bg-accent-soft data-[selected=true]:text-accent-soft-fg [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted';
const groupClass = '[&_[cmdk-group-heading]]:px-2.5 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-2xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:uppercase [&_[cmdk-group-heading]]:text-muted';

/**
 * Ctrl/Cmd+K: one field for everything. Conversations (by title, and by what was said in them),
 * models, commands and settings; Enter runs the highlighted one.
 */
export function CommandPalette({ open, onOpenChange, onOpenConversation, commands, models, onModel }: CommandPaletteProps) {
  const w = useWords();
  const [query, setQuery] = useState('');
  const conversations = useConversationList((s) => s.conversations);
  const found = useConversationSearch(query);
  const q = query.trim().toLowerCase();
  const shown = useMemo(() => (q === '' ? (conversations ?? []).slice(0, 8) : (found ?? []).slice(0, 12).map((r) => r.conversation)), [q, conversations, found]);
  const messageOf = (id: string): string | undefined => found?.find((r) => r.conversation.id === id)?.messageId;
  const matchingModels = q === '' ? [] : models.filter((m) => m.toLowerCase().includes(q)).slice(0, 6);
  const matchingCommands = commands.filter((c) => q === '' || w.t(`palette.command.${c.id}`).toLowerCase().includes(q));
  const close = (then: () => void): void => {
    onOpenChange(false);
    setQuery('');
    then();
  };
  return (
    <D.Root open={open} onOpenChange={(o) => { onOpenChange(o); if (!o) setQuery(''); }}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <D.Content aria-describedby={undefined} className="animate-pop fixed top-[12vh] left-1/2 z-50 w-[min(92vw,560px)] -translate-x-1/2 overflow-hidden rounded-lg border border-line bg-raised text-fg shadow-pop">
          <D.Title className="sr-only">{w.t('palette.title')}</D.Title>
          <Command shouldFilter={false} label={w.t('palette.field')} className="flex flex-col">
            <Command.Input value={query} onValueChange={setQuery} aria-label={w.t('palette.field')} placeholder={w.t('palette.placeholder')} className="h-11 border-b border-line bg-transparent px-4 text-sm outline-none placeholder:text-muted" />
            <Command.List className="max-h-[60vh] overflow-y-auto p-1.5">
              <Command.Empty className="px-3 py-6 text-center text-sm text-muted">{w.t('palette.empty')}</Command.Empty>
              {shown.length > 0 && (
                <Command.Group heading={w.t('palette.conversations')} className={groupClass}>
                  {shown.map((c) => (
                    <Command.Item key={c.id} value={`conversation:${c.id}`} className={itemClass} onSelect={() => close(() => onOpenConversation(c.id, messageOf(c.id)))}>
                      <MessageSquare aria-hidden /><span className="min-w-0 flex-1 truncate">{c.title === '' ? w.t('conversations.untitled') : c.title}</span><span className="shrink-0 text-2xs text-muted">{c.model}</span>
                    </Command.Item>
                  ))}
                </Command.Group>
              )}
              {matchingModels.length > 0 && (
                <Command.Group heading={w.t('palette.models')} className={groupClass}>
                  {matchingModels.map((m) => (
                    <Command.Item key={m} value={`model:${m}`} className={itemClass} onSelect={() => close(() => onModel(m))}>
                      <Cpu aria-hidden /><span className="truncate">{w.t('palette.useModel', { model: m })}</span>
                    </Command.Item>
                  ))}
                </Command.Group>
              )}
              {matchingCommands.length > 0 && (
                <Command.Group heading={w.t('palette.commands')} className={groupClass}>
                  {matchingCommands.map((c) => (
                    <Command.Item key={c.id} value={`command:${c.id}`} className={itemClass} onSelect={() => close(c.run)}>
                      {ICONS[c.id]}<span>{w.t(`palette.command.${c.id}`)}</span>
                    </Command.Item>
                  ))}
                </Command.Group>
              )}
            </Command.List>
          </Command>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
