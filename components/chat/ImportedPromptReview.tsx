import { useState } from 'react';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { conversationStore } from '@/components/data';
import { useWords } from '@/components/i18n/words';
import type { Conversation, ConversationSettings } from '@/lib/conversations/records';

import { awaitsPromptReview } from './prompt-review';

export { awaitsPromptReview };

/** The settings once the user chose: the prompt kept, or gone (the conversation then follows the global one). */
function chosen(settings: ConversationSettings, keep: boolean): ConversationSettings | undefined {
  const { systemPromptReview: _review, systemPrompt, ...rest } = settings;
  const next = keep && systemPrompt !== undefined ? { ...rest, systemPrompt } : rest;
  return Object.keys(next).length === 0 ? undefined : next;
}

/**
 * A system prompt that came with an imported conversation steers every reply without ever
 * being shown: it is shown here, above the composer, and nothing is sent in the conversation
 * (the composer is off, the background refuses) until the user keeps it or removes it.
 */
export function ImportedPromptReview({ conversation }: { conversation: Conversation }) {
  const w = useWords();
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState<string>();
  const settings = conversation.settings;
  if (settings === undefined || !awaitsPromptReview(conversation)) return null;
  const choose = async (keep: boolean): Promise<void> => {
    setSaving(true);
    setFailed(undefined);
    try {
      await conversationStore().setConversationSettings(conversation.id, chosen(settings, keep));
    } catch (error) {
      setFailed(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Callout role="alert" tone="warning" className="imported-prompt" label={w.t('chat.importedPrompt.label')} title={w.t('chat.importedPrompt.title')}>
      <p>{w.t('chat.importedPrompt.intro')}</p>
      <figure aria-label={w.t('chat.importedPrompt.prompt')}>
        {/* Focusable: a long prompt scrolls by keyboard too. */}
        <pre tabIndex={0} className="max-h-40 overflow-y-auto rounded-sm border border-line bg-bg px-2.5 py-2 font-sans text-xs whitespace-pre-wrap text-fg">{settings.systemPrompt}</pre>
      </figure>
      <p className="flex flex-wrap gap-2">
        <Button size="sm" variant="primary" disabled={saving} onClick={() => void choose(true)}>{w.t('chat.importedPrompt.keep')}</Button>
        <Button size="sm" disabled={saving} onClick={() => void choose(false)}>{w.t('chat.importedPrompt.remove')}</Button>
      </p>
      {failed !== undefined && <p className="text-danger">{w.t('chat.importedPrompt.failed', { detail: failed })}</p>}
    </Callout>
  );
}
