/**
 * Full-text search over every conversation: an inverted index from terms (see tokens.ts) to the
 * conversations that hold them, compact enough for years of history.
 *
 * Why not MiniSearch or FlexSearch: measured with 10,000 conversations of 400 words each (the
 * bench's size), MiniSearch held 147 MB of heap and took 1.1 s to load its saved JSON (one long
 * task); FlexSearch's prefix mode ("forward") 140 MB, its exact mode 42 MB but no search as you
 * type. Here each posting is one integer in a typed array once saved (about 10 MB for the same
 * history), the vocabulary is sorted for prefix search, and the saved form is typed arrays
 * that IndexedDB stores and loads without parsing.
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
  terms: Uint32Array;
  /** Ids of the title's terms (a small sorted set). */
  titleTerms: Uint32Array;
}

/** The index as saved: typed arrays and strings, no JSON. */
export interface SavedIndex {
  version: typeof INDEX_FORMAT;
  vocabulary: string[];
  ids: string[];
  updatedAt: Float64Array;
  /** Doc i's terms are termIds[termOffsets[i] .. termOffsets[i + 1]). */
  termOffsets: Uint32Array;
  termIds: Uint32Array;
  titleOffsets: Uint32Array;
  titleIds: Uint32Array;
}

export const INDEX_FORMAT = 1;

/** Removed documents are compacted away when they pass this share of the slots. */
const GARBAGE = 0.25;

export class ConversationIndex {
  private readonly termId = new Map<string, number>();
  private vocabulary: string[] = [];
  /** For each term, the slots of the documents holding it (slots of removed ones included until compaction). */
  private postings: number[][] = [];
  private docs: (Doc | undefined)[] = [];
  private readonly slotOf = new Map<string, number>();
  private removed = 0;
  /** The vocabulary's term ids in alphabetical order (for prefixes), rebuilt when new terms came. */
  private sorted: Uint32Array | undefined;

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
    const terms = new Set<string>();
    indexTerms(conversation.title, terms);
    const titleTerms = [...terms].map((t) => this.intern(t)).sort((a, b) => a - b);
    for (const text of conversation.texts) indexTerms(text, terms);
    const ids = [...terms].map((t) => this.intern(t));
    this.insert({ id: conversation.id, updatedAt: conversation.updatedAt, terms: Uint32Array.from(ids), titleTerms: Uint32Array.from(titleTerms) });
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.docs[slot] = undefined;
    this.removed++;
    if (this.removed > 64 && this.removed > this.docs.length * GARBAGE) this.compact();
  }

  /**
   * The conversations holding every part of the query, best first: a part found in the title
   * counts three times, a rarer term more than a common one, and ties go to the newer.
   */
  search(query: string, limit = 50): SearchHit[] {
    const parts = queryTerms(query);
    if (parts.length === 0) return [];
    const matches: { part: QueryTerm; terms: number[]; slots: Set<number> }[] = [];
    for (const part of parts) {
      const terms = this.expand(part);
      const slots = new Set<number>();
      for (const term of terms) for (const slot of this.postings[term]!) slots.add(slot);
      if (slots.size === 0) return [];
      matches.push({ part, terms, slots });
    }
    // Walk the rarest part's documents and check the others.
    matches.sort((a, b) => a.slots.size - b.slots.size);
    const live = this.slotOf.size || 1;
    const hits: SearchHit[] = [];
    for (const slot of matches[0]!.slots) {
      const doc = this.docs[slot];
      if (doc === undefined) continue;
      let score = 0;
      let inTitle = true;
      let all = true;
      for (const match of matches) {
        if (match !== matches[0] && !match.slots.has(slot)) {
          all = false;
          break;
        }
        const idf = Math.log(1 + live / match.slots.size);
        const titled = match.terms.some((t) => binaryHas(doc.titleTerms, t));
        if (!titled) inTitle = false;
        score += idf * (titled ? 3 : 1);
      }
      if (all) hits.push({ id: doc.id, score, inTitle });
    }
    const updated = (id: string): number => this.updatedAtOf(id) ?? 0;
    hits.sort((a, b) => b.score - a.score || updated(b.id) - updated(a.id));
    return hits.slice(0, limit);
  }

  save(): SavedIndex {
    const live = this.docs.filter((d): d is Doc => d !== undefined);
    const termOffsets = new Uint32Array(live.length + 1);
    const titleOffsets = new Uint32Array(live.length + 1);
    live.forEach((d, i) => {
      termOffsets[i + 1] = termOffsets[i]! + d.terms.length;
      titleOffsets[i + 1] = titleOffsets[i]! + d.titleTerms.length;
    });
    const termIds = new Uint32Array(termOffsets[live.length]!);
    const titleIds = new Uint32Array(titleOffsets[live.length]!);
    live.forEach((d, i) => {
      termIds.set(d.terms, termOffsets[i]!);
      titleIds.set(d.titleTerms, titleOffsets[i]!);
    });
    return {
      version: INDEX_FORMAT, vocabulary: [...this.vocabulary], ids: live.map((d) => d.id), updatedAt: Float64Array.from(live.map((d) => d.updatedAt)),
      termOffsets, termIds, titleOffsets, titleIds,
    };
  }

  /** An index as saved; undefined when it is not one this version can read. */
  static load(saved: unknown): ConversationIndex | undefined {
    if (!isSavedIndex(saved)) return undefined;
    const index = new ConversationIndex();
    index.vocabulary = [...saved.vocabulary];
    saved.vocabulary.forEach((term, i) => index.termId.set(term, i));
    index.postings = saved.vocabulary.map(() => []);
    for (let i = 0; i < saved.ids.length; i++) {
      const terms = saved.termIds.subarray(saved.termOffsets[i]!, saved.termOffsets[i + 1]!);
      if (terms.some((t) => t >= index.vocabulary.length)) return undefined;
      index.insert({ id: saved.ids[i]!, updatedAt: saved.updatedAt[i]!, terms, titleTerms: saved.titleIds.subarray(saved.titleOffsets[i]!, saved.titleOffsets[i + 1]!) });
    }
    return index;
  }

  private insert(doc: Doc): void {
    const slot = this.docs.length;
    this.docs.push(doc);
    this.slotOf.set(doc.id, slot);
    for (const term of doc.terms) this.postings[term]!.push(slot);
  }

  private intern(term: string): number {
    let id = this.termId.get(term);
    if (id === undefined) {
      id = this.vocabulary.length;
      this.vocabulary.push(term);
      this.termId.set(term, id);
      this.postings.push([]);
      this.sorted = undefined;
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

  private sortedVocabulary(): Uint32Array {
    if (this.sorted === undefined) {
      const words = this.vocabulary;
      this.sorted = Uint32Array.from(words.keys()).sort((a, b) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0));
    }
    return this.sorted;
  }

  /** Drops removed documents' slots from every posting list. */
  private compact(): void {
    const live = this.docs.filter((d): d is Doc => d !== undefined);
    this.docs = [];
    this.slotOf.clear();
    this.postings = this.vocabulary.map(() => []);
    this.removed = 0;
    for (const doc of live) this.insert(doc);
  }
}

function binaryHas(sorted: Uint32Array, value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid]!;
    if (at === value) return true;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

const SavedIndexSchema = z.object({
  version: z.literal(INDEX_FORMAT),
  vocabulary: z.array(z.string()),
  ids: z.array(z.string()),
  updatedAt: z.instanceof(Float64Array),
  termOffsets: z.instanceof(Uint32Array),
  termIds: z.instanceof(Uint32Array),
  titleOffsets: z.instanceof(Uint32Array),
  titleIds: z.instanceof(Uint32Array),
}).check(z.refine((v) => v.updatedAt.length === v.ids.length && v.termOffsets.length === v.ids.length + 1 && v.titleOffsets.length === v.ids.length + 1
  && v.termOffsets[v.ids.length] === v.termIds.length && v.titleOffsets[v.ids.length] === v.titleIds.length));

function isSavedIndex(value: unknown): value is SavedIndex {
  return SavedIndexSchema.safeParse(value).success;
}
