import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Conversation, Message, MessageStatus, StoredError, StoredUsage } from '@/lib/conversations/records';
import { type ConversationStore } from '@/lib/conversations/store';
import { storeProblem, type StoreProblem } from '@/lib/conversations/problems';
import { onlyLiveTextMoved } from '@/lib/conversations/saved-changes';
import { watchRuns } from '@/lib/protocol/background.adapter';
import { useMemoryMode } from '@/components/stores/memory-mode';
import { inNextFrame } from './next-frame';
import { announceLiveText, grownText, publishLiveReplies, type LiveText } from '@/components/stores/live-replies';
import type { RunEvent, SaveFailure } from '@/lib/runs/run-manager';
import type { ToolCallRecord } from '@/lib/tools/types';

interface LiveRun {
  text: string;
  reasoning: string;
  /** Whether its text names an image, and the end of its text, found from the pieces as they came (`grownText`). */
  namesImages?: boolean;
  tail?: string;
  /** Its text as published last (`publishLiveReplies`), and the pieces that came since. */
  published?: string;
  since?: string;
  /** The messages the run wrote when it started, shown until storage reports them. */
  records?: Message[];
  ended?: { status: MessageStatus; error?: StoredError; usage?: StoredUsage; finishReason?: string };
  /** Its tool calls as they stand (cards waiting for the user, running, done). */
  toolCalls?: ToolCallRecord[];
}

export interface ConversationView {
  conversation: Conversation | undefined;
  messages: Message[];
  /** The reply still streaming, if any. */
  streaming: Message | undefined;
  /** Set when a reply could not be saved (full disk): shown, text kept on screen. */
  saveError: SaveFailure | undefined;
  /** The database could not be read: shown with what to do, instead of an empty conversation. */
  storeError: { problem: StoreProblem; detail: string } | undefined;
  /** Messages that could not be read (damaged, or written by a newer version). */
  unreadable: number;
  /** Ids of the messages storage has reported (the others are a run's, not saved yet). */
  storedIds: ReadonlySet<string>;
  /** Its messages have been read (or cannot be): until then, an empty list says nothing. */
  read: boolean;
}

/**
 * How long a conversation's first read waits at most for what `onFirstRead` started (its newest
 * replies' renderings) before it is drawn without it: a worker that does not answer costs the
 * opening no more than this. Saved renderings come from the cache in 5–20 ms; renderings not
 * saved (a conversation imported, synced, or saved by an older renderer) are made in the worker,
 * 150–250 ms for a screen of code on a 2-core machine with a fresh worker (each grammar loaded
 * and compiled on its first block). Drawing meanwhile drew the conversation twice, its replies'
 * places first and their renderings after, and the second drawing (80 ms frames) held the page
 * while the worker still needed it: waiting drew the 200-code-block conversation's first screen
 * rendered sooner (median of 12 first opens, each in a fresh browser: 340 → 298 ms), once.
 */
const FIRST_READ_WAIT_MS = 300;

/** `promise` (rejected or not), or `ms` elapsed, whichever comes first; undefined for no promise. */
function waitAtMost(promise: Promise<unknown> | undefined, ms: number): Promise<void> | undefined {
  if (promise === undefined) return undefined;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.then(() => resolve(), () => resolve()).finally(() => clearTimeout(timer));
  });
}

/**
 * A conversation as saved (watched live in IndexedDB) with its running reply laid over it:
 * run events from the background are gathered and applied at most once per animation frame.
 * A streaming reply's text is as of its last run event other than more text (its start, say);
 * its newest text is in components/stores/live-replies.ts, which its view reads.
 * `onFirstRead` is given each conversation's messages as first read, before they are rendered
 * (to start work the view will need: the renderings of its newest replies, say); when it returns
 * a promise, they are shown once it settles, or after `FIRST_READ_WAIT_MS` at most.
 */
export function useConversation(store: ConversationStore, conversationId: string | undefined, onFirstRead?: (messages: readonly Message[]) => Promise<unknown> | undefined): ConversationView {
  // Each piece of state is tagged with the conversation it belongs to, so switching
  // conversations never shows the previous one's messages for a frame.
  const [conversation, setConversation] = useState<{ id: string; value: Conversation | undefined }>();
  const [saved, setSaved] = useState<{ id: string; messages: Message[]; unreadable: number }>();
  const [storeError, setStoreError] = useState<{ id: string; problem: StoreProblem; detail: string }>();
  const [live, setLive] = useState<{ id: string; runs: ReadonlyMap<string, LiveRun> }>();
  const [saveError, setSaveError] = useState<{ id: string; failure: SaveFailure }>();
  const memoryMode = useMemoryMode();
  // The runs this page follows (their events fill it), read when storage reports the messages.
  const liveRuns = useRef<ReadonlyMap<string, LiveRun>>(new Map());
  const firstRead = useRef(onFirstRead);
  useEffect(() => {
    firstRead.current = onFirstRead;
  });

  useEffect(() => {
    if (conversationId === undefined) return;
    const failed = (error: unknown): void => setStoreError({ id: conversationId, ...storeProblem(error) });
    // Storage catches up with what the run's events already showed: that render yields to them.
    const unwatchConversation = store.watchConversation(conversationId, (value) => startTransition(() => setConversation({ id: conversationId, value })), failed);
    // The background saves a streaming reply every few hundred milliseconds; the page shows its
    // newer text from the run's events already, so such a save (or a write elsewhere) leaves the
    // view be, instead of drawing the conversation again.
    let shown: { messages: Message[]; unreadable: number } | undefined;
    const following = (id: string): boolean => {
      const run = liveRuns.current.get(id);
      return run !== undefined && run.ended === undefined;
    };
    // The first read waits for what `onFirstRead` started (its replies' renderings, saved or made
    // now), so the conversation is drawn once, rendered, instead of drawn and then drawn again as
    // each arrives.
    let ready: Promise<unknown> | undefined;
    let stopped = false;
    const unwatchMessages = store.watchMessages(conversationId, (messages, unreadable) => {
      if (shown !== undefined && shown.unreadable === unreadable && onlyLiveTextMoved(shown.messages, messages, following)) return;
      if (shown === undefined) ready = waitAtMost(firstRead.current?.(messages), FIRST_READ_WAIT_MS);
      const now = { messages, unreadable };
      shown = now;
      const show = (): void => startTransition(() => setSaved({ id: conversationId, ...now }));
      if (ready === undefined) return show();
      void ready.then(() => {
        ready = undefined;
        // (A newer read that came meanwhile is shown instead.)
        if (!stopped && shown === now) show();
      });
    }, failed);
    return () => {
      stopped = true;
      unwatchConversation();
      unwatchMessages();
    };
  }, [store, conversationId]);

  useEffect(() => {
    if (conversationId === undefined) return;
    const runs = new Map<string, LiveRun>();
    liveRuns.current = runs;
    let frame: (() => void) | undefined;
    // Whether the conversation itself renders (a run started, ended, or sent a snapshot), or
    // only the streaming replies' views (more text: components/stores/live-replies.ts).
    let structural = false;
    const show = (): void => {
      if (structural) {
        structural = false;
        setLive({ id: conversationId, runs: new Map(runs) });
      }
      const texts = new Map<string, LiveText>();
      const ended: string[] = [];
      for (const [id, run] of runs) {
        if (run.ended !== undefined) {
          ended.push(id);
          continue;
        }
        // How the text grew from the one published last: the markdown reads only the pieces.
        const grew = run.published === undefined ? {} : { grew: { from: run.published, added: run.since ?? '' } };
        texts.set(id, { text: run.text, reasoning: run.reasoning, ...(run.namesImages === undefined ? {} : { namesImages: run.namesImages }), ...grew });
        runs.set(id, { ...run, published: run.text, since: '' });
      }
      publishLiveReplies(texts, ended);
    };
    const apply = (event: RunEvent): void => {
      const current = runs.get(event.messageId);
      if (event.type === 'snapshot') {
        // A later snapshot (text moved into the reasoning) comes without the records: they stay.
        const records = event.records ?? current?.records;
        const toolCalls = event.toolCalls ?? current?.toolCalls;
        const { text, namesImages, tail } = grownText(undefined, '', event.text);
        runs.set(event.messageId, { text, reasoning: event.reasoning, namesImages, tail, ...(records === undefined ? {} : { records }), ...(toolCalls === undefined ? {} : { toolCalls }) });
      } else if (event.type === 'tools') {
        runs.set(event.messageId, { ...current, text: current?.text ?? '', reasoning: current?.reasoning ?? '', toolCalls: event.toolCalls });
      } else if (event.type === 'delta') {
        const run = { ...current, ...grownText(current, current?.tail ?? '', event.text), reasoning: (current?.reasoning ?? '') + event.reasoning, since: (current?.since ?? '') + event.text };
        runs.set(event.messageId, run);
        if (event.text !== '') announceLiveText(event.messageId, { text: run.text, reasoning: run.reasoning, namesImages: run.namesImages, ...(current === undefined ? {} : { grew: { from: current.text, added: event.text } }) });
      } else if (event.type === 'end') {
        // ('images': the reply's imageIds reach the page with its saved record, written before the event.)
        const { status, error, usage, finishReason } = event;
        runs.set(event.messageId, { ...current, text: current?.text ?? '', reasoning: current?.reasoning ?? '', ended: { status, error, usage, finishReason } });
        if (event.saveError !== undefined) setSaveError({ id: conversationId, failure: event.saveError });
      }
      if (event.type !== 'delta' || current === undefined) structural = true;
      // A reply's first words are shown at once (whether a delta or the snapshot of a run
      // that began before this page watched it brings them); after them, at most one update a
      // frame, rendered inside that frame's callback (with the renderings that came meanwhile:
      // components/hooks/next-frame.ts) so it is painted in the same frame.
      const next = runs.get(event.messageId);
      const firstWords = (current === undefined || (current.text === '' && current.reasoning === '')) && next !== undefined && (next.text !== '' || next.reasoning !== '');
      if (firstWords) {
        frame?.();
        frame = undefined;
        // (Only the reply's own view draws them, unless the run itself is new here: its view
        // follows the live text, and nothing else on the page changes with its first words.)
        flushSync(show);
        return;
      }
      frame ??= inNextFrame(() => {
        frame = undefined;
        show();
      });
    };
    // The worker that owned unfinished runs is gone, with whatever it had not saved yet: this
    // page saved what it saw, and shows the reply as interrupted (Retry is offered).
    const lost = (): void => {
      for (const [id, run] of runs) {
        if (run.ended !== undefined) continue;
        runs.set(id, { ...run, ended: { status: 'interrupted' } });
        store.keepInterruptedText(id, run.text, run.reasoning).catch(() => undefined);
      }
      structural = true;
      show();
    };
    const unwatch = watchRuns(conversationId, apply, lost);
    return () => {
      unwatch();
      frame?.();
      publishLiveReplies(new Map(), [...runs.keys()]);
    };
  }, [store, conversationId]);

  // Once per read from storage, not on every delta.
  const storedIds = useMemo(() => new Set(saved !== undefined && saved.id === conversationId ? saved.messages.map((m) => m.id) : []), [saved, conversationId]);

  return useMemo(() => {
    const mine = <T extends { id: string }>(tagged: T | undefined): T | undefined => (tagged?.id === conversationId ? tagged : undefined);
    const runs = mine(live)?.runs;
    // A run's new messages are shown from its first event; storage reports them a moment later.
    const stored = mine(saved)?.messages ?? [];
    // Once a run ends, storage has its messages; where the database cannot be read (here, or by
    // the background, which then keeps the conversation in memory) it never will, and the runs'
    // own are the conversation.
    const failure = mine(storeError) ?? memoryMode;
    const unsaved = failure !== undefined;
    const records = runs === undefined ? [] : [...runs.values()].flatMap((run) => (run.ended === undefined || unsaved ? run.records ?? [] : []));
    // The run's records are the newest messages: once stored, they are at the end (a few ids to look at, not all).
    const tail = records.length === 0 ? [] : stored.slice(-records.length).map((m) => m.id);
    const pending = records.filter((m) => !tail.includes(m.id));
    const messages = (pending.length === 0 ? stored : [...stored, ...pending].sort((a, b) => a.seq - b.seq)).map((message) => {
      const run = runs?.get(message.id);
      if (run === undefined) return message;
      // A saved final state (after a later retry, say) wins over an older live one.
      if (run.ended !== undefined && message.status !== 'streaming') return message;
      const merged: Message = { ...message, text: run.text, reasoning: run.reasoning, status: run.ended?.status ?? 'streaming' };
      if (run.toolCalls !== undefined) merged.toolCalls = run.toolCalls;
      if (run.ended?.error !== undefined) merged.error = run.ended.error;
      if (run.ended?.usage !== undefined) merged.usage = run.ended.usage;
      return merged;
    });
    return {
      conversation: mine(conversation)?.value,
      messages,
      streaming: messages.find((m) => m.status === 'streaming'),
      saveError: mine(saveError)?.failure,
      storeError: failure,
      unreadable: mine(saved)?.unreadable ?? 0,
      storedIds,
      read: mine(saved) !== undefined || failure !== undefined,
    };
  }, [conversationId, conversation, saved, storedIds, live, saveError, storeError, memoryMode]);
}
