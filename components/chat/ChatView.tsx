import { useEffect, useRef, useState, type ReactNode } from 'react';
import { conversationStore } from '@/components/data';
import { useCatalogue } from '@/components/hooks/useCatalogue';
import { useConversation } from '@/components/hooks/useConversation';
import type { Surface } from '@/lib/conversations/records';
import { askBackground } from '@/lib/protocol/background.adapter';
import type { Profile } from '@/lib/settings/schema';
import { captureVisibleTab } from '@/lib/surfaces/capture.adapter';
import { updateProfile } from '@/lib/settings/storage.adapter';
import { Composer, type ImageSupport } from './Composer';
import { ErrorCallout } from './ErrorCallout';
import { MessageView } from './MessageView';
import { ModelPicker } from './ModelPicker';

interface ChatViewProps {
  surface: Surface;
  profile: Profile;
  conversationId: string | undefined;
  onConversationChange(id: string | undefined): void;
  /** Surface-specific actions (continue in side panel, open in a tab). */
  actions?: ReactNode;
}

const RETRYABLE = new Set(['stopped', 'interrupted', 'error']);

/** One conversation: messages streamed by the background, a model picker and a composer. */
export function ChatView({ surface, profile, conversationId, onConversationChange, actions }: ChatViewProps) {
  const store = conversationStore();
  const view = useConversation(store, conversationId);
  const catalogue = useCatalogue(profile);
  const [chosenModel, setChosenModel] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [freshChats, setFreshChats] = useState(0);
  const log = useRef<HTMLDivElement>(null);
  const picker = useRef<HTMLSelectElement>(null);
  const model = chosenModel ?? view.conversation?.model ?? profile.defaultModel;
  const last = view.messages.at(-1);

  // Keep the newest words in view while the reader is at the bottom.
  const lastText = last?.text;
  useEffect(() => {
    const el = log.current;
    if (el !== null && el.scrollHeight - el.scrollTop - el.clientHeight < 120) el.scrollTop = el.scrollHeight;
  }, [lastText, view.messages.length]);

  const send = async (text: string, images: string[]): Promise<boolean> => {
    setNotice(undefined);
    const input = { surface, conversationId, profileId: profile.id, model, text, ...(images.length > 0 ? { images } : {}) };
    const result = await askBackground({ type: 'run.start', input });
    if (!result.ok) {
      setNotice(result.message);
      return false;
    }
    if (result.conversationId !== conversationId) onConversationChange(result.conversationId);
    return true;
  };

  const stop = (): void => {
    if (view.streaming !== undefined) void askBackground({ type: 'run.stop', messageId: view.streaming.id });
  };

  const retry = async (messageId: string): Promise<void> => {
    setNotice(undefined);
    const result = await askBackground({ type: 'run.retry', messageId, ...(model === undefined ? {} : { model }) });
    if (!result.ok) setNotice(result.message);
  };

  // Seed part 4, rule 2: images only for a model whose capability includes them.
  const info = catalogue.models.find((m) => m.id === model);
  const images: ImageSupport | undefined = model === undefined ? undefined : {
    model,
    accepts: profile.confirmedImageModels.includes(model) ? true : info?.capabilities.imageInput ?? 'unknown',
    onConfirm: () => {
      void updateProfile(profile.id, (p) => ({ ...p, confirmedImageModels: [...new Set([...p.confirmedImageModels, model])] }));
    },
    ...(surface === 'sidepanel' ? { onCapture: captureVisibleTab } : {}),
  };
  const modelMissing = last?.error?.kind === 'model_not_found';

  return (
    <section className="chat" aria-label="Conversation">
      <header className="chat-head">
        <ModelPicker catalogue={catalogue} value={model} onChange={setChosenModel} selectRef={picker} />
        <button type="button" onClick={() => { setChosenModel(undefined); setFreshChats((n) => n + 1); onConversationChange(undefined); }}>New chat</button>
      </header>
      {view.conversation?.source !== undefined && (
        <p className="hint source">
          From the page{' '}
          {/^https?:\/\//i.test(view.conversation.source.url)
            ? <a href={view.conversation.source.url} target="_blank" rel="noopener noreferrer">{view.conversation.source.title || view.conversation.source.url}</a>
            : <span>{view.conversation.source.title || view.conversation.source.url}</span>}
        </p>
      )}
      {catalogue.error !== undefined && <ErrorCallout error={catalogue.error} />}
      <div className="messages" role="log" aria-label="Chat history" ref={log}>
        {view.messages.length === 0 && <p className="empty">Ask {model ?? 'a model'} anything.</p>}
        {view.messages.map((m) => <MessageView key={m.id} message={m} />)}
        {last !== undefined && last.role === 'assistant' && RETRYABLE.has(last.status) && (
          <div className="after-reply">
            {modelMissing && <button type="button" onClick={() => picker.current?.focus()}>Choose another model</button>}
            <button type="button" className="retry" onClick={() => void retry(last.id)}>Retry</button>
          </div>
        )}
      </div>
      {view.saveError !== undefined && <p role="alert" className="notice">{view.saveError}</p>}
      {notice !== undefined && <p role="alert" className="notice">{notice}</p>}
      {/* A new conversation gets a fresh, focused composer. */}
      <Composer key={`${conversationId ?? 'new'}:${freshChats}`} streaming={view.streaming !== undefined} images={images} onSend={send} onStop={stop} />
      {actions !== undefined && <footer className="chat-actions">{actions}</footer>}
    </section>
  );
}
