/**
 * Full-text search over every conversation: an inverted index from terms (see tokens.ts) to the
 * conversations that hold them, compact enough for years of history.
 *
 * Why not MiniSearch or FlexSearch: measured with 10,000 conversations of 400 words each (the
 * bench's size), MiniSearch held 147 MB of heap and took 1.1 s to load its saved JSON (one long
 * task); FlexSearch's prefix mode ("forward") 140 MB, its exact mode 42 MB but no search as you
 * type. Here the postings are one typed array (each posting one 4-byte integer: about 47 MB for
 * the bench's year of history, 11.7 million term–conversation pairs), conversations indexed since
 * are kept in small lists until they are merged in, the vocabulary is sorted for prefix search,
 * and the saved form is those typed arrays, which IndexedDB stores and loads without parsing.
 */
import * as z from 'zod/mini';
import { indexTerms, queryTerms, type QueryTerm } from './tokens';

export interface IndexedConversation {
  id: string;
  /** Its `updatedAt` when indexed: a newer one is indexed again. */
  updatedAt: number;
  title: string;
  /** The text of every message, in every version. */
  texts: readonly string[];
}

export interface SearchHit {
  id: string;
  score: number;
  /** Whether the title matched every part of the query. */
  inTitle: boolean;
}

interface Doc {
  id: string;
  updatedAt: number;
  /** Ids of the title's terms (a small sorted set). */
  titleTerms: Uint32Array;
}

/** The index as saved: typed arrays and strings, no JSON. */
export interface SavedIndex {
  version: typeof INDEX_FORMAT;
  vocabulary: string[];
  ids: string[];
  updatedAt: Float64Array;
  /** Term t is in the conversations slots[offsets[t] .. offsets[t + 1]) (indexes into ids). */
  offsets: Uint32Array;
  slots: Uint32Array;
  titleOffsets: Uint32Array;
  titleIds: Uint32Array;
}

export const INDEX_FORMAT = 2;

/** Removed documents are merged away when they pass this share of the slots. */
const GARBAGE = 0.25;
/** Postings of conversations indexed since the last merge are merged in past this many. */
const MERGE_AT = 1_000_000;
/** Prefixes this short are remembered (the first letters typed), up to this many. */
const SHORT_PREFIX = 2;
const SHORT_PREFIXES_KEPT = 64;

interface Ranked {
  score: number;
  doc: Doc;
  slot: number;
  inTitle: boolean;
}

/** The best hits seen so far, at most `limit` of them: a heap whose root is the worst kept. */
class TopHits {
  private readonly heap: Ranked[] = [];

  constructor(private readonly limit: number) {}

  /** Whether a ranks below b: a lower score, or the same and older, or both the same and indexed later. */
  private static below(a: Ranked, b: Ranked): boolean {
    return a.score < b.score || (a.score === b.score && (a.doc.updatedAt < b.doc.updatedAt || (a.doc.updatedAt === b.doc.updatedAt && a.slot > b.slot)));
  }

  offer(score: number, doc: Doc, slot: number, inTitle: boolean): void {
    const heap = this.heap;
    if (this.limit <= 0) return;
    if (heap.length === this.limit) {
      // Most candidates rank below the worst kept: they are turned away before anything is made.
      const worst = heap[0]!;
      if (score < worst.score || (score === worst.score && (doc.updatedAt < worst.doc.updatedAt || (doc.updatedAt === worst.doc.updatedAt && slot > worst.slot)))) return;
      heap[0] = { score, doc, slot, inTitle };
      this.down(0);
      return;
    }
    heap.push({ score, doc, slot, inTitle });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!TopHits.below(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && TopHits.below(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && TopHits.below(heap[right]!, heap[least]!)) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }

  /** Best first. */
  sorted(): SearchHit[] {
    return [...this.heap].sort((a, b) => (TopHits.below(a, b) ? 1 : TopHits.below(b, a) ? -1 : 0)).map((h) => ({ id: h.doc.id, score: h.score, inTitle: h.inTitle }));
  }
}

export class ConversationIndex {
  private readonly termId = new Map<string, number>();
  private vocabulary: string[] = [];
  /** The merged postings: term t's slots are baseSlots[baseOffsets[t] .. baseOffsets[t + 1]). */
  private baseOffsets: Uint32Array<ArrayBufferLike> = new Uint32Array(1);
  private baseSlots: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  /** Postings added since the last merge, per term. */
  private extra: (number[] | undefined)[] = [];
  private extraCount = 0;
  private docs: (Doc | undefined)[] = [];
  private readonly slotOf = new Map<string, number>();
  private removed = 0;
  /** The vocabulary's term ids in alphabetical order (for prefixes); terms added since are merged in when next needed. */
  private sorted: Uint32Array | undefined;
  private unsorted: number[] = [];
  /**
   * The conversations holding a short prefix ("h", "ha": the first letters typed, each
   * thousands of terms), kept until the index changes; the most recently used last.
   */
  private shortPrefixes = new Map<string, { marked: Uint8Array; count: number }>();

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  updatedAtOf(id: string): number | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.docs[slot]?.updatedAt;
  }

  ids(): IterableIterator<string> {
    return this.slotOf.keys();
  }

  /** Adds a conversation, or replaces what was indexed for it. */
  put(conversation: IndexedConversation): void {
    this.remove(conversation.id);
    this.changed();
    const terms = new Set<string>();
    indexTerms(conversation.title, terms);
    const titleTerms = [...terms].map((t) => this.intern(t)).sort((a, b) => a - b);
    for (const text of conversation.texts) indexTerms(text, terms);
    const slot = this.docs.length;
    this.docs.push({ id: conversation.id, updatedAt: conversation.updatedAt, titleTerms: Uint32Array.from(titleTerms) });
    this.slotOf.set(conversation.id, slot);
    for (const term of terms) {
      const id = this.intern(term);
      (this.extra[id] ??= []).push(slot);
    }
    this.extraCount += terms.size;
    if (this.extraCount > MERGE_AT) this.merge();
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.changed();
    this.slotOf.delete(id);
    this.docs[slot] = undefined;
    this.removed++;
    if (this.removed > 64 && this.removed > this.docs.length * GARBAGE) this.merge();
  }

  /**
   * The conversations holding every part of the query, best first: a part found in the title
   * counts three times, a rarer term more than a common one, and ties go to the newer.
   */
  search(query: string, limit = 50): SearchHit[] {
    const parts = queryTerms(query);
    if (parts.length === 0) return [];
    const slotCount = this.docs.length;
    const matches: { marked: Uint8Array; count: number; titleTerms: Uint8Array }[] = [];
    for (const part of parts) {
      const { marked, count } = this.conversationsWith(part);
      if (count === 0) return [];
      matches.push({ marked, count, titleTerms: this.termMarks(part) });
    }
    // Walk the rarest part's conversations and check the others.
    matches.sort((a, b) => a.count - b.count);
    const rarest = matches[0]!.marked;
    const live = this.slotOf.size || 1;
    const idf = matches.map((m) => Math.log(1 + live / m.count));
    // The best `limit` kept as they come (a short prefix matches nearly every conversation:
    // sorting them all would cost more than finding them).
    const best = new TopHits(limit);
    next: for (let slot = 0; slot < slotCount; slot++) {
      if (rarest[slot] === 0) continue;
      const doc = this.docs[slot];
      if (doc === undefined) continue;
      for (let i = 1; i < matches.length; i++) if (matches[i]!.marked[slot] === 0) continue next;
      let score = 0;
      let inTitle = true;
      for (let i = 0; i < matches.length; i++) {
        const marks = matches[i]!.titleTerms;
        const terms = doc.titleTerms;
        let titled = false;
        for (let k = 0; k < terms.length && !titled; k++) titled = marks[terms[k]!] === 1;
        if (!titled) inTitle = false;
        score += idf[i]! * (titled ? 3 : 1);
      }
      best.offer(score, doc, slot, inTitle);
    }
    return best.sorted();
  }

  save(): SavedIndex {
    this.merge();
    const live = this.docs as Doc[];
    const titleOffsets = new Uint32Array(live.length + 1);
    live.forEach((d, i) => {
      titleOffsets[i + 1] = titleOffsets[i]! + d.titleTerms.length;
    });
    const titleIds = new Uint32Array(titleOffsets[live.length]!);
    live.forEach((d, i) => titleIds.set(d.titleTerms, titleOffsets[i]!));
    return {
      version: INDEX_FORMAT, vocabulary: [...this.vocabulary], ids: live.map((d) => d.id), updatedAt: Float64Array.from(live.map((d) => d.updatedAt)),
      offsets: this.baseOffsets.slice(), slots: this.baseSlots.slice(), titleOffsets, titleIds,
    };
  }

  /** An index as saved; undefined when it is not one this version can read. */
  static load(saved: unknown): ConversationIndex | undefined {
    if (!isSavedIndex(saved)) return undefined;
    const index = new ConversationIndex();
    index.vocabulary = [...saved.vocabulary];
    saved.vocabulary.forEach((term, i) => index.termId.set(term, i));
    index.baseOffsets = saved.offsets;
    index.baseSlots = saved.slots;
    for (let i = 0; i < saved.ids.length; i++) {
      const titleTerms = saved.titleIds.subarray(saved.titleOffsets[i]!, saved.titleOffsets[i + 1]!);
      if (titleTerms.some((t) => t >= index.vocabulary.length)) return undefined;
      index.docs.push({ id: saved.ids[i]!, updatedAt: saved.updatedAt[i]!, titleTerms });
      index.slotOf.set(saved.ids[i]!, i);
    }
    return index;
  }

  /** A mark per conversation holding the part: thousands of terms (a short prefix) cost one pass over their postings. */
  private conversationsWith(part: QueryTerm): { marked: Uint8Array; count: number } {
    const short = part.prefix && part.text.length <= SHORT_PREFIX ? part.text : undefined;
    const known = short === undefined ? undefined : this.shortPrefixes.get(short);
    if (known !== undefined) {
      this.shortPrefixes.delete(short!);
      this.shortPrefixes.set(short!, known);
      return known;
    }
    const marked = new Uint8Array(this.docs.length);
    let count = 0;
    for (const term of this.expand(part)) {
      const end = term + 1 < this.baseOffsets.length ? this.baseOffsets[term + 1]! : 0;
      for (let i = term + 1 < this.baseOffsets.length ? this.baseOffsets[term]! : 0; i < end; i++) {
        const slot = this.baseSlots[i]!;
        if (marked[slot] === 0) {
          marked[slot] = 1;
          count++;
        }
      }
      for (const slot of this.extra[term] ?? []) {
        if (marked[slot] === 0) {
          marked[slot] = 1;
          count++;
        }
      }
    }
    if (short !== undefined) {
      this.shortPrefixes.set(short, { marked, count });
      for (const oldest of this.shortPrefixes.keys()) {
        if (this.shortPrefixes.size <= SHORT_PREFIXES_KEPT) break;
        this.shortPrefixes.delete(oldest);
      }
    }
    return { marked, count };
  }

  /** Conversations were added or removed: what was found for short prefixes is found again. */
  private changed(): void {
    if (this.shortPrefixes.size > 0) this.shortPrefixes.clear();
  }

  /**
   * A mark per term of the vocabulary that is the part or, for a prefix, starts with it: checking
   * ten thousand titles then compares numbers, not strings.
   */
  private termMarks(part: QueryTerm): Uint8Array {
    const marks = new Uint8Array(this.vocabulary.length);
    for (const term of this.expand(part)) marks[term] = 1;
    return marks;
  }

  private intern(term: string): number {
    let id = this.termId.get(term);
    if (id === undefined) {
      id = this.vocabulary.length;
      this.vocabulary.push(term);
      this.termId.set(term, id);
      if (this.sorted !== undefined) this.unsorted.push(id);
    }
    return id;
  }

  private expand(part: QueryTerm): number[] {
    if (!part.prefix) {
      const id = this.termId.get(part.text);
      return id === undefined ? [] : [id];
    }
    const sorted = this.sortedVocabulary();
    const words = this.vocabulary;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[sorted[mid]!]! < part.text) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < sorted.length && words[sorted[i]!]!.startsWith(part.text); i++) out.push(sorted[i]!);
    return out;
  }

  /** Sorts the vocabulary ahead of the first search (after indexing, off the page's thread). */
  prepare(): void {
    this.sortedVocabulary();
  }

  private sortedVocabulary(): Uint32Array {
    const words = this.vocabulary;
    const order = (a: number, b: number): number => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0);
    if (this.sorted === undefined || this.unsorted.length > words.length / 4) {
      this.sorted = Uint32Array.from(words.keys()).sort(order);
    } else if (this.unsorted.length > 0) {
      // A few new terms (a reply that finished): merged into the sorted ones, not sorted again.
      const fresh = this.unsorted.sort(order);
      const merged = new Uint32Array(this.sorted.length + fresh.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < this.sorted.length || j < fresh.length) {
        merged[k++] = j >= fresh.length || (i < this.sorted.length && order(this.sorted[i]!, fresh[j]!) <= 0) ? this.sorted[i++]! : fresh[j++]!;
      }
      this.sorted = merged;
    }
    this.unsorted = [];
    return this.sorted;
  }

  /**
   * Merges the postings added since the last merge into the typed arrays, leaving out removed
   * conversations (the others are numbered again, in order).
   */
  private merge(): void {
    this.changed();
    if (this.extraCount === 0 && this.removed === 0) return;
    const renumber = new Int32Array(this.docs.length).fill(-1);
    const live: Doc[] = [];
    this.docs.forEach((d, slot) => {
      if (d === undefined) return;
      renumber[slot] = live.length;
      live.push(d);
    });
    const terms = this.vocabulary.length;
    const offsets = new Uint32Array(terms + 1);
    const oldOffsets = this.baseOffsets;
    const oldSlots = this.baseSlots;
    const baseTerms = oldOffsets.length - 1;
    for (let t = 0; t < terms; t++) {
      let n = 0;
      if (t < baseTerms) for (let i = oldOffsets[t]!; i < oldOffsets[t + 1]!; i++) if (renumber[oldSlots[i]!]! >= 0) n++;
      for (const slot of this.extra[t] ?? []) if (renumber[slot]! >= 0) n++;
      offsets[t + 1] = offsets[t]! + n;
    }
    const slots = new Uint32Array(offsets[terms]!);
    for (let t = 0; t < terms; t++) {
      let at = offsets[t]!;
      if (t < baseTerms) {
        for (let i = oldOffsets[t]!; i < oldOffsets[t + 1]!; i++) {
          const next = renumber[oldSlots[i]!]!;
          if (next >= 0) slots[at++] = next;
        }
      }
      for (const slot of this.extra[t] ?? []) {
        const next = renumber[slot]!;
        if (next >= 0) slots[at++] = next;
      }
    }
    this.baseOffsets = offsets;
    this.baseSlots = slots;
    this.extra = [];
    this.extraCount = 0;
    this.docs = live;
    this.removed = 0;
    this.slotOf.clear();
    live.forEach((d, slot) => this.slotOf.set(d.id, slot));
  }
}

const SavedIndexSchema = z.object({
  version: z.literal(INDEX_FORMAT),
  vocabulary: z.array(z.string()),
  ids: z.array(z.string()),
  updatedAt: z.instanceof(Float64Array),
  offsets: z.instanceof(Uint32Array),
  slots: z.instanceof(Uint32Array),
  titleOffsets: z.instanceof(Uint32Array),
  titleIds: z.instanceof(Uint32Array),
}).check(z.refine((v) => v.updatedAt.length === v.ids.length && v.offsets.length === v.vocabulary.length + 1 && v.titleOffsets.length === v.ids.length + 1
  && v.offsets[v.vocabulary.length] === v.slots.length && v.titleOffsets[v.ids.length] === v.titleIds.length
  // Every posting names a conversation that is there.
  && v.slots.every((slot) => slot < v.ids.length)));

function isSavedIndex(value: unknown): value is SavedIndex {
  return SavedIndexSchema.safeParse(value).success;
}
