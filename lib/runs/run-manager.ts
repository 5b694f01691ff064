/**
 * Runs belong to the background: a run is one request to the gateway, its streamed reply
 * saved into a conversation as it arrives. Pages start runs and watch them; closing a page
 * does not stop a run. Deltas are coalesced for watchers (one message per flush interval)
 * and for storage (one write per save interval), and the end is always saved: complete,
 * stopped, interrupted or failed, with whatever text arrived.
 */
import { GatewayError, type ChatMessage, type ChatRequest, type ContentPart, type GatewayClient, type StreamEvent } from '../gateway';
import { storedError, storedUsage, type Conversation, type Notice, type Message, type MessageStatus, type StoredError, type StoredUsage, type Surface } from '../conversations/records';
import { conversationRecord, type ConversationStore } from '../conversations/store';
import { newId } from '../conversations/ids';
import { storeProblem, type StoreProblem } from '../conversations/problems';
import { activeProfile, presetSettings, type Profile, type Settings } from '../settings/schema';
import { buildTree, currentBranch, parentIdOf, type Tree } from '../conversations/branches';
import { checkMessageSize, COMPARE_MODELS, DEFAULT_MESSAGE_LIMITS, type MessageLimits } from './limits';
import { saveDue } from './save-policy';
import { chooseApi, type ApiStyle } from '../gateway/interfaces/names';
import { reroutedFrom, routeAround, withNotice, type Route } from './route';
import type { ModelPrice } from '../gateway';
import type { ImageOptions, ImageRequestRecord } from '../images/types';
import { platformScaler, type ImageScaler } from '../images/scale';
import { costPerImage, editImagesOf, requestRecordOf, runImageJob, type ImageJob } from './image-run';
import { ChatImages, withImagesInline } from './chat-images';
import { withFiles } from '../files/quote';
import type { AttachedFile } from '../files/types';
import type { ToolCall } from '../gateway';
import type { ToolHost, ToolRunContext } from '../tools/host';
import { replyMessages, withoutToolTurns } from '../tools/history';
import { BUILTIN_SOURCE, MAX_TOOL_OUTPUT, originOf, pageAddress, toolKey, type ToolCallRecord, type ToolDecision, type ToolDefinition, type ToolOutcome, type ToolSource } from '../tools/types';

export type RunEvent =
  /** Everything so far: sent to a new watcher, and when text moved into reasoning. */
  | {
      type: 'snapshot'; conversationId: string; messageId: string; text: string; reasoning: string;
      /** When a run starts: the messages it just wrote, so a page shows them before storage tells it. */
      records?: Message[];
      /** The reply's tool calls so far. */
      toolCalls?: ToolCallRecord[];
    }
  /** The reply's tool calls changed (one came, waits for the user, ran, failed): all of them, as they stand. */
  | { type: 'tools'; conversationId: string; messageId: string; toolCalls: ToolCallRecord[] }
  /** What arrived since the last event. */
  | { type: 'delta'; conversationId: string; messageId: string; text: string; reasoning: string }
  /** The reply's images changed (ids in the image store, in order): a partial came, a final one replaced it, one was taken out of the text. */
  | { type: 'images'; conversationId: string; messageId: string; imageIds: string[] }
  | {
      type: 'end'; conversationId: string; messageId: string; status: MessageStatus;
      error?: StoredError; usage?: StoredUsage; finishReason?: string;
      timing?: Message['timing'];
      /** Set when the reply could not be saved (a full disk): the watcher still has the text. */
      saveError?: SaveFailure;
    };

export type RunProblem =
  | 'empty' | 'no_profile' | 'no_model' | 'not_found' | 'busy'
  /** The conversation's gateway profile was deleted: the user chooses another (`switchProfileId`). */
  | 'profile_gone'
  /** The profile asked for (`profileId`) does not exist. */
  | 'profile_missing'
  /** The profile came from sync without its API key, and none was entered here yet: `params.name`. */
  | 'no_key'
  /** The conversation's system prompt came with an import: the user keeps or removes it first. */
  | 'prompt_review'
  /** The gateway asked to wait (`Retry-After`): `params.retryAt`. */
  | 'wait'
  /** The message is over a size limit: `params` say which and by how much. */
  | 'text_too_long' | 'files_too_long' | 'too_many_images' | 'images_too_large'
  /** A comparison needs two to four different models: `params.min`, `params.max`. */
  | 'compare_models'
  /** The page asked about cannot be read: `params.reason` (a PageUnreadable code), `params.url`, `params.detail`, `params.seconds` (how long a busy page was given). */
  | 'page_unreadable';

/** A reply that could not be saved: why (storage's problem code) and the platform's words. */
export interface SaveFailure {
  problem: StoreProblem;
  detail?: string;
}

export type RunProblemParams = Record<string, string | number>;

export class RunError extends Error {
  override readonly name = 'RunError';
  constructor(readonly problem: RunProblem, readonly params: RunProblemParams = {}) {
    super(problem);
  }
}

/** Nothing is sent in a conversation whose imported system prompt the user has not yet kept or removed. */
function awaitReview(conversation: Conversation): void {
  if (conversation.settings?.systemPromptReview !== undefined) throw new RunError('prompt_review');
}

export interface StartRunInput {
  surface: Surface;
  /** Continue this conversation; a new one is made when absent. */
  conversationId?: string;
  /** For a new conversation: its gateway profile (else the active one). */
  profileId?: string;
  /**
   * Move an existing conversation to this profile, as the user chose (its own was deleted, or
   * they picked another). Without it a conversation always continues on its own profile.
   */
  switchProfileId?: string;
  model?: string;
  text: string;
  /** data: URLs of attached images. */
  images?: string[];
  /** Attached files with their text (lib/files/): saved with the question, quoted in the request. */
  files?: AttachedFile[];
  /** For a new conversation: its id (known ahead, so a panel can watch it before it exists). */
  newConversationId?: string;
  /** The tab beside the popup or side panel that asked: "Read this page" reads it. */
  tabId?: number;
  /** For a new conversation: the tools switched off in its "Tools" menu before it started. */
  toolsOff?: string[];
  /** For a new conversation: the preset it starts from (its prompt, parameters, model). */
  presetId?: string;
  /** The user message's and the reply's ids, chosen by the page that shows them before the run has saved them. */
  userMessageId?: string;
  replyMessageId?: string;
  /** For a new conversation: its title (else the message's first line). */
  title?: string;
  /** For a new conversation: the page it came from. */
  source?: { title: string; url: string };
  /** Shown with the user message (a selection cut to fit, say). */
  notice?: Notice;
  /**
   * Ask an image model for images: `text` is the prompt. An edit (`/images/edits`) when images
   * are attached or `editOf` names a stored image (it goes into the question's `imageIds`).
   */
  image?: { options: ImageOptions; editOf?: string };
}

/** One question to several models at once: each reply streams as a run of its own. */
export interface CompareInput extends Omit<StartRunInput, 'model' | 'replyMessageId'> {
  /** Two to four models, in the order their replies are shown. */
  models: string[];
  /** The replies' ids, one per model, chosen by the page that shows them before the runs have saved them. */
  replyMessageIds?: string[];
}

export interface RunManagerDeps {
  store: ConversationStore;
  loadSettings(): Promise<Settings>;
  /** The client for a profile's gateway, with the user's deadlines from `settings`. */
  clientFor(profile: Profile, settings: Settings): GatewayClient;
  /** Called whenever the number of active runs changes (the background keeps itself alive). */
  onActiveRunsChange?(count: number): void;
  /** Milliseconds between delta messages to watchers. Default 32. */
  flushIntervalMs?: number;
  /** Milliseconds between saves of a streaming reply. Default 500; longer for a long text (save-policy.ts). */
  saveIntervalMs?: number;
  /** Work that must finish before the first run starts (marking a dead worker's replies interrupted). */
  ready?: Promise<unknown>;
  /** What one message may carry. */
  messageLimits?: MessageLimits;
  /** What the profile's catalogue says of a model (the interfaces it is served through), when it is known. */
  modelInfo?(profileId: string, model: string): Promise<{ preferredApi?: ApiStyle | undefined; capabilities?: { fileInput?: boolean | 'unknown' | undefined; tools?: boolean | 'unknown' | undefined } } | undefined>;
  /** The tools a run may offer (lib/tools/): none when absent. */
  tools?: ToolHost;
  /** The interfaces this profile's gateway was lately found not to serve (asked through Chat Completions instead). */
  unservedApis?(profile: Profile): Promise<readonly ApiStyle[]>;
  /** Remembers that this profile's gateway does not serve `api` (its route answered 404 or 405). */
  noteUnserved?(profile: Profile, api: ApiStyle): Promise<void>;
  /** A model's price from the profile's price list, when known (an image's cost: per call). */
  priceOf?(profile: Profile, model: string): Promise<ModelPrice | undefined>;
  /** Measures and scales images sent to be edited (default: the platform's canvas, where there is one). */
  scaler?: ImageScaler;
  now?: () => number;
}

export interface RetryOptions {
  /** Ask with another model (after "model does not exist", say). */
  model?: string;
  /** Move the conversation to this profile (its own was deleted). */
  switchProfileId?: string;
  /** The new version's id, chosen by the page that shows it before the run has saved it. */
  replyMessageId?: string;
}

export interface EditInput extends RetryOptions {
  /** The user message edited: the new text becomes a version of it, with a reply of its own. */
  messageId: string;
  text: string;
  userMessageId?: string;
}

interface ActiveRun {
  conversationId: string;
  messageId: string;
  controller: AbortController;
  text: string;
  reasoning: string;
  pendingText: string;
  pendingReasoning: string;
  lastSave: number;
  saving: Promise<void>;
  usage?: StoredUsage;
  saveError?: SaveFailure;
  /** The range of `reasoning` moved there from the answer by a lone `</think>`. */
  moved?: [number, number];
  /** Whether a delta has gone to watchers yet. */
  flushedOnce?: boolean;
  /** The messages written when the run started (sent with snapshots while it runs). */
  records?: Message[];
  /** When it asked, and when the first words came (epoch ms). */
  startedAt: number;
  firstTokenAt?: number;
  done: Promise<void>;
  /** An image run's images (ids in the image store), in order. */
  imageIds: string[];
  /** A chat reply's images, taken out of its text. */
  chatImages?: ChatImages;
  /** Its tool calls, in order, as they stand. */
  toolCalls: ToolCallRecord[];
  /** The user's answers on tool cards: waited for by call id; given early, kept until asked. */
  decisions: Map<string, (decision: ToolDecision) => void>;
  early: Map<string, ToolDecision>;
  /** Said on the reply when it ends (its tools were refused, a server could not give its tools). */
  notice?: Notice;
  /** Pages the gateway's own search cited. */
  sources?: ToolSource[];
  /** Where the current tool step's words begin in `text`. */
  stepStart?: number;
}

/** What a run asks: a chat reply (its request, and the question it answers), or images. */
type Work =
  /** `toolContext`: what the reply's tools are chosen by (they are listed when the run starts, not before the turn is shown). */
  | { kind: 'chat'; request: ChatRequest; prompt: string; toolContext: ToolRunContext }
  /** `question`: the message asked, whose images an edit sends. */
  | { kind: 'image'; model: string; request: ImageRequestRecord; question: Message };

/** The path from the root to `id` (inclusive); empty for null. */
function pathTo(tree: Tree, id: string | null): Message[] {
  if (id === null) return [];
  const branch = currentBranch(tree, id);
  const at = branch.findIndex((m) => m.id === id);
  return branch.slice(0, at + 1);
}

function withoutLeaf({ leafId: _leafId, ...rest }: Conversation): Conversation {
  return rest;
}

function maxSeq(messages: readonly Message[]): number {
  return messages.reduce((max, m) => Math.max(max, m.seq), -1);
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

function toRequestMessages(message: Message): ChatMessage[] {
  if (message.role === 'user') return [userRequestMessage(message)];
  // A reply that called tools goes back as its steps: each step's text and calls, then their results.
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) return replyMessages(message.text, message.toolCalls);
  // Signed thinking goes back with its reply (the interfaces that take none leave it out).
  if (message.reasoningSignature !== undefined && message.reasoning !== '') {
    return [{ role: 'assistant', content: message.text, reasoning: { text: message.reasoning, signature: message.reasoningSignature } }];
  }
  return [{ role: message.role, content: message.text }];
}

function userRequestMessage(message: Message): ChatMessage {
  {
    // Attached files follow the question, each quoted with its name (lib/files/quote.ts); one
    // with its own bytes (`data`: only on its turn, to a model that takes files) goes as itself.
    // Only the question of this turn carries `data` (withOwnFiles); a saved one never does (SavedFileSchema).
    const files: readonly AttachedFile[] = message.files ?? [];
    const itself = files.filter((f) => f.data !== undefined);
    const text = withFiles(message.text, files.filter((f) => f.data === undefined));
    const images = message.images ?? [];
    if (images.length === 0 && itself.length === 0) return { role: 'user', content: text };
    const parts: ContentPart[] = [
      ...(text === '' ? [] : [{ type: 'text' as const, text }]),
      ...images.map((url) => ({ type: 'image' as const, url })),
      ...itself.map((f) => ({ type: 'file' as const, filename: f.name, data: f.data! })),
    ];
    return { role: 'user', content: parts };
  }
}

function toolContextOf(conversation: Conversation, tabId?: number): ToolRunContext {
  return { toolsOff: conversation.settings?.toolsOff ?? [], ...(tabId === undefined ? {} : { tabId }) };
}

type RunEnd = { status: MessageStatus; error?: StoredError; finishReason?: string; signature?: string };

/** A problem's words with every address cut to its origin (a hosted server's path may hold a secret). */
function withOrigins(params: Record<string, string | number>): Record<string, string | number> {
  const address = typeof params.address === 'string' ? params.address : undefined;
  if (address === undefined || address === '') return params;
  const origin = originOf(address);
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v.split(address).join(origin) : v]));
}

function isFetch(tool: ToolDefinition): boolean {
  return tool.source === BUILTIN_SOURCE && tool.tool === 'fetch_page';
}


/** A call's arguments as an object, or undefined when the model wrote something else. */
function argumentsOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

/** Usage of the steps so far and of this one, added (a field either lacks counts as the other's). */
function addUsage(before: StoredUsage | undefined, now: StoredUsage): StoredUsage {
  if (before === undefined) return now;
  const sum: StoredUsage = { ...before };
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens', 'reasoningTokens', 'cachedTokens', 'cost'] as const) {
    const a = before[key];
    const b = now[key];
    if (b !== undefined) sum[key] = (a ?? 0) + b;
  }
  return sum;
}

function describeSaveFailure(failure: unknown): SaveFailure {
  const { problem, detail } = storeProblem(failure);
  return problem === 'quota' ? { problem } : { problem, detail };
}

export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  /**
   * Conversations with runs starting or streaming (how many), reserved synchronously before the
   * first await: a second start (a double-clicked Retry, two surfaces at once) is refused as busy.
   * A comparison's runs share their conversation (`shared`): a column asked again may join them,
   * nothing else may.
   */
  private readonly busy = new Map<string, { count: number; shared: boolean }>();
  /** Replies being asked again, reserved before their conversation is known. */
  private readonly retrying = new Set<string>();
  private readonly watchers = new Map<string, Set<(event: RunEvent) => void>>();
  /** Each conversation's next flush of its replies' deltas to watchers. */
  private readonly flushTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly flushIntervalMs: number;
  private readonly saveIntervalMs: number;

  constructor(private readonly deps: RunManagerDeps) {
    this.flushIntervalMs = deps.flushIntervalMs ?? 32;
    this.saveIntervalMs = deps.saveIntervalMs ?? 500;
  }

  get activeCount(): number {
    return this.active.size;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /**
   * Takes the conversation for `runs` runs, or refuses: synchronous, so two callers cannot both
   * win. `shared`: a comparison's runs, which another column's run may join.
   */
  private reserve(conversationId: string, shared = false, runs = 1): void {
    const held = this.busy.get(conversationId);
    if (held !== undefined) {
      if (!(shared && held.shared)) throw new RunError('busy');
      held.count += runs;
      return;
    }
    this.busy.set(conversationId, { count: runs, shared });
    this.deps.onActiveRunsChange?.(this.busy.size);
  }

  private release(conversationId: string, runs = 1): void {
    const held = this.busy.get(conversationId);
    if (held === undefined) return;
    held.count -= runs;
    if (held.count > 0) return;
    this.busy.delete(conversationId);
    this.deps.onActiveRunsChange?.(this.busy.size);
  }

  /** Resolves when every run has ended and been saved (tests, and the worker before it idles). */
  async whenIdle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((r) => r.done));
  }

  async start(input: StartRunInput): Promise<{ conversationId: string; messageId: string }> {
    const { model, replyMessageId, ...rest } = input;
    const { conversationId, messageIds } = await this.turn(rest, model === undefined ? [] : [model], replyMessageId === undefined ? [] : [replyMessageId]);
    return { conversationId, messageId: messageIds[0]! };
  }

  /**
   * One question to several models at once, side by side: a reply per model, each a run of its
   * own, started together; none waits for another. The conversation holds the comparison open
   * until the user continues with one of them.
   */
  async compare(input: CompareInput): Promise<{ conversationId: string; messageIds: string[] }> {
    const models = [...new Set(input.models.map((m) => m.trim()).filter((m) => m !== ''))];
    if (models.length < COMPARE_MODELS.min || models.length > COMPARE_MODELS.max) throw new RunError('compare_models', { ...COMPARE_MODELS });
    const { models: _models, replyMessageIds = [], ...rest } = input;
    return this.turn(rest, models, replyMessageIds);
  }

  /** A new turn: the question, and a reply from each model (the conversation's own when none is named). */
  private async turn(input: Omit<StartRunInput, 'model' | 'replyMessageId'>, models: string[], replyIds: string[]): Promise<{ conversationId: string; messageIds: string[] }> {
    const text = input.text.trim();
    const images = input.images ?? [];
    const files = input.image === undefined ? input.files ?? [] : [];
    if (text === '' && files.length === 0 && (images.length === 0 || input.image !== undefined)) throw new RunError('empty');
    const tooLarge = checkMessageSize(text, images, this.deps.messageLimits ?? DEFAULT_MESSAGE_LIMITS, files);
    if (tooLarge !== undefined) {
      const { problem, ...params } = tooLarge;
      throw new RunError(problem, params);
    }
    // Reserved before the first await: the id of a new conversation is chosen here.
    const conversationId = input.conversationId ?? input.newConversationId ?? newId();
    this.reserve(conversationId);
    try {
      await this.deps.ready;
      const settings = await this.deps.loadSettings();
      let conversation: Conversation | undefined;
      if (input.conversationId !== undefined) {
        conversation = await this.deps.store.getConversation(input.conversationId);
        if (conversation === undefined) throw new RunError('not_found');
        awaitReview(conversation);
      }
      const profile = conversation === undefined
        ? this.profileFor(settings, input.profileId ?? settings.activeProfileId, false)
        : this.profileFor(settings, input.switchProfileId ?? conversation.profileId, input.switchProfileId === undefined && input.profileId === undefined);
      // A preset gone since it was chosen is simply not used.
      const preset = conversation === undefined && input.presetId !== undefined ? settings.presets.find((p) => p.id === input.presetId) : undefined;
      const model = models[0] ?? conversation?.model ?? preset?.model ?? profile.defaultModel;
      if (model === undefined || model === '') throw new RunError('no_model');
      const comparing = models.length > 1;

      const created = conversation === undefined;
      const now = this.now();
      if (conversation === undefined) {
        conversation = conversationRecord({
          id: conversationId, profileId: profile.id, model, surface: input.surface, title: input.title ?? titleFrom(text === '' && files[0] !== undefined ? files[0].name : text), source: input.source,
        }, now);
        if (preset !== undefined) conversation = { ...conversation, settings: presetSettings(preset) };
        if (input.toolsOff !== undefined && input.toolsOff.length > 0) conversation = { ...conversation, settings: { ...conversation.settings, toolsOff: input.toolsOff } };
      } else {
        conversation = { ...conversation, model, profileId: profile.id };
      }

      const all = created ? [] : await this.deps.store.messages(conversation.id);
      // The new turn follows the branch shown.
      const history = currentBranch(buildTree(all), conversation.leafId);
      const seq = maxSeq(all) + 1;
      const user: Message = { id: input.userMessageId ?? newId(), conversationId: conversation.id, seq, role: 'user', parentId: history.at(-1)?.id ?? null, text, reasoning: '', status: 'complete', createdAt: now };
      if (images.length > 0) user.images = images;
      // Saved with their text only: a file's own bytes go to a model that takes files, on this turn.
      if (files.length > 0) user.files = files.map(({ data: _data, ...file }) => file);
      if (input.notice !== undefined) user.notice = input.notice;
      const imaging = input.image;
      if (imaging?.editOf !== undefined) {
        // Only an image of this conversation: another's is as good as not there.
        const source = await this.deps.store.images.get(imaging.editOf);
        if (source === undefined || source.conversationId !== conversation.id) throw new RunError('not_found', { target: 'image' });
        user.imageIds = [imaging.editOf];
      }
      const asked = comparing ? models : [model];
      // An image model's reply goes to /images/…: no chat interface to choose.
      const routes = imaging !== undefined ? [] : await Promise.all(asked.map((m) => this.routeOf(profile, m, conversation!)));
      const imageRequest = imaging === undefined ? undefined : requestRecordOf(text, imaging.options, images.length > 0 || imaging.editOf !== undefined);
      const replies = asked.map((m, i): Message => ({
        id: replyIds[i] ?? newId(), conversationId: conversation!.id, seq: seq + 1 + i, role: 'assistant', parentId: user.id, text: '', reasoning: '', status: 'streaming', model: m, createdAt: now,
        ...(imageRequest === undefined ? withNotice(routes[i]!) : { imageRequest }),
      }));
      // The branch goes through the first reply until the user continues with another.
      conversation = { ...conversation, leafId: replies[0]!.id };
      const compare = comparing ? { open: { userId: user.id, replyIds: replies.map((r) => r.id) } } : conversation.compare === undefined ? undefined : 'close' as const;
      if (created && comparing) conversation = { ...conversation, compare: { userId: user.id, replyIds: replies.map((r) => r.id) } };
      // What each model is sent, before anything is written: a store that cannot be read refuses the turn, leaving no reply streaming forever.
      const sent = imageRequest === undefined
        ? await Promise.all(replies.map(async (r) => withImagesInline([...history, await this.withOwnFiles(user, files, profile, r.model!)], this.deps.store.images, { conversationId: conversation!.id, model: r.model! })))
        : [];
      await this.deps.store.addTurn({ conversation, created, messages: [user, ...replies], ...(compare === undefined ? {} : { compare }) });

      const client = this.deps.clientFor(profile, settings);
      // Each run's own start: the comparison's runs share the conversation, one reservation each.
      const held = this.busy.get(conversationId);
      if (held !== undefined) Object.assign(held, { count: replies.length, shared: comparing });
      replies.forEach((reply, i) => {
        const work: Work = imageRequest === undefined
          ? { kind: 'chat', request: this.request(settings, profile, reply.model!, sent[i]!, conversation!, routes[i]!.api), prompt: text, toolContext: toolContextOf(conversation!, input.tabId) }
          : { kind: 'image', model: reply.model!, request: imageRequest, question: user };
        this.launch(conversation!.id, reply.id, client, profile, work, i === 0 ? [user, reply] : [reply]);
      });
      return { conversationId: conversation.id, messageIds: replies.map((r) => r.id) };
    } catch (error) {
      this.release(conversationId);
      throw error;
    }
  }

  /**
   * Ask again for an assistant reply (stopped, failed, interrupted, or finished), optionally
   * with another model: a new version beside it, under the same question. The reply as it
   * stood is kept: a retry that fails loses nothing.
   */
  async retry(messageId: string, options: RetryOptions = {}): Promise<{ conversationId: string; messageId: string }> {
    return this.branch(messageId, 'assistant', options, (tree, parent) => ({ parent, history: pathTo(tree, parent), user: undefined }));
  }

  /**
   * Edit and resend a user message: the new text is a version of it (the old one stays, with
   * its replies), and a reply to it streams.
   */
  async edit(input: EditInput): Promise<{ conversationId: string; messageId: string }> {
    const text = input.text.trim();
    return this.branch(input.messageId, 'user', input, (tree, parent, original) => {
      // A question with files may be edited down to its files alone.
      if (text === '' && (original.files === undefined || original.files.length === 0)) throw new RunError('empty');
      const tooLarge = checkMessageSize(text, original.images ?? [], this.deps.messageLimits ?? DEFAULT_MESSAGE_LIMITS, original.files);
      if (tooLarge !== undefined) {
        const { problem, ...params } = tooLarge;
        throw new RunError(problem, params);
      }
      const user: Message = { id: input.userMessageId ?? newId(), conversationId: original.conversationId, seq: 0, role: 'user', parentId: parent, text, reasoning: '', status: 'complete', createdAt: this.now() };
      if (original.images !== undefined) user.images = original.images;
      if (original.files !== undefined) user.files = original.files;
      if (original.imageIds !== undefined) user.imageIds = original.imageIds;
      return { parent: user.id, history: [...pathTo(tree, parent), user], user };
    });
  }

  /** A new version of a message: a sibling of it, with a reply that streams. */
  private async branch(
    messageId: string, role: Message['role'], options: RetryOptions,
    plan: (tree: Tree, parent: string | null, original: Message) => { parent: string | null; history: Message[]; user: Message | undefined },
  ): Promise<{ conversationId: string; messageId: string }> {
    if (this.retrying.has(messageId)) throw new RunError('busy');
    this.retrying.add(messageId);
    let reserved: string | undefined;
    try {
      await this.deps.ready;
      const record = await this.deps.store.getMessage(messageId.replace(/~v\d+$/, ''));
      if (record === undefined) throw new RunError('not_found', { target: 'message' });
      // A column of an open comparison is asked again beside the others, which may still stream.
      const open = (await this.deps.store.getConversation(record.conversationId))?.compare;
      const column = role === 'assistant' && open?.replyIds.includes(messageId) === true;
      this.reserve(record.conversationId, column);
      reserved = record.conversationId;
      const all = await this.deps.store.messages(record.conversationId);
      const tree = buildTree(all);
      const message = tree.byId.get(messageId);
      if (message === undefined || message.role !== role) throw new RunError('not_found', { target: 'message' });
      const retryAt = message.error?.retryAt;
      if (retryAt !== undefined && retryAt > this.now()) {
        throw new RunError('wait', { retryAt });
      }
      const conversation = await this.deps.store.getConversation(record.conversationId);
      if (conversation === undefined) throw new RunError('not_found', { target: 'conversation' });
      awaitReview(conversation);
      const settings = await this.deps.loadSettings();
      const profile = this.profileFor(settings, options.switchProfileId ?? conversation.profileId, options.switchProfileId === undefined);
      // A compared reply is asked again of its own model.
      const chosen = options.model ?? (column ? message.model : undefined) ?? conversation.model;
      const { parent, history, user } = plan(tree, parentIdOf(tree, messageId), message);
      const now = this.now();
      let seq = maxSeq(all) + 1;
      const written: Message[] = [];
      if (user !== undefined) written.push({ ...user, seq: seq++ });
      // A reply of an image model is asked again as images (an edited question: with its new text).
      const imageReply = role === 'assistant' ? message : (tree.childrenOf.get(message.id) ?? []).find((c) => c.imageRequest !== undefined);
      const question = user ?? (parent === null ? undefined : tree.byId.get(parent));
      const imageRequest = imageReply?.imageRequest === undefined || question === undefined ? undefined : { ...imageReply.imageRequest, prompt: question.text };
      const route = imageRequest === undefined ? await this.routeOf(profile, chosen, conversation) : undefined;
      const reply: Message = {
        id: options.replyMessageId ?? newId(), conversationId: conversation.id, seq, role: 'assistant', parentId: parent, text: '', reasoning: '', status: 'streaming', model: chosen, createdAt: now,
        ...(route === undefined ? { imageRequest: imageRequest! } : withNotice(route)),
      };
      written.push(reply);
      // A column's new version takes its place in the comparison; the branch shown stays as it was.
      const moved: Conversation = column
        ? { ...withoutLeaf(conversation), profileId: profile.id }
        : { ...conversation, model: chosen, profileId: profile.id, leafId: reply.id };
      const compare = column ? { swap: [messageId, reply.id] as [string, string] } : conversation.compare === undefined ? undefined : 'close' as const;
      // What the model is sent, before anything is written (as in `start`).
      const sent = route === undefined ? [] : await withImagesInline(history, this.deps.store.images, { conversationId: conversation.id, model: chosen });
      await this.deps.store.addTurn({ conversation: moved, created: false, messages: written, ...(compare === undefined ? {} : { compare }) });
      const work: Work = route === undefined
        ? { kind: 'image', model: chosen, request: imageRequest!, question: question! }
        : { kind: 'chat', request: this.request(settings, profile, chosen, sent, moved, route.api), prompt: history.findLast((m) => m.role === 'user')?.text ?? '', toolContext: toolContextOf(moved) };
      this.launch(conversation.id, reply.id, this.deps.clientFor(profile, settings), profile, work, written);
      return { conversationId: conversation.id, messageId: reply.id };
    } catch (error) {
      if (reserved !== undefined) this.release(reserved);
      throw error;
    } finally {
      this.retrying.delete(messageId);
    }
  }

  stop(messageId: string): boolean {
    const run = this.active.get(messageId);
    run?.controller.abort();
    return run !== undefined;
  }

  /** Stops a conversation's run (before it is deleted) and resolves once its end is saved. */
  async stopConversation(conversationId: string): Promise<boolean> {
    const runs = [...this.active.values()].filter((r) => r.conversationId === conversationId);
    for (const run of runs) run.controller.abort();
    await Promise.all(runs.map((r) => r.done));
    return runs.length > 0;
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
        listener({
          type: 'snapshot', conversationId, messageId: run.messageId, text: run.text, reasoning: run.reasoning,
          ...(run.records === undefined ? {} : { records: run.records }), ...(run.toolCalls.length === 0 ? {} : { toolCalls: structuredClone(run.toolCalls) }),
        });
      }
    }
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(conversationId);
    };
  }

  /**
   * The profile a run goes to. A conversation's own profile is never silently replaced by
   * another (its history and key would go to another gateway): when it is gone, `profile_gone`.
   */
  private profileFor(settings: Settings, profileId: string | undefined, own: boolean): Profile {
    const profile = profileId === undefined ? activeProfile(settings) : settings.profiles.find((p) => p.id === profileId);
    if (profile !== undefined && profile.apiKey === '') throw new RunError('no_key', { name: profile.name });
    if (profile !== undefined) return profile;
    if (settings.profiles.length === 0) throw new RunError('no_profile');
    if (own) throw new RunError('profile_gone');
    throw new RunError('profile_missing');
  }

  /**
   * The interface a reply goes through (the conversation's choice, else the catalogue's word on
   * the model, else the profile's default), unless the gateway was found not to serve it; a
   * catalogue or memory that cannot be read says nothing.
   */
  private async routeOf(profile: Profile, model: string, conversation: Conversation): Promise<Route> {
    const [info, unserved] = await Promise.all([
      this.deps.modelInfo?.(profile.id, model).catch(() => undefined),
      this.deps.unservedApis?.(profile).catch(() => []),
    ]);
    return routeAround(chooseApi(conversation.settings?.apiStyle, info, profile.apiStyle), unserved ?? []);
  }

  /**
   * The question as `model` is sent it: with the files' own bytes where the catalogue says the
   * model takes files (and the file came whole, small enough), else as saved (their text quoted).
   */
  private async withOwnFiles(user: Message, files: readonly AttachedFile[], profile: Profile, model: string): Promise<Message> {
    if (!files.some((f) => f.data !== undefined)) return user;
    const info = await this.deps.modelInfo?.(profile.id, model).catch(() => undefined);
    return info?.capabilities?.fileInput === true ? { ...user, files: [...files] } : user;
  }

  /** The request for a branch: the conversation's own settings over the global ones. */
  private request(settings: Settings, profile: Profile, model: string, history: Message[], conversation: Conversation, api: ApiStyle): ChatRequest {
    const own = conversation.settings ?? {};
    const systemPrompt = own.systemPrompt ?? settings.chat.systemPrompt;
    const messages: ChatMessage[] = [];
    if (systemPrompt.trim() !== '') messages.push({ role: 'system', content: systemPrompt });
    for (const m of history) {
      if (m.text === '' && (m.images === undefined || m.images.length === 0) && (m.files === undefined || m.files.length === 0) && (m.toolCalls === undefined || m.toolCalls.length === 0)) continue;
      messages.push(...toRequestMessages(m));
    }
    const request: ChatRequest = { model, messages, api };
    const temperature = own.temperature ?? settings.chat.temperature;
    const maxTokens = own.maxTokens ?? settings.chat.maxTokens;
    if (temperature !== undefined) request.temperature = temperature;
    if (maxTokens !== undefined) request.maxTokens = maxTokens;
    return request;
  }

  private emit(conversationId: string, event: RunEvent): void {
    for (const listener of this.watchers.get(conversationId) ?? []) listener(event);
  }

  private launch(conversationId: string, messageId: string, client: GatewayClient, profile: Profile, work: Work, records?: Message[]): void {
    const run: ActiveRun = {
      conversationId, messageId, controller: new AbortController(),
      text: '', reasoning: '', pendingText: '', pendingReasoning: '',
      lastSave: Date.now(), saving: Promise.resolve(), done: Promise.resolve(), startedAt: Date.now(),
      imageIds: [], toolCalls: [], decisions: new Map(), early: new Map(),
      // Images stay out: they can be megabytes, and storage delivers them a moment later.
      ...(records === undefined ? {} : { records: records.map(({ images: _images, ...m }) => m) }),
    };
    if (work.kind === 'chat') {
      run.chatImages = new ChatImages({
        conversationId, messageId, prompt: work.prompt, model: work.request.model, images: this.deps.store.images, now: () => this.now(),
        onImages: async (imageIds) => {
          await this.deps.store.updateMessage(messageId, { imageIds });
          this.emit(conversationId, { type: 'images', conversationId, messageId, imageIds });
        },
        onSaveError: (failure) => {
          run.saveError = describeSaveFailure(failure);
        },
      });
    }
    this.active.set(messageId, run);
    this.emit(conversationId, { type: 'snapshot', conversationId, messageId, text: '', reasoning: '', ...(run.records === undefined ? {} : { records: run.records }) });
    run.done = this.execute(run, client, work, profile);
  }

  private async execute(run: ActiveRun, client: GatewayClient, work: Work, profile: Profile): Promise<void> {
    const apiKey = profile.apiKey;
    let status: MessageStatus = 'interrupted';
    let error: StoredError | undefined;
    let finishReason: string | undefined;
    let signature: string | undefined;
    try {
      if (work.kind === 'image') ({ status, error } = await this.askImages(run, client, work, profile));
      else {
        const end = await this.chat(run, client, work, profile);
        if (end !== undefined) ({ status, error, finishReason, signature } = end);
      }
    } catch (thrown) {
      const gatewayError = thrown instanceof GatewayError
        ? thrown
        : new GatewayError({ kind: 'bad_response', url: '', detail: { code: 'internal', text: thrown instanceof Error ? thrown.message : String(thrown) } });
      status = statusForError(gatewayError);
      error = this.stored(gatewayError, apiKey);
    }
    if (run.chatImages !== undefined) this.takeText(run, run.chatImages.end());
    this.flush(run);
    // A call still waiting or running when the reply ended (Stop, a failure) did not finish.
    if (run.toolCalls.some((c) => c.status === 'waiting' || c.status === 'running')) {
      for (const call of run.toolCalls) if (call.status === 'waiting' || call.status === 'running') call.status = 'stopped';
      this.toolsChanged(run);
    }
    await run.chatImages?.saved;
    await run.saving;
    const final: Partial<Message> = { text: run.text, reasoning: run.reasoning, status, timing: this.timing(run) };
    if (run.toolCalls.length > 0) final.toolCalls = run.toolCalls;
    if (run.notice !== undefined) final.notice = run.notice;
    if (run.sources !== undefined && run.sources.length > 0) final.sources = run.sources;
    const imageIds = run.chatImages?.ids ?? run.imageIds;
    if (imageIds.length > 0) final.imageIds = imageIds;
    if (run.moved !== undefined) final.movedToReasoning = run.moved;
    // An image cut off mid-way was dropped (its base64 is no text to keep): the reply says so.
    if (run.chatImages?.cut !== undefined) final.notice = { code: 'image_cut', params: {} };
    if (error !== undefined) final.error = error;
    if (run.usage !== undefined) final.usage = run.usage;
    if (finishReason !== undefined) final.finishReason = finishReason;
    if (signature !== undefined) final.reasoningSignature = signature;
    try {
      await this.deps.store.updateMessage(run.messageId, final);
      await this.deps.store.updateConversation(run.conversationId, {});
    } catch (saveFailure) {
      run.saveError = describeSaveFailure(saveFailure);
    } finally {
      this.active.delete(run.messageId);
      this.release(run.conversationId);
      const end: RunEvent = { type: 'end', conversationId: run.conversationId, messageId: run.messageId, status };
      if (error !== undefined) end.error = error;
      if (run.usage !== undefined) end.usage = run.usage;
      if (finishReason !== undefined) end.finishReason = finishReason;
      if (run.saveError !== undefined) end.saveError = run.saveError;
      end.timing = final.timing;
      this.emit(run.conversationId, end);
    }
  }

  /** How long the reply kept the user waiting for its first words, and in all. */
  private timing(run: ActiveRun): NonNullable<Message['timing']> {
    const timing: NonNullable<Message['timing']> = { durationMs: Date.now() - run.startedAt };
    if (run.firstTokenAt !== undefined) timing.firstTokenMs = run.firstTokenAt - run.startedAt;
    return timing;
  }

  /** Applies one event; returns how the run ended when it did. */
  private stored(error: GatewayError, apiKey: string): StoredError {
    const stored = storedError(error, apiKey);
    if (error.retryAfter !== undefined) stored.retryAt = this.now() + error.retryAfter * 1000;
    return stored;
  }

  private apply(run: ActiveRun, event: StreamEvent, profile: Profile): RunEnd | undefined {
    if ((event.type === 'text' || event.type === 'reasoning') && run.firstTokenAt === undefined && event.text !== '') run.firstTokenAt = Date.now();
    switch (event.type) {
      case 'text':
        this.takeText(run, run.chatImages === undefined ? event.text : run.chatImages.push(event.text));
        break;
      case 'reasoning':
        if (event.movedFromText === true) {
          this.flush(run);
          const start = run.reasoning.length;
          // Only this step's words (a reply of several tool steps keeps the earlier ones).
          const from = run.stepStart ?? 0;
          run.reasoning += run.text.slice(from) + event.text;
          run.moved = [start, run.reasoning.length];
          run.text = run.text.slice(0, from);
          this.emit(run.conversationId, { type: 'snapshot', conversationId: run.conversationId, messageId: run.messageId, text: run.text, reasoning: run.reasoning });
          break;
        }
        run.reasoning += event.text;
        run.pendingReasoning += event.text;
        break;
      case 'usage':
        // A reply of several steps (tool calls) is billed for each: the counts add up.
        run.usage = addUsage(run.usage, storedUsage(event.usage));
        return undefined;
      case 'tool_call':
        // Gathered by the chat loop (`chat`); never reaches here.
        return undefined;
      case 'sources':
        // The gateway's own search: the pages the answer cites (kept with the reply, each once).
        run.sources = [...(run.sources ?? []), ...event.sources.filter((s) => run.sources?.some((o) => o.url === s.url) !== true)];
        return undefined;
      case 'rerouted': {
        // Said on the reply at once (the next requests to this gateway go straight there).
        const { notice } = reroutedFrom(event.from);
        run.saving = run.saving.then(() => this.deps.store.updateMessage(run.messageId, { notice })).catch(() => undefined);
        void this.deps.noteUnserved?.(profile, event.from).catch(() => undefined);
        return undefined;
      }
      case 'error':
        return { status: statusForError(event.error), error: this.stored(event.error, profile.apiKey) };
      case 'done': {
        const end: { status: MessageStatus; finishReason?: string; signature?: string } = { status: 'complete' };
        if (event.finishReason !== undefined) end.finishReason = event.finishReason;
        if (event.signature !== undefined) end.signature = event.signature;
        return end;
      }
    }
    this.scheduleFlush(run);
    this.maybeSave(run);
    return undefined;
  }

  /** Text that arrived (a chat reply's images already taken out of it). */
  private takeText(run: ActiveRun, text: string): void {
    run.text += text;
    run.pendingText += text;
  }

  /**
   * A chat reply: streamed, and while the model calls tools, each call shown, run once the user
   * allowed it (or always allows that tool), and its result sent back in the interface's shape,
   * step after step. Past the step cap every call asks, whatever is always allowed. A gateway that
   * refuses tools is asked again without them, and the reply says so.
   */
  private async chat(run: ActiveRun, client: GatewayClient, work: Extract<Work, { kind: 'chat' }>, profile: Profile): Promise<RunEnd | undefined> {
    const signal = run.controller.signal;
    const { tools: offered, gatewaySearch } = await this.offerTools(run, work, profile);
    // Without tools, earlier replies' calls and results go as their words (the interfaces refuse calls of tools not defined).
    const asked = offered.length === 0 ? { ...work.request, messages: withoutToolTurns(work.request.messages) } : work.request;
    const searching = gatewaySearch ? { ...asked, webSearch: true } : asked;
    let request: ChatRequest = offered.length === 0 ? searching : { ...searching, tools: offered.map(({ name, description, parameters }) => ({ name, description, parameters })) };
    for (let step = 1; ; step++) {
      const calls: ToolCall[] = [];
      let end: RunEnd | undefined;
      // Where this step's words and thinking begin (a lone </think> moves only this step's words).
      run.stepStart = run.text.length;
      const thinkingFrom = run.reasoning.length;
      try {
        for await (const event of client.streamChat(request, { signal })) {
          if (event.type === 'tool_call') {
            calls.push(event.call);
            continue;
          }
          end = this.apply(run, event, profile);
          if (end !== undefined) break;
        }
      } catch (thrown) {
        // Refused before a word: asked again as it was, without tools.
        if (thrown instanceof GatewayError && thrown.detail?.code === 'tools_refused' && (request.tools !== undefined || request.webSearch === true) && run.text === '' && run.toolCalls.length === 0) {
          const { tools: _tools, webSearch: _search, ...without } = request;
          request = { ...without, messages: withoutToolTurns(without.messages) };
          run.notice = { code: 'tools_refused', params: {} };
          step--;
          continue;
        }
        throw thrown;
      }
      if (end === undefined || end.status !== 'complete' || calls.length === 0 || request.tools === undefined) return end;
      const config = await this.deps.tools!.config();
      // This step's thinking goes back with its calls on every later request (see ToolCallRecord.thinking).
      const stepThinking = run.reasoning.slice(thinkingFrom);
      const thinking = end.signature !== undefined ? { text: stepThinking, signature: end.signature } : stepThinking.trim() === '' ? undefined : { text: stepThinking };
      const planned = await this.runTools(run, calls, offered, work.toolContext, step, step > config.maxSteps, config.alwaysAllow, thinking);
      if (signal.aborted) return { status: 'stopped' };
      // Past the cap, a model that only calls tools it was not offered (or with arguments that
      // cannot be read) is not asked again: nothing would ever stop it.
      if (step >= config.maxSteps && planned.every((c) => c.status === 'failed' && (c.error?.code === 'unknown_tool' || c.error?.code === 'bad_arguments'))) return end;
      // The next step: everything asked so far, the steps' texts and calls, their results.
      request = { ...request, messages: [...asked.messages, ...replyMessages(run.text, run.toolCalls)] };
      if (run.text !== '' && !run.text.endsWith('\n')) this.takeText(run, '\n\n');
    }
  }

  /** The tools this reply may call: none for a model whose catalogue says it takes none. */
  private async offerTools(run: ActiveRun, work: Extract<Work, { kind: 'chat' }>, profile: Profile): Promise<{ tools: ToolDefinition[]; gatewaySearch: boolean }> {
    const host = this.deps.tools;
    if (host === undefined) return { tools: [], gatewaySearch: false };
    const info = await this.deps.modelInfo?.(profile.id, work.request.model).catch(() => undefined);
    if (info?.capabilities?.tools === false) return { tools: [], gatewaySearch: false };
    const offered = await host.offer(work.toolContext, run.controller.signal).catch(() => ({ tools: [], failed: [], gatewaySearch: false }));
    const failed = offered.failed[0];
    // Saved with the reply (synced, exported): the server's origin only, never its whole address.
    if (failed !== undefined) run.notice = { code: 'tool_server_failed', params: { ...withOrigins(failed.params), code: failed.code } };
    return { tools: offered.tools, gatewaySearch: offered.gatewaySearch };
  }

  /** One step's calls: each waits for the user unless always allowed (and under the cap), then runs. */
  private async runTools(
    run: ActiveRun, calls: readonly ToolCall[], offered: readonly ToolDefinition[], context: ToolRunContext, step: number, pastCap: boolean, alwaysAllow: readonly string[],
    thinking: ToolCallRecord['thinking'],
  ): Promise<ToolCallRecord[]> {
    const signal = run.controller.signal;
    const at = run.text.length;
    const used = new Set(run.toolCalls.map((c) => c.id));
    // What a call acts on, for its card before it runs ("Read this page": the page's origin).
    const tools = calls.map((call) => offered.find((t) => t.name === call.name));
    const targets = await Promise.all(tools.map((tool) => (tool === undefined ? undefined : this.deps.tools?.target(tool, context).catch(() => undefined))));
    const planned = calls.map((call, n) => {
      const tool = tools[n];
      const target = targets[n] === undefined ? undefined : pageAddress(targets[n]);
      // An id a gateway gave twice in one reply would confuse the results: made unique.
      let id = call.id;
      for (let n = 2; used.has(id); n++) id = `${call.id}_${n}`;
      used.add(id);
      // "Fetch a web page" asks each time: each page is an origin of its own, asked for on its card.
      const allowed = tool !== undefined && !pastCap && !isFetch(tool) && alwaysAllow.includes(toolKey(tool.source, tool.tool));
      const record: ToolCallRecord = {
        id, name: call.name, tool: tool?.tool ?? call.name, source: tool?.source ?? '', arguments: call.arguments,
        status: allowed ? 'running' : 'waiting', step, at,
        // The server's origin only: a hosted server's address may hold a secret in its path.
        ...(tool?.address === undefined ? {} : { address: originOf(tool.address) }),
        ...(target === undefined ? {} : { address: originOf(target) }),
        ...(call.signature === undefined ? {} : { signature: call.signature }),
        ...(tool?.server === undefined ? {} : { server: tool.server }),
        ...(allowed ? { preAllowed: true } : {}),
        ...(pastCap ? { pastCap: true } : {}),
      };
      return { record, tool };
    });
    if (thinking !== undefined && planned[0] !== undefined) planned[0].record.thinking = thinking;
    run.toolCalls.push(...planned.map((p) => p.record));
    this.toolsChanged(run);
    for (const { record, tool } of planned) {
      if (signal.aborted) break;
      if (tool === undefined) {
        this.settle(run, record, { ok: false, code: 'unknown_tool', params: { name: record.name } });
        continue;
      }
      const args = argumentsOf(record.arguments);
      if (args === undefined) {
        this.settle(run, record, { ok: false, code: 'bad_arguments', params: { field: 'arguments' } });
        continue;
      }
      if (record.status === 'waiting') {
        const decision = await this.decision(run, record.id);
        if (decision === undefined) break;
        if (decision === 'deny') {
          record.status = 'denied';
          this.toolsChanged(run);
          continue;
        }
        if (decision === 'always') await this.deps.tools!.allowAlways(toolKey(tool.source, tool.tool)).catch(() => undefined);
        record.status = 'running';
        this.toolsChanged(run);
      }
      let outcome: ToolOutcome;
      try {
        outcome = await this.deps.tools!.run(tool, args, context, signal);
      } catch (thrown) {
        if (signal.aborted) break;
        outcome = { ok: false, code: 'internal', params: { detail: thrown instanceof Error ? thrown.message : String(thrown) } };
      }
      if (signal.aborted) break;
      this.settle(run, record, outcome);
    }
    return planned.map((p) => p.record);
  }

  private settle(run: ActiveRun, record: ToolCallRecord, outcome: ToolOutcome): void {
    if (outcome.ok) {
      record.status = 'done';
      record.result = outcome.text.length > MAX_TOOL_OUTPUT ? outcome.text.slice(0, MAX_TOOL_OUTPUT) : outcome.text;
      if (outcome.text.length > MAX_TOOL_OUTPUT) record.cutFrom = outcome.text.length;
      if (outcome.sources !== undefined && outcome.sources.length > 0) record.sources = outcome.sources;
    } else {
      record.status = 'failed';
      record.error = { code: outcome.code, params: withOrigins(outcome.params ?? {}) };
    }
    this.toolsChanged(run);
  }

  /** The user's answer on a call's card; undefined when the reply was stopped first. */
  private decision(run: ActiveRun, callId: string): Promise<ToolDecision | undefined> {
    const early = run.early.get(callId);
    if (early !== undefined) {
      run.early.delete(callId);
      return Promise.resolve(early);
    }
    const signal = run.controller.signal;
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const stopped = (): void => {
        run.decisions.delete(callId);
        resolve(undefined);
      };
      signal.addEventListener('abort', stopped, { once: true });
      run.decisions.set(callId, (decision) => {
        signal.removeEventListener('abort', stopped);
        run.decisions.delete(callId);
        resolve(decision);
      });
    });
  }

  /**
   * "Allow once", "Always allow this tool" or "Deny" on a tool card of a running reply. False
   * when there is no such call waiting (the reply ended, or the call was answered already).
   */
  decide(messageId: string, callId: string, decision: ToolDecision): boolean {
    const run = this.active.get(messageId);
    const call = run?.toolCalls.find((c) => c.id === callId);
    if (run === undefined || call === undefined || call.status !== 'waiting' || run.early.has(callId)) return false;
    const waiting = run.decisions.get(callId);
    if (waiting !== undefined) waiting(decision);
    else run.early.set(callId, decision);
    return true;
  }

  /** The calls changed: watchers told at once, the reply's record saved (after the saves before it). */
  private toolsChanged(run: ActiveRun): void {
    this.flush(run);
    const toolCalls = structuredClone(run.toolCalls);
    this.emit(run.conversationId, { type: 'tools', conversationId: run.conversationId, messageId: run.messageId, toolCalls });
    run.saving = run.saving.then(() => this.deps.store.updateMessage(run.messageId, { text: run.text, toolCalls })).catch((failure: unknown) => {
      run.saveError = describeSaveFailure(failure);
    });
  }

  /** An image run: the images asked for (an edit sends the question's images, scaled down when too large). */
  private async askImages(run: ActiveRun, client: GatewayClient, work: Extract<Work, { kind: 'image' }>, profile: Profile): Promise<{ status: MessageStatus; error?: StoredError }> {
    const images = this.deps.store.images;
    const capable = client;
    let edit: Blob[] | undefined;
    if (work.request.edit === true) {
      const fitted = await editImagesOf(work.question, images, this.deps.scaler ?? platformScaler());
      // Its images are gone (deleted since it was asked): an edit of nothing is not sent.
      if (fitted.blobs.length === 0) {
        return { status: 'error', error: this.stored(new GatewayError({ kind: 'bad_request', url: '', detail: { code: 'edit_source_missing' } }), profile.apiKey) };
      }
      edit = fitted.blobs;
      const first = fitted.scaled[0];
      if (first !== undefined) {
        const notice: Notice = { code: 'image_scaled', params: { count: fitted.scaled.length, from: first.from, to: first.to } };
        run.saving = run.saving.then(() => this.deps.store.updateMessage(work.question.id, { notice })).catch(() => undefined);
      }
    }
    const cost = costPerImage(await this.deps.priceOf?.(profile, work.model).catch(() => undefined));
    const job: ImageJob = { model: work.model, prompt: work.request.prompt, options: work.request.options, ...(edit === undefined ? {} : { edit }), ...(cost === undefined ? {} : { cost }) };
    const end = await runImageJob(job, {
      client: capable, images, signal: run.controller.signal, conversationId: run.conversationId, messageId: run.messageId,
      newId, now: () => this.now(),
      onFirst: () => {
        run.firstTokenAt ??= Date.now();
      },
      onImages: async (imageIds) => {
        run.imageIds = imageIds;
        try {
          await this.deps.store.updateMessage(run.messageId, { imageIds });
        } catch (failure) {
          run.saveError = describeSaveFailure(failure);
        }
        this.emit(run.conversationId, { type: 'images', conversationId: run.conversationId, messageId: run.messageId, imageIds });
      },
    });
    if (end.usage !== undefined) run.usage = storedUsage(end.usage);
    if (end.ended === 'done') return { status: 'complete' };
    if (end.ended === 'error') return { status: statusForError(end.error), error: this.stored(end.error, profile.apiKey) };
    return { status: run.controller.signal.aborted ? 'stopped' : 'interrupted' };
  }

  /**
   * One flush per interval for a conversation, whatever number of its replies stream (a
   * comparison's): their deltas reach the page together, and it draws them in one frame.
   */
  private scheduleFlush(run: ActiveRun): void {
    // The first words go out at once: coalescing is for the stream that follows them. (An event
    // that brought none, a piece of an image reference held back say, leaves that for them.)
    if (!run.flushedOnce) {
      if (run.pendingText === '' && run.pendingReasoning === '') return;
      run.flushedOnce = true;
      this.flush(run);
      return;
    }
    if (this.flushTimers.has(run.conversationId)) return;
    this.flushTimers.set(run.conversationId, setTimeout(() => {
      this.flushTimers.delete(run.conversationId);
      for (const other of this.active.values()) if (other.conversationId === run.conversationId) this.flush(other);
    }, this.flushIntervalMs));
  }

  private flush(run: ActiveRun): void {
    if (run.pendingText === '' && run.pendingReasoning === '') return;
    this.emit(run.conversationId, { type: 'delta', conversationId: run.conversationId, messageId: run.messageId, text: run.pendingText, reasoning: run.pendingReasoning });
    run.pendingText = '';
    run.pendingReasoning = '';
  }

  /**
   * A streaming reply is saved every `saveIntervalMs` (less often once its text is long: see
   * save-policy.ts), with every other reply of its conversation
   * streaming beside it (a comparison's) in the same write: pages watching it read it once.
   */
  private maybeSave(run: ActiveRun): void {
    const now = Date.now();
    if (now - run.lastSave < this.saveIntervalMs) return;
    const runs = [...this.active.values()].filter((r) => r.conversationId === run.conversationId);
    if (!saveDue(runs, now - run.lastSave, this.saveIntervalMs)) return;
    const texts = runs.map((r) => ({ id: r.messageId, text: r.text, reasoning: r.reasoning }));
    // Saves are chained so that an older write never lands after a newer one.
    const previous = Promise.all(runs.map((r) => r.saving));
    const saving = previous
      .then(() => this.deps.store.updateMessageTexts(texts))
      .catch((failure: unknown) => {
        const saveError = describeSaveFailure(failure);
        for (const r of runs) r.saveError = saveError;
      });
    for (const r of runs) {
      r.lastSave = now;
      r.saving = saving;
    }
  }
}

export type { Conversation, Message };
