import { ArrowDown, Columns2, MessageSquareText, SlidersHorizontal, SquarePen } from 'lucide-react';
import { memo, startTransition, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { EmptyState } from '@/components/ui/EmptyState';
import { IconButton } from '@/components/ui/IconButton';
import { useFollowLatest } from '@/components/hooks/useFollowLatest';
import { ReadAloudContext, useReadAloudStarter } from './ReadAloud';
import { conversationStore } from '@/components/data';
import { useCatalogue, type Catalogue } from '@/components/stores/catalogue';
import { useConversation } from '@/components/hooks/useConversation';
import { awaitsPromptReview } from './prompt-review';
import type { Message, Surface } from '@/lib/conversations/records';
import { newId } from '@/lib/conversations/ids';
import { askBackground } from '@/lib/protocol/background.adapter';
import type { Profile, Settings } from '@/lib/settings/schema';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { useSettingsStore } from '@/components/stores/settings';
import { captureVisibleTab } from '@/lib/surfaces/capture.adapter';
import { activeTabId, watchActiveTabId } from '@/lib/page/page.adapter';
import type { ToolsChoice } from '@/components/tools/ToolsMenu';
import { toast } from '@/components/ui/Toast';
import { storeProblem } from '@/lib/conversations/problems';
import { updateProfile } from '@/lib/settings/storage.adapter';
import { withRecentModel } from '@/lib/settings/schema';
import { Composer, type ImageGeneration, type ImageSend, type ImageSupport } from './Composer';
import type { AttachedFile } from '@/lib/files/types';
import { browserRecognition, type DictationTarget } from '@/components/voice/target';
import { transcriptionChoice } from '@/lib/voice/choice';
import { DEFAULT_VOICE } from '@/lib/settings/schema';
import { ErrorCallout } from './ErrorCallout';
import { findMessage, MessageList } from './MessageList';
import { MessageView, renderRepliesAhead, type CompareActions, type MessageActions } from './MessageView';
import { RetryButton } from './RetryButton';
import { COMPARE_MODELS } from '@/lib/runs/limits';
import type { Comparison } from '@/lib/conversations/records';
import { buildTree, currentBranch, versionInfo } from '@/lib/conversations/branches';
import type { RemovedPair } from '@/lib/conversations/store';
import { ModelPicker } from './ModelPicker';
import { lazyWithWords, useWords } from '@/components/i18n/words';
import { refusalText, saveFailureText } from '@/components/i18n/problems';
import { firstChatModel } from '@/lib/catalogue/filter';
import { BalanceChip } from './BalanceChip';
import { BalanceContext, scheduleBalanceRefresh, useBalance } from '@/components/stores/balance';
import { PricesContext, usePricing } from '@/components/stores/pricing';
import { formatAmount } from '@/components/i18n/money';
import { estimateTokens } from '@/lib/actions/tokens';
import { overBudgetAll, priceOf } from '@/lib/gateway/billing';
import { cx } from '@/components/ui/cx';
import { promptChoices, type PromptChoice } from '@/lib/actions/prompts';
import { actionLanguage, renderTemplate } from '@/lib/actions/template';
import { actionWords } from '@/lib/actions/schema';

// Shown only when the conversation database failed, or some of its rows could not be read (found out
// after the page has started): off the popup's first chunk, with their words.
const StoreProblemCallout = lazyWithWords(() => import('@/components/StoreProblemCallout').then((m) => ({ default: m.StoreProblemCallout })));
const UnreadableNote = lazyWithWords(() => import('@/components/StoreProblemCallout').then((m) => ({ default: m.UnreadableNote })));
// Shown only when comparing, or for a conversation whose imported prompt waits: off the popup's first chunk.
const ComparePicker = lazyWithWords(() => import('./ComparePicker').then((m) => ({ default: m.ComparePicker })));
const ImportedPromptReview = lazyWithWords(() => import('./ImportedPromptReview').then((m) => ({ default: m.ImportedPromptReview })));

interface ChatViewProps {
  surface: Surface;
  /** The active profile: where a new conversation goes. */
  profile: Profile;
  /** Every profile: an existing conversation continues on its own. */
  profiles: readonly Profile[];
  conversationId: string | undefined;
  onConversationChange(id: string | undefined): void;
  /** Surface-specific header buttons (continue in side panel, open in a tab, the menu). */
  actions?: ReactNode;
  /** Prompts offered on an empty conversation (the first run's suggestion). */
  suggestions?: readonly string[];
  /** Show this message (a search result's): its branch is chosen and it is scrolled to. */
  focus?: { messageId: string; nonce: number };
  /** A model chosen elsewhere (the command palette) for the picker. */
  pickedModel?: { model: string; nonce: number };
  /** Offer "Compare models" (the chat page and the side panel: the popup is too small). */
  canCompare?: boolean;
  /** Offer "Ask about this page" (the popup and the side panel, beside a page). */
  canAskPage?: boolean;
}

const RETRYABLE = new Set(['stopped', 'interrupted', 'error']);
/** Compared replies side by side where there is room (the chat page), stacked where there is not (the side panel). */
const COMPARE_COLUMNS: Record<number, string> = {
  1: 'grid-cols-1',
  2: 'grid-cols-1 @xl:grid-cols-2',
  3: 'grid-cols-1 @xl:grid-cols-2 @3xl:grid-cols-3',
  4: 'grid-cols-1 @xl:grid-cols-2 @5xl:grid-cols-4',
};
// Opened now and then: its code (a dialog, its fields) is fetched on first use, not with the popup.
const ConversationSettingsDialog = lazyWithWords(() => import('./ConversationSettings').then((m) => ({ default: m.ConversationSettingsDialog })));
const NO_PRESETS: Settings['presets'] = [];
const NO_ACTIONS: Settings['actions'] = [];

/** The conversation's own profile was deleted: the user picks where it continues. */
function ProfileGone({ profiles, chosen, onChoose }: { profiles: readonly Profile[]; chosen: string | undefined; onChoose(id: string): void }) {
  const w = useWords();
  const target = profiles.find((p) => p.id === chosen);
  return (
    <Callout role="alert" tone="warning" label={w.t('chat.profileGone.label')} title={w.t('chat.profileGone.title')}>
      {target === undefined
        ? <p>{w.t('chat.profileGone.choose')}</p>
        : <p>{w.t('chat.profileGone.target', { name: target.name, origin: new URL(target.baseUrl).origin })}</p>}
      <p className="flex flex-wrap gap-1.5">
        {profiles.map((p) => (
          <Button key={p.id} size="sm" aria-pressed={p.id === chosen} className="aria-pressed:border-accent aria-pressed:bg-accent-soft" onClick={() => onChoose(p.id)}>{w.t('chat.profileGone.continueWith', { name: p.name })}</Button>
        ))}
      </p>
    </Callout>
  );
}

interface ChatHeaderProps {
  catalogue: Catalogue;
  profile: Profile;
  model: string | undefined;
  onModel(model: string): void;
  picker: RefObject<HTMLInputElement | null>;
  onNewChat(): void;
  /** Opens the conversation's own settings (absent before it exists). */
  onSettings: (() => void) | undefined;
  actions: ReactNode;
  /** Turns compare mode on and off (absent where it is not offered). */
  onCompare: (() => void) | undefined;
  comparing: boolean;
}

const ChatHeader = memo(function ChatHeader({ catalogue, profile, model, onModel, picker, onNewChat, onSettings, actions, onCompare, comparing }: ChatHeaderProps) {
  const w = useWords();
  return (
    <header className="chat-head relative z-1 flex shrink-0 items-center gap-1 border-b border-line bg-bg px-2 py-1.5">
      <ModelPicker catalogue={catalogue} profile={profile} value={model} onChange={onModel} inputRef={picker} />
      <span className="ml-auto flex shrink-0 items-center gap-1">
        <BalanceChip profile={profile} />
        {onCompare !== undefined && (
          <IconButton size="sm" label={w.t('compare.button')} tip={w.t('compare.buttonTip')} aria-pressed={comparing} className="aria-pressed:bg-accent-soft aria-pressed:text-accent-soft-fg" icon={<Columns2 aria-hidden />} onClick={onCompare} />
        )}
        {onSettings !== undefined && <IconButton size="sm" label={w.t('chat.settings.button')} icon={<SlidersHorizontal aria-hidden />} onClick={onSettings} />}
        <IconButton size="sm" label={w.t('chat.newChat')} icon={<SquarePen aria-hidden />} onClick={onNewChat} />
        {actions}
      </span>
    </header>
  );
});

/**
 * A conversation just read: the replies at the end of its newest branch (the branch shown, unless
 * the user chose an older version) are sent to render, and the conversation is drawn once their
 * renderings are in (see `useConversation`).
 */
function renderNewestAhead(messages: readonly Message[]): Promise<unknown> | undefined {
  return renderRepliesAhead(currentBranch(buildTree(messages)));
}

/** One conversation: messages streamed by the background, a model picker and a composer. */
export function ChatView({ surface, profile: active, profiles, conversationId, onConversationChange, actions, suggestions = [], focus, pickedModel, canCompare = false, canAskPage = false }: ChatViewProps) {
  const store = conversationStore();
  // A new conversation's id is chosen here, ahead of its first message, and watched from the
  // start: its reply's first words come straight over the runs port, not in a later snapshot.
  const [aheadId, setAheadId] = useState(newId);
  // The conversation this view started: it keeps the composer it was started from.
  const [created, setCreated] = useState<string>();
  const view = useConversation(store, conversationId ?? aheadId, renderNewestAhead);
  // A conversation continues on its own profile (its history and key stay with its gateway).
  const ownProfileId = view.conversation?.profileId;
  const own = ownProfileId === undefined ? undefined : profiles.find((p) => p.id === ownProfileId);
  const [switchTo, setSwitchTo] = useState<{ conversationId: string; profileId: string }>();
  const chosenSwitch = switchTo !== undefined && switchTo.conversationId === conversationId ? switchTo.profileId : undefined;
  const profileGone = view.conversation !== undefined && own === undefined;
  const profile = own ?? profiles.find((p) => p.id === chosenSwitch) ?? active;
  const catalogue = useCatalogue(profile);
  const prices = usePricing(profile);
  const { balance } = useBalance(profile);
  const [chosenModel, setChosenModel] = useState<string | undefined>();
  const [picked, setPicked] = useState<number>();
  if (pickedModel !== undefined && picked !== pickedModel.nonce) {
    setPicked(pickedModel.nonce);
    setChosenModel(pickedModel.model);
  }
  const w = useWords();
  const [notice, setNotice] = useState<Parameters<typeof refusalText>[1] | undefined>();
  const [freshChats, setFreshChats] = useState(0);
  const picker = useRef<HTMLInputElement>(null);
  // A profile without a default model still has one: the gateway's first chat model.
  const model = chosenModel ?? view.conversation?.model ?? profile.defaultModel ?? firstChatModel(catalogue.models);
  // The user's message and the reply's place are shown the moment it is sent, under the ids the
  // run will save them with (so the saved ones take their places without a redraw); a refused
  // send takes them back.
  const [echo, setEcho] = useState<readonly Message[]>();
  // Once storage has the sent messages, the shown copies have done their work (and must not
  // come back should the conversation be deleted while open).
  if (echo !== undefined && echo.every((m) => view.storedIds.has(m.id))) setEcho(undefined);
  const watched = conversationId ?? aheadId;
  const messages = useMemo(() => {
    const mine = echo?.filter((m) => m.conversationId === watched) ?? [];
    if (mine.length === 0) return view.messages;
    // The run's own copy of the user message carries no image bytes: the shown copy keeps them
    // until storage reports the saved one.
    const withImages = view.messages.map((m) => {
      const images = mine.find((e) => e.id === m.id)?.images;
      return images !== undefined && m.images === undefined ? { ...m, images } : m;
    });
    const notYet = mine.filter((m) => !view.messages.some((saved) => saved.id === m.id));
    return [...withImages, ...notYet];
  }, [echo, watched, view.messages]);
  // The conversation is a tree of versions: the branch shown is the one chosen here (‹ ›, a
  // regenerate, a search result) or saved with the conversation.
  const tree = useMemo(() => buildTree(messages), [messages]);
  const [selected, setSelected] = useState<{ conversationId: string; id: string }>();
  const selectedId = selected?.conversationId === watched ? selected.id : view.conversation?.leafId;
  const branch = useMemo(() => currentBranch(tree, selectedId), [tree, selectedId]);
  const last = branch.at(-1);
  const [editing, setEditing] = useState<string>();
  const [removed, setRemoved] = useState<RemovedPair>();
  const [settingsOpen, setSettingsOpen] = useState(false);
  // A new conversation can start from a preset (its prompt, parameters and model become its own).
  const presets = useSettingsStore((s) => (s.parsed?.ok === true ? s.parsed.settings.presets : NO_PRESETS));
  const [presetId, setPresetId] = useState<string>();
  // The prompt library for the composer's `/`: the enabled actions, then the presets.
  const actionsList = useSettingsStore((s) => (s.parsed?.ok === true ? s.parsed.settings.actions : NO_ACTIONS));
  const answerLanguage = useSettingsStore((s) => (s.parsed?.ok === true ? s.parsed.settings.language : undefined));
  const prompts = useMemo(() => promptChoices(actionsList, presets, w, actionLanguage({ language: answerLanguage }, w)), [actionsList, presets, w, answerLanguage]);
  const preset = conversationId === undefined ? presets.find((p) => p.id === presetId) : undefined;
  const choosePreset = (id: string): void => {
    const chosen = presets.find((p) => p.id === id);
    setPresetId(chosen?.id);
    if (chosen?.model !== undefined) setChosenModel(chosen.model);
  };
  const newChat = useCallback((): void => {
    setChosenModel(undefined);
    setPresetId(undefined);
    setFreshChats((n) => n + 1);
    onConversationChange(undefined);
  }, [onConversationChange]);

  // With replies compared side by side, following stops once the question reaches the top: the
  // columns grow at their own pace and are read from their start.
  const followStop = useRef<(() => number | undefined) | null>(null);
  const { logRef, contentRef, following, onWheel, onKeyDown: onLogKeyDown, jumpToLatest, stopFollowing } = useFollowLatest(conversationId, followStop);

  // Compare: the next message goes to several models at once (undefined: compare mode is off).
  const [compareModels, setCompareModels] = useState<string[]>();
  const compareInput = useRef<HTMLInputElement | null>(null);
  const [compareOpened, setCompareOpened] = useState(0);
  // The picker's field takes the focus when it opens; the first time, once its code has arrived.
  const focusCompare = useRef(false);
  useEffect(() => {
    if (compareOpened === 0) return;
    focusCompare.current = compareInput.current === null;
    compareInput.current?.focus();
  }, [compareOpened]);
  const compareInputRef = useCallback((input: HTMLInputElement | null) => {
    compareInput.current = input;
    if (input !== null && focusCompare.current) {
      focusCompare.current = false;
      input.focus();
    }
  }, []);
  // The open comparison: saved with the conversation, or just sent (until storage has it), unless
  // the user has just continued with one of its replies.
  const [sentCompare, setSentCompare] = useState<Comparison & { conversationId: string }>();
  // The "Tools" menu's choices for a conversation not started yet (a started one keeps its own).
  const [newToolsOff, setNewToolsOff] = useState<readonly string[]>([]);
  const [closedCompare, setClosedCompare] = useState<string>();
  const savedCompare = view.conversation?.compare;
  if (sentCompare !== undefined && (sentCompare.conversationId !== watched || savedCompare?.userId === sentCompare.userId)) setSentCompare(undefined);
  const openCompare = savedCompare ?? sentCompare;
  const comparison = openCompare === undefined || openCompare.userId === closedCompare ? undefined : openCompare;
  const compareAt = comparison === undefined ? -1 : branch.findIndex((m) => m.id === comparison.userId);
  const compared = useMemo(
    () => (compareAt < 0 || comparison === undefined ? undefined : comparison.replyIds.map((id) => tree.byId.get(id)).filter((m): m is Message => m !== undefined)),
    [compareAt, comparison, tree],
  );
  const shown = useMemo(() => (compared === undefined ? branch : branch.slice(0, compareAt + 1)), [compared, branch, compareAt]);
  // A saved conversation whose messages are still being read: neither empty nor drawn yet (no
  // "start a conversation" for the moment it opens).
  const opening = conversationId !== undefined && !view.read && branch.length === 0;
  const comparedQuestion = compared === undefined ? undefined : comparison?.userId;
  useLayoutEffect(() => {
    followStop.current = comparedQuestion === undefined ? null : () => {
      const log = logRef.current;
      const question = log === null ? null : findMessage(log, comparedQuestion);
      if (log === null || question === null || question === undefined) return undefined;
      return question.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop - 8;
    };
  }, [comparedQuestion, logRef]);

  // A reply that finished has cost something: the balance is read again (once for replies finishing together).
  const streamingId = view.streaming?.id;
  const lastStreaming = useRef(streamingId);
  useEffect(() => {
    if (lastStreaming.current !== undefined && streamingId === undefined) scheduleBalanceRefresh(profile);
    lastStreaming.current = streamingId;
  }, [streamingId, profile]);

  // Before spending: a request that may cost more than the balance left is held until the user says so.
  const [overBudgetSend, setOverBudgetSend] = useState<{ text: string; images: string[]; model?: string | undefined; image?: ImageSend | undefined; files?: AttachedFile[] | undefined; cost: number; left: number; currency: string }>();
  const chatSettings = useSettingsStore((s) => (s.parsed?.ok === true ? s.parsed.settings.chat : undefined));
  const mayCostTooMuch = (text: string, images: string[], models: readonly string[], image?: ImageSend, files?: readonly AttachedFile[]) => {
    if (models.length === 0) return undefined;
    if (image !== undefined) {
      // An image request costs its price per call, once per image asked for.
      const price = priceOf(prices, models[0]);
      const n = image.options.n ?? 1;
      return overBudgetAll(balance, [price?.perRequest === undefined ? price : { ...price, perRequest: price.perRequest * n }], 0, 0);
    }
    const own = view.conversation?.settings;
    const system = own?.systemPrompt ?? chatSettings?.systemPrompt ?? '';
    const prompt = [system, ...branch.map((m) => m.text), text].reduce((n, t) => n + estimateTokens(t), 0) + images.length * 85
      + [...branch.flatMap((m) => m.files ?? []), ...(files ?? [])].reduce((n, f) => n + f.tokens, 0);
    return overBudgetAll(balance, models.map((m) => priceOf(prices, m)), prompt, own?.maxTokens ?? chatSettings?.maxTokens);
  };

  // The tab beside the popup or the side panel, known before a send (watched as tabs come to the
  // front): a send need not ask the browser and wait, so its request leaves before the echo below
  // is drawn (Enter → request 52 → 36 ms in the popup, medians, measured).
  const frontTab = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!canAskPage) return;
    return watchActiveTabId((id) => {
      frontTab.current = id;
    });
  }, [canAskPage]);

  const send = async (text: string, images: string[], anyway = false, modelOverride?: string, image?: ImageSend, files?: AttachedFile[]): Promise<boolean> => {
    setNotice(undefined);
    const comparing = compareModels !== undefined;
    // An action that names its model asks that one (this message only: the conversation then keeps it).
    const asked = modelOverride ?? model;
    if (comparing && compareModels.length < COMPARE_MODELS.min) {
      setNotice({ problem: 'compare_models', params: { ...COMPARE_MODELS } });
      return false;
    }
    // One reply per model: the compared ones, or the one asked.
    const replyModels = comparing ? compareModels : [asked];
    const tooMuch = anyway ? undefined : mayCostTooMuch(text, images, replyModels.filter((m) => m !== undefined), comparing ? undefined : image, files);
    setOverBudgetSend(tooMuch === undefined ? undefined : { text, images, model: modelOverride, image, files, ...tooMuch });
    if (tooMuch !== undefined) return false;
    jumpToLatest();
    const userMessageId = newId();
    const replyIds = replyModels.map(() => newId());
    const seq = messages.reduce((max, m) => Math.max(max, m.seq), -1) + 1;
    const createdAt = Date.now();
    setEcho([
      {
        id: userMessageId, conversationId: watched, seq, role: 'user', parentId: last?.id ?? null, text: text.trim(), reasoning: '', status: 'complete', createdAt,
        ...(images.length > 0 ? { images } : {}), ...(files === undefined ? {} : { files }), ...(image?.editOf === undefined ? {} : { imageIds: [image.editOf] }),
      },
      ...replyIds.map((id, i): Message => {
        const replyModel = replyModels[i];
        return {
          id, conversationId: watched, seq: seq + 1 + i, role: 'assistant', parentId: userMessageId, text: '', reasoning: '', status: 'streaming', createdAt, ...(replyModel === undefined ? {} : { model: replyModel }),
          // An image request's reply shows the images it waits for.
          ...(image === undefined || comparing ? {} : { imageRequest: { prompt: text.trim(), options: image.options, ...(image.editOf !== undefined || images.length > 0 ? { edit: true } : {}) } }),
        };
      }),
    ]);
    if (comparing) setSentCompare({ conversationId: watched, userId: userMessageId, replyIds });
    const shared = {
      surface, conversationId, text, userMessageId,
      ...(conversationId === undefined ? { profileId: active.id, newConversationId: aheadId, ...(preset === undefined ? {} : { presetId: preset.id }) } : {}),
      ...(chosenSwitch === undefined ? {} : { switchProfileId: chosenSwitch }),
      ...(images.length > 0 ? { images } : {}),
      ...(files === undefined || files.length === 0 ? {} : { files }),
      ...(conversationId === undefined && newToolsOff.length > 0 ? { toolsOff: [...newToolsOff] } : {}),
      // "Read this page" reads the tab beside the popup or side panel.
      ...(canAskPage ? { tabId: frontTab.current ?? await activeTabId() } : {}),
    };
    const result = comparing
      ? await askBackground({ type: 'run.compare', input: { ...shared, models: compareModels, replyMessageIds: replyIds } }).then((r) => (r.ok ? { ...r, messageId: r.messageIds[0] ?? '' } : r))
      : await askBackground({ type: 'run.start', input: { ...shared, model: asked, replyMessageId: replyIds[0], ...(image === undefined ? {} : { image }) } });
    // What follows can wait for the reply's first words (a transition yields to them): the next
    // new conversation's id, this one's id in the surface, the recent models.
    startTransition(() => {
      if (conversationId === undefined) setAheadId(newId());
      if (result.ok && result.conversationId !== conversationId) {
        setCreated(result.conversationId);
        onConversationChange(result.conversationId);
      }
    });
    if (!result.ok) {
      setEcho(undefined);
      setSentCompare(undefined);
      setNotice(result);
      return false;
    }
    if (stopWanted.current === result.messageId) {
      void (comparing ? askBackground({ type: 'conversation.stop', conversationId: result.conversationId }) : askBackground({ type: 'run.stop', messageId: result.messageId }));
    }
    stopWanted.current = undefined;
    if (!comparing && asked !== undefined && profile.recentModels?.[0] !== asked) void updateProfile(profile.id, (p) => withRecentModel(p, asked));
    return true;
  };

  // Stop is offered from the moment of sending; pressed before the background has started the
  // run, it is sent again once the run exists. With several replies streaming (a comparison) it
  // stops them all.
  const streaming = messages.find((m) => m.status === 'streaming');
  const stopWanted = useRef<string | undefined>(undefined);
  const stop = (): void => {
    if (streaming === undefined) return;
    if (view.streaming === undefined) stopWanted.current = streaming.id;
    if (messages.filter((m) => m.status === 'streaming').length > 1) void askBackground({ type: 'conversation.stop', conversationId: watched });
    else void askBackground({ type: 'run.stop', messageId: streaming.id });
  };

  /** "Ask about this page": the page in the active tab, read now, starts a new conversation (what is typed is the question). */
  const askPage = async (question: string): Promise<boolean> => {
    setNotice(undefined);
    const result = await askBackground({
      type: 'page.ask',
      input: { surface, tabId: await activeTabId(), question, conversationId: newId(), profileId: active.id, ...(model === undefined ? {} : { model }) },
    });
    if (!result.ok) {
      setNotice(result);
      return false;
    }
    setCompareModels(undefined);
    setCreated(result.conversationId);
    onConversationChange(result.conversationId);
    jumpToLatest();
    return true;
  };

  /** A prompt from the composer's `/` list: an action on what was typed (or on the page), or a preset for a new conversation. */
  const runPrompt = async (choice: PromptChoice, input: string): Promise<boolean> => {
    setNotice(undefined);
    if (choice.kind === 'preset') {
      if (conversationId !== undefined) newChat();
      choosePreset(choice.id);
      return true;
    }
    const action = actionsList.find((a) => a.id === choice.id && a.enabled);
    if (action === undefined) {
      setNotice({ problem: 'not_found', params: { target: 'action' } });
      return false;
    }
    const typed = input.trim();
    if (typed === '') {
      if (!canAskPage) {
        setNotice({ problem: 'empty', params: { target: 'prompt' } });
        return false;
      }
      const result = await askBackground({ type: 'page.ask', input: { surface, tabId: await activeTabId(), question: '', conversationId: newId(), actionId: action.id } });
      if (!result.ok) {
        setNotice(result);
        return false;
      }
      setCreated(result.conversationId);
      onConversationChange(result.conversationId);
      return true;
    }
    const own = actionWords(action, w);
    const text = renderTemplate(own.template, { selection: typed, language: actionLanguage({ language: answerLanguage }, w), untitled: w.t('actions.typedTitle'), noAddress: w.t('actions.noAddress') });
    return send(text, [], false, action.model);
  };

  const toggleCompare = (): void => {
    setCompareModels(compareModels === undefined ? (model === undefined ? [] : [model]) : undefined);
    if (compareModels === undefined) setCompareOpened((n) => n + 1);
  };

  /** A compared reply becomes the conversation's answer; the others stay as its versions. */
  const continueWith = (id: string): void => {
    if (comparison === undefined) return;
    const reply = tree.byId.get(id);
    setClosedCompare(comparison.userId);
    setCompareModels(undefined);
    setSelected({ conversationId: watched, id });
    if (reply?.model !== undefined) setChosenModel(reply.model);
    void store.continueWith(watched, id);
  };

  /** One column asked again, of its own model, while the others go on. */
  const retryColumn = async (id: string): Promise<void> => {
    setNotice(undefined);
    const result = await askBackground({ type: 'run.retry', messageId: id, replyMessageId: newId() });
    if (!result.ok) setNotice(result);
  };

  /** A new version of a reply, with the model in the picker; shown at once. */
  const retry = async (messageId: string): Promise<void> => {
    setNotice(undefined);
    const before = selected;
    const replyMessageId = newId();
    setSelected({ conversationId: watched, id: replyMessageId });
    jumpToLatest();
    const result = await askBackground({
      type: 'run.retry', messageId, replyMessageId,
      ...(model === undefined ? {} : { model }),
      ...(chosenSwitch === undefined ? {} : { switchProfileId: chosenSwitch }),
    });
    if (!result.ok) {
      setSelected(before);
      setNotice(result);
    }
  };

  /** Edit & resend: a new version of the question, with its own reply. */
  const edit = async (messageId: string, text: string): Promise<boolean> => {
    setNotice(undefined);
    const before = selected;
    const userMessageId = newId();
    const replyMessageId = newId();
    setSelected({ conversationId: watched, id: replyMessageId });
    const result = await askBackground({
      type: 'run.edit', messageId, text, userMessageId, replyMessageId,
      ...(model === undefined ? {} : { model }),
      ...(chosenSwitch === undefined ? {} : { switchProfileId: chosenSwitch }),
    });
    if (!result.ok) {
      setSelected(before);
      setNotice(result);
      return false;
    }
    jumpToLatest();
    return true;
  };

  const showVersion = (id: string): void => {
    setSelected({ conversationId: watched, id });
    if (conversationId !== undefined) void store.selectVersion(conversationId, id);
  };

  const deletePair = (userMessageId: string): void => {
    const at = branch.findIndex((m) => m.id === userMessageId);
    const reply = branch[at + 1]?.role === 'assistant' ? branch[at + 1] : undefined;
    if (reply?.status === 'streaming') return;
    setSelected(undefined);
    void store.deletePair(userMessageId, reply?.id).then(setRemoved, () => undefined);
  };

  // Seed part 4, rule 2: images only for a model whose capability includes them.
  const imageInput = catalogue.models.find((m) => m.id === model)?.capabilities.imageInput;
  const confirmed = model !== undefined && profile.confirmedImageModels.includes(model);
  const profileId = profile.id;
  const images = useMemo((): ImageSupport | undefined => {
    if (model === undefined) return undefined;
    return {
      model,
      accepts: confirmed ? true : imageInput ?? 'unknown',
      onConfirm: () => {
        void updateProfile(profileId, (p) => ({ ...p, confirmedImageModels: [...new Set([...p.confirmedImageModels, model])] }));
      },
      ...(surface === 'sidepanel' ? { onCapture: captureVisibleTab } : {}),
    };
  }, [model, confirmed, imageInput, profileId, surface]);
  // Image generation (issue 30): offered with every model, on by itself for a marked image model.
  const imageGeneration = catalogue.models.find((m) => m.id === model)?.capabilities.imageGeneration === true;
  const modelPrice = priceOf(prices, model);
  const generation = useMemo((): ImageGeneration | undefined => (
    model === undefined || compareModels !== undefined ? undefined : { model, marked: imageGeneration, conversationId: watched, price: modelPrice }
  ), [model, imageGeneration, watched, modelPrice, compareModels]);
  // A model that is gone, or whose filter blocked the reply: another model is the way on.
  const offerAnotherModel = last?.error?.kind === 'model_not_found' || last?.error?.kind === 'content_blocked';

  // The composer and the header keep their props while a reply streams, so a delta re-renders
  // only the conversation: they are handed callbacks that stay the same and call the latest.
  const latest = useRef({ send, stop, retry, edit, showVersion, deletePair, toggleCompare, continueWith, retryColumn, askPage, runPrompt });
  useLayoutEffect(() => {
    latest.current = { send, stop, retry, edit, showVersion, deletePair, toggleCompare, continueWith, retryColumn, askPage, runPrompt };
  });
  const onPrompt = useCallback((choice: PromptChoice, input: string) => latest.current.runPrompt(choice, input), []);
  const onAskPage = useCallback((question: string) => latest.current.askPage(question), []);
  const onCompare = useCallback(() => latest.current.toggleCompare(), []);
  const compareActions = useMemo((): CompareActions => ({
    onContinue: (id) => latest.current.continueWith(id),
    onStop: (id) => void askBackground({ type: 'run.stop', messageId: id }),
    onRetry: (id) => latest.current.retryColumn(id),
  }), []);
  // Alt+Shift+M: compare mode on (its picker focused) or off, from anywhere in the page.
  useEffect(() => {
    if (!canCompare) return;
    const onKey = (event: KeyboardEvent): void => {
      if (!(event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyM')) return;
      event.preventDefault();
      latest.current.toggleCompare();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [canCompare]);
  const onSend = useCallback((text: string, attached: string[], image?: ImageSend, files?: AttachedFile[]) => latest.current.send(text, attached, false, undefined, image, files), []);
  const onStop = useCallback(() => latest.current.stop(), []);
  const messageActions = useMemo((): MessageActions => ({
    onVersion: (id) => latest.current.showVersion(id),
    onRegenerate: (id) => void latest.current.retry(id),
    onEdit: (id, text) => latest.current.edit(id, text),
    onDeletePair: (id) => latest.current.deletePair(id),
  }), []);
  const lastQuestion = branch.findLast((m) => m.role === 'user');
  const lastQuestionId = lastQuestion?.id;
  const onEditLast = useCallback(() => {
    if (lastQuestionId !== undefined) setEditing(lastQuestionId);
  }, [lastQuestionId]);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const onEditingChange = useCallback((id: string, on: boolean) => setEditing(on ? id : undefined), []);

  // Esc stops a streaming reply (unless a dialog or an edit has it).
  const isStreaming = streaming !== undefined;
  useEffect(() => {
    if (!isStreaming) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('[role="dialog"]') !== null) return;
      latest.current.stop();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isStreaming]);

  // A search result: its message's branch is shown and the message scrolled to.
  const [focused, setFocused] = useState<number>();
  const focusId = focus?.messageId;
  const focusInTree = focusId !== undefined && tree.byId.has(focusId);
  if (focus !== undefined && focused !== focus.nonce && focusInTree) {
    setFocused(focus.nonce);
    if (!branch.some((m) => m.id === focus.messageId)) setSelected({ conversationId: watched, id: focus.messageId });
  }
  useEffect(() => {
    if (focused !== undefined) stopFollowing();
    // Once per search result opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focused]);
  const reveal = useMemo(() => (focused === undefined || focusId === undefined ? undefined : { id: focusId, nonce: focused }), [focused, focusId]);
  const readAloud = useReadAloudStarter(profile, catalogue.models);
  const source = view.conversation?.source;
  // Dictate: the Voice section's transcription model (else the catalogue's first, else the browser's recognition).
  const voice = useSettingsStore((s) => (s.parsed?.ok === true ? s.parsed.settings.voice : undefined)) ?? DEFAULT_VOICE;
  const conversationOwn = view.conversation;
  const tools = useMemo((): ToolsChoice => {
    const off = conversationOwn?.settings?.toolsOff ?? newToolsOff;
    return {
      off,
      readPage: canAskPage,
      onToggle: (key, on) => {
        const next = on ? off.filter((k) => k !== key) : [...new Set([...off, key])];
        if (conversationOwn === undefined) {
          setNewToolsOff(next);
          return;
        }
        const own = conversationOwn.settings ?? {};
        store.setConversationSettings(conversationOwn.id, { ...own, toolsOff: next })
          .catch((error: unknown) => toast(w.t('chat.settings.notSaved', { detail: storeProblem(error).detail }), 'error'));
      },
    };
  }, [conversationOwn, newToolsOff, canAskPage, store, w]);
  const dictation = useMemo((): DictationTarget => ({
    profile,
    choice: transcriptionChoice(voice, catalogue.models, browserRecognition()),
    language: voice.language,
    sendAfter: voice.sendAfterDictation,
    promptsElsewhere: surface === 'popup' || surface === 'sidepanel',
  }), [profile, voice, catalogue.models, surface]);

  return (
    <PricesContext.Provider value={prices}>
    <BalanceContext.Provider value={balance}>
    <ReadAloudContext.Provider value={readAloud}>
    <section className="chat flex min-h-0 flex-1 flex-col" aria-label={w.t('chat.conversation')}>
      <ChatHeader catalogue={catalogue} profile={profile} model={model} onModel={setChosenModel} picker={picker} onNewChat={newChat} onSettings={view.conversation === undefined ? undefined : openSettings} actions={actions} onCompare={canCompare ? onCompare : undefined} comparing={compareModels !== undefined} />
      {compareModels !== undefined && (
        <Suspense fallback={null}><ComparePicker catalogue={catalogue} profile={profile} models={compareModels} onChange={setCompareModels} onClose={onCompare} inputRef={compareInputRef} /></Suspense>
      )}
      {view.conversation !== undefined && settingsOpen && (
        <Suspense fallback={null}>
          <ConversationSettingsDialog conversation={view.conversation} profile={profile} branch={branch} model={catalogue.models.find((m) => m.id === model)} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
      <div className="flex shrink-0 flex-col gap-2 px-3 empty:hidden [&>*:first-child]:mt-2">
        {source !== undefined && (
          <p className="source truncate text-xs text-muted">
            {w.t('chat.fromPage')}{' '}
            {/^https?:\/\//i.test(source.url)
              ? <a href={source.url} target="_blank" rel="noopener noreferrer">{source.title || source.url}</a>
              : <span>{source.title || source.url}</span>}
          </p>
        )}
        {catalogue.error !== undefined && <ErrorCallout error={catalogue.error} />}
        {view.storeError !== undefined && <Suspense fallback={null}><StoreProblemCallout {...view.storeError} withoutHistory /></Suspense>}
        {profileGone && conversationId !== undefined && (
          <ProfileGone profiles={profiles} chosen={chosenSwitch} onChoose={(id) => setSwitchTo({ conversationId, profileId: id })} />
        )}
      </div>
      <div className="relative flex min-h-0 flex-1 flex-col">
        {/* Focusable, so the history scrolls by keyboard too. */}
        <div className="messages min-h-0 flex-1 overflow-y-auto focus-visible:outline-offset-[-2px]" role="log" aria-label={w.t('chat.history')} aria-busy={opening || undefined} tabIndex={0} ref={logRef} onWheel={onWheel} onKeyDown={onLogKeyDown}>
          <div className={cx('messages-inner mx-auto flex w-full flex-col gap-4 px-3 py-3', compared === undefined ? 'max-w-3xl' : 'max-w-6xl')} ref={contentRef}>
            {view.unreadable > 0 && <Suspense fallback={null}><UnreadableNote count={view.unreadable} what="messages" /></Suspense>}
            {branch.length === 0 && !opening && (
              <EmptyState icon={<MessageSquareText aria-hidden />} title={model === undefined ? w.t('chat.empty.titleAny') : imageGeneration ? w.t('images.empty.title', { model }) : w.t('chat.empty.title', { model })}>
                <p>{imageGeneration ? w.t('images.empty.hint') : w.t('chat.empty.keys')}</p>
                {canAskPage && <p className="mt-1">{w.t('chat.empty.askPage')}</p>}
                {presets.length > 0 && conversationId === undefined && (
                  <label className="mx-auto mt-3 flex max-w-64 items-center gap-2 text-left text-xs text-muted">
                    <span className="shrink-0">{w.t('presets.choose')}</span>
                    <NativeSelect className="h-8 text-sm" value={preset?.id ?? ''} onChange={(e) => choosePreset(e.target.value)}>
                      <option value="">{w.t('presets.none')}</option>
                      {presets.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
                    </NativeSelect>
                  </label>
                )}
                {suggestions.length > 0 && (
                  <div className="mt-3 flex flex-col gap-1.5">
                    {suggestions.map((prompt) => (
                      <Button key={prompt} size="sm" className="h-auto min-h-7 py-1 whitespace-normal text-left" onClick={() => void send(prompt, [])}>{prompt}</Button>
                    ))}
                  </div>
                )}
              </EmptyState>
            )}
            <MessageList
              messages={shown} scroller={logRef} following={following} reveal={reveal}
              renderMessage={(m) => (
                <MessageView
                  message={m} versions={versionInfo(tree, m.id)} actions={view.conversation === undefined ? undefined : messageActions}
                  editing={editing === m.id} onEditingChange={onEditingChange}
                  modelListed={m.error?.kind === 'model_not_found' && m.model !== undefined && catalogue.models.some((c) => c.id === m.model)} quotedFrom={view.conversation?.source?.title}
                />
              )}
            />
            {compared !== undefined && (
              <div className="@container flex flex-col gap-2">
                <section aria-label={w.t('compare.replies')} className={cx('compare-replies grid items-stretch gap-3', COMPARE_COLUMNS[compared.length] ?? COMPARE_COLUMNS[4])}>
                  {compared.map((m) => (
                    <MessageView key={m.id} message={m} compare={compareActions} modelListed={m.error?.kind === 'model_not_found' && m.model !== undefined && catalogue.models.some((c) => c.id === m.model)} />
                  ))}
                </section>
                {compared.some((m) => m.status !== 'streaming') && <p className="compare-choose text-center text-xs text-muted">{w.t('compare.choose')}</p>}
              </div>
            )}
            {compared === undefined && last !== undefined && last.role === 'assistant' && RETRYABLE.has(last.status) && (
              <div className="after-reply flex gap-2 pl-9">
                {offerAnotherModel && <Button size="sm" onClick={() => picker.current?.focus()}>{w.t('chat.chooseAnotherModel')}</Button>}
                <RetryButton key={last.id} retryAt={last.error?.retryAt} onRetry={() => retry(last.id)} />
              </div>
            )}
          </div>
        </div>
        {!following && messages.length > 0 && (
          <Button size="sm" className="jump-latest absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full shadow-pop" onClick={jumpToLatest}>
            <ArrowDown aria-hidden />{w.t('chat.jumpToLatest')}
          </Button>
        )}
      </div>
      {(view.saveError !== undefined || notice !== undefined || removed !== undefined || overBudgetSend !== undefined) && (
        <div className="shrink-0 px-3 pb-1">
          {overBudgetSend !== undefined && (
            <Callout role="alert" tone="warning" className="over-budget mb-1">
              <p>{w.t('chat.overBudget', { cost: formatAmount(w, overBudgetSend.cost, overBudgetSend.currency), left: formatAmount(w, overBudgetSend.left, overBudgetSend.currency) })}</p>
              <p className="mt-1.5 flex gap-2">
                <Button size="sm" variant="primary" onClick={() => {
                  const { text, images, model: override, image, files } = overBudgetSend;
                  // Sent from here: the composer is given afresh, as after any send.
                  void send(text, images, true, override, image, files).then((sent) => { if (sent) setFreshChats((n) => n + 1); });
                }}>{w.t('chat.sendAnyway')}</Button>
                <Button size="sm" variant="ghost" onClick={() => setOverBudgetSend(undefined)}>{w.t('common.cancel')}</Button>
              </p>
            </Callout>
          )}
          {removed !== undefined && (
            <p role="status" className="undo mb-1 flex items-center gap-2 rounded-md bg-surface-2 px-3 py-1.5 text-sm">
              <span className="min-w-0 flex-1 truncate">{w.t('chat.pairDeleted')}</span>
              <Button size="sm" onClick={() => { void store.restorePair(removed); setRemoved(undefined); }}>{w.t('conversations.undo')}</Button>
              <Button size="sm" variant="ghost" onClick={() => setRemoved(undefined)}>{w.t('common.dismiss')}</Button>
            </p>
          )}
          {view.saveError !== undefined && <Callout role="alert" tone="warning">{saveFailureText(w, view.saveError)}</Callout>}
          {notice !== undefined && <Callout role="alert" tone="warning">{refusalText(w, notice)}</Callout>}
        </div>
      )}
      {view.conversation !== undefined && awaitsPromptReview(view.conversation) && <div className="mx-auto w-full max-w-3xl shrink-0 px-3 pb-1 empty:hidden"><Suspense fallback={null}><ImportedPromptReview conversation={view.conversation} /></Suspense></div>}
      {/* Another conversation, or New chat, gets a fresh, focused composer; the one just started here keeps its own. */}
      <div className="mx-auto w-full max-w-3xl">
        <Composer key={`${conversationId === undefined || conversationId === created ? 'new' : conversationId}:${freshChats}`} streaming={streaming !== undefined} disabled={(profileGone && chosenSwitch === undefined) || awaitsPromptReview(view.conversation)} images={images} generation={generation} onSend={onSend} onStop={onStop} onEditLast={view.conversation === undefined ? undefined : onEditLast} onAskPage={canAskPage ? onAskPage : undefined} prompts={prompts} onPrompt={onPrompt} dictation={dictation} tools={tools} />
      </div>
    </section>
    </ReadAloudContext.Provider>
    </BalanceContext.Provider>
    </PricesContext.Provider>
  );
}
