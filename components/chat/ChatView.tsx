import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useFollowLatest } from '@/components/hooks/useFollowLatest';
import { StoreProblemCallout, UnreadableNote } from '@/components/StoreProblemCallout';
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
import { refusalText } from './words';
import { firstChatModel } from '@/lib/catalogue/filter';

interface ChatViewProps {
  surface: Surface;
  /** The active profile: where a new conversation goes. */
  profile: Profile;
  /** Every profile: an existing conversation continues on its own. */
  profiles: readonly Profile[];
  conversationId: string | undefined;
  onConversationChange(id: string | undefined): void;
  /** Surface-specific actions (continue in side panel, open in a tab). */
  actions?: ReactNode;
}

const RETRYABLE = new Set(['stopped', 'interrupted', 'error']);

/** Seconds until `at`, ticking once a second while it is in the future. */
function useCountdown(at: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === undefined || at <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === undefined ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Retry, once per click: ignored while a retry is starting, and waiting out a Retry-After. */
function RetryButton({ retryAt, onRetry }: { retryAt: number | undefined; onRetry(): Promise<void> }) {
  const wait = useCountdown(retryAt);
  const [starting, setStarting] = useState(false);
  const inFlight = useRef(false);
  const click = async (): Promise<void> => {
    if (inFlight.current || wait > 0) return;
    inFlight.current = true;
    setStarting(true);
    try {
      await onRetry();
    } finally {
      inFlight.current = false;
      setStarting(false);
    }
  };
  return (
    <button type="button" className="retry" disabled={starting || wait > 0} aria-busy={starting} onClick={() => void click()}>
      {wait > 0 ? `Retry in ${wait} s` : 'Retry'}
    </button>
  );
}

/** The conversation's own profile was deleted: the user picks where it continues. */
function ProfileGone({ profiles, chosen, onChoose }: { profiles: readonly Profile[]; chosen: string | undefined; onChoose(id: string): void }) {
  const target = profiles.find((p) => p.id === chosen);
  return (
    <div role="alert" aria-label="Gateway profile deleted" className="callout">
      <p className="callout-title">This conversation's gateway profile was deleted</p>
      {target === undefined
        ? <p>Its messages stay here. To continue it, choose a gateway: the whole conversation is sent there with that gateway's key.</p>
        : <p>Your next message goes to {target.name} ({new URL(target.baseUrl).origin}), with the whole conversation.</p>}
      <p className="callout-links">
        {profiles.map((p) => (
          <button key={p.id} type="button" aria-pressed={p.id === chosen} onClick={() => onChoose(p.id)}>Continue with {p.name}</button>
        ))}
      </p>
    </div>
  );
}

/** One conversation: messages streamed by the background, a model picker and a composer. */
export function ChatView({ surface, profile: active, profiles, conversationId, onConversationChange, actions }: ChatViewProps) {
  const store = conversationStore();
  const view = useConversation(store, conversationId);
  // A conversation continues on its own profile (its history and key stay with its gateway).
  const ownProfileId = view.conversation?.profileId;
  const own = ownProfileId === undefined ? undefined : profiles.find((p) => p.id === ownProfileId);
  const [switchTo, setSwitchTo] = useState<{ conversationId: string; profileId: string }>();
  const chosenSwitch = switchTo !== undefined && switchTo.conversationId === conversationId ? switchTo.profileId : undefined;
  const profileGone = view.conversation !== undefined && own === undefined;
  const profile = own ?? profiles.find((p) => p.id === chosenSwitch) ?? active;
  const catalogue = useCatalogue(profile);
  const [chosenModel, setChosenModel] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [freshChats, setFreshChats] = useState(0);
  const picker = useRef<HTMLSelectElement>(null);
  // A profile without a default model still has one: the gateway's first chat model.
  const model = chosenModel ?? view.conversation?.model ?? profile.defaultModel ?? firstChatModel(catalogue.models);
  const last = view.messages.at(-1);

  const { logRef, contentRef, following, onScroll, onWheel, jumpToLatest } = useFollowLatest(conversationId);

  const send = async (text: string, images: string[]): Promise<boolean> => {
    setNotice(undefined);
    jumpToLatest();
    const input = {
      surface, conversationId, model, text,
      ...(conversationId === undefined ? { profileId: active.id } : {}),
      ...(chosenSwitch === undefined ? {} : { switchProfileId: chosenSwitch }),
      ...(images.length > 0 ? { images } : {}),
    };
    const result = await askBackground({ type: 'run.start', input });
    if (!result.ok) {
      setNotice(refusalText(result));
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
    const result = await askBackground({
      type: 'run.retry', messageId,
      ...(model === undefined ? {} : { model }),
      ...(chosenSwitch === undefined ? {} : { switchProfileId: chosenSwitch }),
    });
    if (!result.ok) setNotice(refusalText(result));
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
      {view.storeError !== undefined && <StoreProblemCallout {...view.storeError} />}
      {profileGone && conversationId !== undefined && (
        <ProfileGone profiles={profiles} chosen={chosenSwitch} onChoose={(id) => setSwitchTo({ conversationId, profileId: id })} />
      )}
      {/* Focusable, so the history scrolls by keyboard too. */}
      <div className="messages" role="log" aria-label="Chat history" tabIndex={0} ref={logRef} onScroll={onScroll} onWheel={onWheel}>
        <div className="messages-inner" ref={contentRef}>
        <UnreadableNote count={view.unreadable} what="messages" />
        {view.messages.length === 0 && <p className="empty">Ask {model ?? 'a model'} anything.</p>}
        {view.messages.map((m) => <MessageView key={m.id} message={m} modelListed={m.error?.kind === 'model_not_found' && m.model !== undefined && catalogue.models.some((c) => c.id === m.model)} quotedFrom={view.conversation?.source?.title} />)}
        {last !== undefined && last.role === 'assistant' && RETRYABLE.has(last.status) && (
          <div className="after-reply">
            {modelMissing && <button type="button" onClick={() => picker.current?.focus()}>Choose another model</button>}
            <RetryButton key={last.id} retryAt={last.error?.retryAt} onRetry={() => retry(last.id)} />
          </div>
        )}
        </div>
      </div>
      {!following && view.messages.length > 0 && (
        <button type="button" className="jump-latest" onClick={jumpToLatest}>Jump to latest</button>
      )}
      {view.saveError !== undefined && <p role="alert" className="notice">{view.saveError}</p>}
      {notice !== undefined && <p role="alert" className="notice">{notice}</p>}
      {/* A new conversation gets a fresh, focused composer. */}
      <Composer key={`${conversationId ?? 'new'}:${freshChats}`} streaming={view.streaming !== undefined} disabled={profileGone && chosenSwitch === undefined} images={images} onSend={send} onStop={stop} />
      {actions !== undefined && <footer className="chat-actions">{actions}</footer>}
    </section>
  );
}
