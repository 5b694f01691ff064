/**
 * Runs belong to the background: a run is one request to the gateway, its streamed reply
 * saved into a conversation as it arrives. Pages start runs and watch them; closing a page
 * does not stop a run. Deltas are coalesced for watchers (one message per flush interval)
 * and for storage (one write per save interval), and the end is always saved: complete,
 * stopped, interrupted or failed, with whatever text arrived.
 */
import { GatewayError, type ChatMessage, type ChatRequest, type ContentPart, type GatewayClient, type StreamEvent } from '../gateway';
import { storedError, storedUsage, type Conversation, type Message, type MessageStatus, type StoredError, type StoredUsage, type Surface } from '../conversations/records';
import { newId, type ConversationStore } from '../conversations/store';
import { activeProfile, type Profile, type Settings } from '../settings/schema';

export type RunEvent =
  /** Everything so far: sent to a new watcher, and when text moved into reasoning. */
  | { type: 'snapshot'; conversationId: string; messageId: string; text: string; reasoning: string }
  /** What arrived since the last event. */
  | { type: 'delta'; conversationId: string; messageId: string; text: string; reasoning: string }
  | {
      type: 'end'; conversationId: string; messageId: string; status: MessageStatus;
      error?: StoredError; usage?: StoredUsage; finishReason?: string;
      /** Set when the reply could not be saved (a full disk): the watcher still has the text. */
      saveError?: string;
    };

export type RunProblem = 'empty' | 'no_profile' | 'no_model' | 'not_found' | 'busy';

export class RunError extends Error {
  override readonly name = 'RunError';
  constructor(readonly problem: RunProblem, message: string) {
    super(message);
  }
}

export interface StartRunInput {
  surface: Surface;
  /** Continue this conversation; a new one is made when absent. */
  conversationId?: string;
  profileId?: string;
  model?: string;
  text: string;
  /** data: URLs of attached images. */
  images?: string[];
  /** For a new conversation: its id (known ahead, so a panel can watch it before it exists). */
  newConversationId?: string;
  /** For a new conversation: its title (else the message's first line). */
  title?: string;
  /** For a new conversation: the page it came from. */
  source?: { title: string; url: string };
  /** Shown with the user message (a selection cut to fit, say). */
  notice?: string;
}

export interface RunManagerDeps {
  store: ConversationStore;
  loadSettings(): Promise<Settings>;
  clientFor(profile: Profile): GatewayClient;
  /** Called whenever the number of active runs changes (the background keeps itself alive). */
  onActiveRunsChange?(count: number): void;
  /** Milliseconds between delta messages to watchers. Default 32. */
  flushIntervalMs?: number;
  /** Milliseconds between saves of a streaming reply. Default 500. */
  saveIntervalMs?: number;
  /** Work that must finish before the first run starts (marking a dead worker's replies interrupted). */
  ready?: Promise<unknown>;
}

interface ActiveRun {
  conversationId: string;
  messageId: string;
  controller: AbortController;
  text: string;
  reasoning: string;
  pendingText: string;
  pendingReasoning: string;
  flushTimer: ReturnType<typeof setTimeout> | undefined;
  lastSave: number;
  saving: Promise<void>;
  usage?: StoredUsage;
  saveError?: string;
  done: Promise<void>;
}

const TITLE_LENGTH = 60;

export function titleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line || 'New conversation';
}

function statusForError(error: GatewayError): MessageStatus {
  if (error.kind === 'aborted') return 'stopped';
  if (error.kind === 'network' || error.kind === 'timeout') return 'interrupted';
  return 'error';
}

function toRequestMessage(message: Message): ChatMessage {
  if (message.role === 'user' && message.images !== undefined && message.images.length > 0) {
    const parts: ContentPart[] = [{ type: 'text', text: message.text }, ...message.images.map((url) => ({ type: 'image' as const, url }))];
    return { role: 'user', content: parts };
  }
  return { role: message.role, content: message.text };
}

function describeSaveFailure(failure: unknown): string {
  const name = failure instanceof Error ? failure.name : '';
  const why = name === 'QuotaExceededError' || /quota/i.test(String(failure))
    ? 'the browser\'s storage for this extension is full'
    : failure instanceof Error ? failure.message : String(failure);
  return `This reply could not be saved (${why}). It is still shown here: copy it before closing, and free some space by deleting old conversations.`;
}

export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  private readonly watchers = new Map<string, Set<(event: RunEvent) => void>>();
  private readonly flushIntervalMs: number;
  private readonly saveIntervalMs: number;

  constructor(private readonly deps: RunManagerDeps) {
    this.flushIntervalMs = deps.flushIntervalMs ?? 32;
    this.saveIntervalMs = deps.saveIntervalMs ?? 500;
  }

  get activeCount(): number {
    return this.active.size;
  }

  /** Resolves when every run has ended and been saved (tests, and the worker before it idles). */
  async whenIdle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((r) => r.done));
  }

  async start(input: StartRunInput): Promise<{ conversationId: string; messageId: string }> {
    await this.deps.ready;
    const text = input.text.trim();
    if (text === '' && (input.images === undefined || input.images.length === 0)) {
      throw new RunError('empty', 'Type a message first.');
    }
    const settings = await this.deps.loadSettings();
    let conversation: Conversation | undefined;
    if (input.conversationId !== undefined) {
      conversation = await this.deps.store.getConversation(input.conversationId);
      if (conversation === undefined) throw new RunError('not_found', 'That conversation no longer exists; start a new one.');
      if (this.isStreaming(conversation.id)) throw new RunError('busy', 'A reply is still streaming in this conversation: wait for it or stop it first.');
    }
    const profile = this.profileFor(settings, input.profileId ?? conversation?.profileId);
    const model = input.model ?? conversation?.model ?? profile.defaultModel;
    if (model === undefined || model === '') throw new RunError('no_model', 'Choose a model first (the model picker lists the gateway\'s catalogue).');

    if (conversation === undefined) {
      conversation = await this.deps.store.createConversation({
        id: input.newConversationId, profileId: profile.id, model, surface: input.surface, title: input.title ?? titleFrom(text), source: input.source,
      });
    } else if (conversation.model !== model || conversation.profileId !== profile.id) {
      await this.deps.store.updateConversation(conversation.id, { model, profileId: profile.id });
    }

    const history = await this.deps.store.messages(conversation.id);
    const seq = (history.at(-1)?.seq ?? -1) + 1;
    const now = Date.now();
    const user: Message = { id: newId(), conversationId: conversation.id, seq, role: 'user', text, reasoning: '', status: 'complete', createdAt: now };
    if (input.images !== undefined && input.images.length > 0) user.images = input.images;
    if (input.notice !== undefined) user.notice = input.notice;
    const assistant: Message = { id: newId(), conversationId: conversation.id, seq: seq + 1, role: 'assistant', text: '', reasoning: '', status: 'streaming', model, createdAt: now };
    await this.deps.store.addMessage(user);
    await this.deps.store.addMessage(assistant);

    this.launch(conversation.id, assistant.id, profile, this.request(settings, profile, model, [...history, user]));
    return { conversationId: conversation.id, messageId: assistant.id };
  }

  /** Ask again for an assistant message that stopped, failed or was interrupted; optionally with another model. */
  async retry(messageId: string, model?: string): Promise<{ conversationId: string; messageId: string }> {
    await this.deps.ready;
    const message = await this.deps.store.getMessage(messageId);
    if (message === undefined || message.role !== 'assistant') throw new RunError('not_found', 'That reply no longer exists.');
    if (this.isStreaming(message.conversationId)) throw new RunError('busy', 'A reply is still streaming in this conversation.');
    const conversation = await this.deps.store.getConversation(message.conversationId);
    if (conversation === undefined) throw new RunError('not_found', 'That conversation no longer exists.');
    const settings = await this.deps.loadSettings();
    const profile = this.profileFor(settings, conversation.profileId);
    const chosen = model ?? conversation.model;
    if (chosen !== conversation.model) await this.deps.store.updateConversation(conversation.id, { model: chosen });
    const history = (await this.deps.store.messages(conversation.id)).filter((m) => m.seq < message.seq);
    await this.deps.store.updateMessage(message.id, {
      text: '', reasoning: '', status: 'streaming', model: chosen, error: undefined, usage: undefined, finishReason: undefined, createdAt: Date.now(),
    });
    this.launch(conversation.id, message.id, profile, this.request(settings, profile, chosen, history));
    return { conversationId: conversation.id, messageId: message.id };
  }

  stop(messageId: string): boolean {
    const run = this.active.get(messageId);
    run?.controller.abort();
    return run !== undefined;
  }

  /** Watch a conversation's runs: active ones are sent as snapshots at once. */
  watch(conversationId: string, listener: (event: RunEvent) => void): () => void {
    // Deliver what is pending to the current watchers first, so the snapshot below and the
    // deltas after it never repeat a piece of text.
    for (const run of this.active.values()) if (run.conversationId === conversationId) this.flush(run);
    let set = this.watchers.get(conversationId);
    if (set === undefined) {
      set = new Set();
      this.watchers.set(conversationId, set);
    }
    set.add(listener);
    for (const run of this.active.values()) {
      if (run.conversationId === conversationId) {
        listener({ type: 'snapshot', conversationId, messageId: run.messageId, text: run.text, reasoning: run.reasoning });
      }
    }
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(conversationId);
    };
  }

  private isStreaming(conversationId: string): boolean {
    for (const run of this.active.values()) if (run.conversationId === conversationId) return true;
    return false;
  }

  private profileFor(settings: Settings, profileId: string | undefined): Profile {
    const profile = settings.profiles.find((p) => p.id === profileId) ?? activeProfile(settings);
    if (profile === undefined) throw new RunError('no_profile', 'Set up a gateway first: enter its address and API key in the settings.');
    return profile;
  }

  private request(settings: Settings, profile: Profile, model: string, history: Message[]): ChatRequest {
    const messages: ChatMessage[] = [];
    if (settings.chat.systemPrompt.trim() !== '') messages.push({ role: 'system', content: settings.chat.systemPrompt });
    for (const m of history) {
      if (m.text === '' && (m.images === undefined || m.images.length === 0)) continue;
      messages.push(toRequestMessage(m));
    }
    const request: ChatRequest = { model, messages, api: profile.apiStyle };
    if (settings.chat.temperature !== undefined) request.temperature = settings.chat.temperature;
    if (settings.chat.maxTokens !== undefined) request.maxTokens = settings.chat.maxTokens;
    return request;
  }

  private emit(conversationId: string, event: RunEvent): void {
    for (const listener of this.watchers.get(conversationId) ?? []) listener(event);
  }

  private launch(conversationId: string, messageId: string, profile: Profile, request: ChatRequest): void {
    const run: ActiveRun = {
      conversationId, messageId, controller: new AbortController(),
      text: '', reasoning: '', pendingText: '', pendingReasoning: '',
      flushTimer: undefined, lastSave: Date.now(), saving: Promise.resolve(), done: Promise.resolve(),
    };
    this.active.set(messageId, run);
    this.deps.onActiveRunsChange?.(this.active.size);
    this.emit(conversationId, { type: 'snapshot', conversationId, messageId, text: '', reasoning: '' });
    run.done = this.execute(run, this.deps.clientFor(profile), request);
  }

  private async execute(run: ActiveRun, client: GatewayClient, request: ChatRequest): Promise<void> {
    let status: MessageStatus = 'interrupted';
    let error: StoredError | undefined;
    let finishReason: string | undefined;
    try {
      for await (const event of client.streamChat(request, { signal: run.controller.signal })) {
        const end = this.apply(run, event);
        if (end !== undefined) {
          ({ status, error, finishReason } = end);
          break;
        }
      }
    } catch (thrown) {
      const gatewayError = thrown instanceof GatewayError
        ? thrown
        : new GatewayError({ kind: 'bad_response', url: '', detail: thrown instanceof Error ? thrown.message : String(thrown) });
      status = statusForError(gatewayError);
      error = storedError(gatewayError);
    }
    this.flush(run);
    await run.saving;
    const final: Partial<Message> = { text: run.text, reasoning: run.reasoning, status };
    if (error !== undefined) final.error = error;
    if (run.usage !== undefined) final.usage = run.usage;
    if (finishReason !== undefined) final.finishReason = finishReason;
    try {
      await this.deps.store.updateMessage(run.messageId, final);
      await this.deps.store.updateConversation(run.conversationId, {});
    } catch (saveFailure) {
      run.saveError = describeSaveFailure(saveFailure);
    } finally {
      this.active.delete(run.messageId);
      this.deps.onActiveRunsChange?.(this.active.size);
      const end: RunEvent = { type: 'end', conversationId: run.conversationId, messageId: run.messageId, status };
      if (error !== undefined) end.error = error;
      if (run.usage !== undefined) end.usage = run.usage;
      if (finishReason !== undefined) end.finishReason = finishReason;
      if (run.saveError !== undefined) end.saveError = run.saveError;
      this.emit(run.conversationId, end);
    }
  }

  /** Applies one event; returns how the run ended when it did. */
  private apply(run: ActiveRun, event: StreamEvent): { status: MessageStatus; error?: StoredError; finishReason?: string } | undefined {
    switch (event.type) {
      case 'text':
        run.text += event.text;
        run.pendingText += event.text;
        break;
      case 'reasoning':
        if (event.movedFromText === true) {
          this.flush(run);
          run.reasoning += run.text + event.text;
          run.text = '';
          this.emit(run.conversationId, { type: 'snapshot', conversationId: run.conversationId, messageId: run.messageId, text: run.text, reasoning: run.reasoning });
          break;
        }
        run.reasoning += event.text;
        run.pendingReasoning += event.text;
        break;
      case 'usage':
        run.usage = storedUsage(event.usage);
        return undefined;
      case 'error':
        return { status: statusForError(event.error), error: storedError(event.error) };
      case 'done':
        return event.finishReason === undefined ? { status: 'complete' } : { status: 'complete', finishReason: event.finishReason };
    }
    this.scheduleFlush(run);
    this.maybeSave(run);
    return undefined;
  }

  private scheduleFlush(run: ActiveRun): void {
    if (run.flushTimer !== undefined) return;
    run.flushTimer = setTimeout(() => this.flush(run), this.flushIntervalMs);
  }

  private flush(run: ActiveRun): void {
    if (run.flushTimer !== undefined) clearTimeout(run.flushTimer);
    run.flushTimer = undefined;
    if (run.pendingText === '' && run.pendingReasoning === '') return;
    this.emit(run.conversationId, { type: 'delta', conversationId: run.conversationId, messageId: run.messageId, text: run.pendingText, reasoning: run.pendingReasoning });
    run.pendingText = '';
    run.pendingReasoning = '';
  }

  private maybeSave(run: ActiveRun): void {
    const now = Date.now();
    if (now - run.lastSave < this.saveIntervalMs) return;
    run.lastSave = now;
    const text = run.text;
    const reasoning = run.reasoning;
    // Saves are chained so that an older write never lands after a newer one.
    run.saving = run.saving
      .then(() => this.deps.store.updateMessage(run.messageId, { text, reasoning }))
      .catch((failure: unknown) => {
        run.saveError = describeSaveFailure(failure);
      });
  }
}

export type { Conversation, Message };
