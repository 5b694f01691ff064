import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ConversationIndex } from '@/lib/search/conversation-index';
import { SearchIndexer } from '@/lib/search/indexer';
import { indexTerms, queryTerms, searchable, snippet } from '@/lib/search/tokens';
import { bestMatch } from '@/lib/search/search-service';
import { ConversationStore } from '@/lib/conversations/store';
import type { Message } from '@/lib/conversations/records';

const doc = (id: string, title: string, texts: string[], updatedAt = 1) => ({ id, title, texts, updatedAt });

describe('terms', () => {
  it('splits words, lowercases, and indexes CJK runs by pairs of characters', () => {
    expect([...indexTerms('Hello, WORLD! naïve')]).toEqual(['hello', 'world', 'naïve']);
    expect([...indexTerms('我喜欢猫')]).toEqual(['我喜', '喜欢', '欢猫', '猫']);
    expect(queryTerms('喜欢猫 hel')).toEqual([{ text: '喜欢', prefix: false }, { text: '欢猫', prefix: false }, { text: 'hel', prefix: true }]);
    expect(queryTerms('猫')).toEqual([{ text: '猫', prefix: true }]);
  });
});

describe('ranking', () => {
  const index = new ConversationIndex();
  index.put(doc('body', 'Weekend plans', ['We talked about the quantum computer for a while'], 3));
  index.put(doc('title', 'Quantum computer notes', ['Qubits and gates'], 1));
  index.put(doc('other', 'Cooking', ['A recipe for soup'], 5));
  index.put(doc('zh', '周末', ['我们讨论了量子计算机的原理']), );

  it('finds every conversation holding all the words, the title match first', () => {
    expect(index.search('quantum computer').map((h) => h.id)).toEqual(['title', 'body']);
    expect(index.search('quantum soup')).toEqual([]);
  });

  it('matches as you type (prefixes) and ignores case and accents of width', () => {
    expect(index.search('QUANT').map((h) => h.id)).toEqual(['title', 'body']);
    expect(index.search('reci').map((h) => h.id)).toEqual(['other']);
  });

  it('finds a Chinese phrase inside a sentence with no spaces, and not its characters scattered', () => {
    expect(index.search('量子计算').map((h) => h.id)).toEqual(['zh']);
    expect(index.search('计算机').map((h) => h.id)).toEqual(['zh']);
    expect(index.search('量').map((h) => h.id)).toEqual(['zh']);
    expect(index.search('量机')).toEqual([]);
  });

  it('a rarer word weighs more; ties go to the newer conversation', () => {
    const i = new ConversationIndex();
    i.put(doc('old', 'a', ['common rare'], 1));
    i.put(doc('new', 'b', ['common rare'], 9));
    i.put(doc('c', 'c', ['common'], 2));
    expect(i.search('common rare').map((h) => h.id)).toEqual(['new', 'old']);
  });

  it('replacing and removing a conversation changes what is found', () => {
    const i = new ConversationIndex();
    i.put(doc('a', 't', ['alpha']));
    i.put(doc('a', 't', ['beta']));
    expect(i.search('alpha')).toEqual([]);
    expect(i.search('beta').map((h) => h.id)).toEqual(['a']);
    i.remove('a');
    expect(i.search('beta')).toEqual([]);
    expect(i.size).toBe(0);
  });

  it('saves to typed arrays and loads back the same answers; a damaged save is refused', () => {
    const loaded = ConversationIndex.load(structuredClone(index.save()))!;
    expect(loaded.search('quantum computer').map((h) => h.id)).toEqual(['title', 'body']);
    expect(loaded.search('量子').map((h) => h.id)).toEqual(['zh']);
    const damaged = { ...index.save(), slots: new Uint32Array(1) };
    expect(ConversationIndex.load(damaged)).toBeUndefined();
    expect(ConversationIndex.load({ version: 99 })).toBeUndefined();
  });

  it('stays correct through many removals (compaction)', () => {
    const i = new ConversationIndex();
    for (let n = 0; n < 300; n++) i.put(doc(`d${n}`, 't', [`word${n % 3} shared`]));
    for (let n = 0; n < 200; n++) i.remove(`d${n}`);
    expect(i.size).toBe(100);
    expect(i.search('shared')).toHaveLength(50);
    expect(i.search('word0', 500).every((h) => Number(h.id.slice(1)) >= 200)).toBe(true);
  });
});

describe('the first letters typed', () => {
  it('a short prefix found once is found the same again, and anew after the index changed', () => {
    const index = new ConversationIndex();
    index.put(doc('a', 'Quiet', ['queue'], 1));
    index.put(doc('b', 'Other', ['quilt'], 2));
    expect(index.search('q').map((h) => h.id)).toEqual(['a', 'b']);
    expect(index.search('q').map((h) => h.id)).toEqual(['a', 'b']);
    expect(index.search('qu').map((h) => h.id)).toEqual(['a', 'b']);
    index.put(doc('c', 'Quartz', [], 3));
    expect(index.search('q').map((h) => h.id)).toEqual(['c', 'a', 'b']);
    index.remove('a');
    expect(index.search('qu').map((h) => h.id)).toEqual(['c', 'b']);
    index.put(doc('b', 'Other', ['nothing here'], 4));
    expect(index.search('q').map((h) => h.id)).toEqual(['c']);
  });
});

describe('the best of many', () => {
  it('a limit keeps the same best hits, in the same order, as ranking every one', () => {
    const index = new ConversationIndex();
    const words = ['apple', 'apricot', 'avocado', 'banana'];
    for (let i = 0; i < 400; i++) {
      // Titles and texts vary the score; updatedAt repeats, so ties are broken by it and then stay stable.
      index.put(doc(`c${i}`, i % 7 === 0 ? `${words[i % 4]} notes` : 'notes', [`${words[(i * 3) % 4]} and ${words[(i * 5) % 4]}`], i % 50));
    }
    for (const query of ['a', 'ap', 'apple', 'a b']) {
      const all = index.search(query, 1_000);
      for (const limit of [1, 10, 50]) expect(index.search(query, limit)).toEqual(all.slice(0, limit));
      // Best first: by score, then the newer.
      for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score >= all[i]!.score).toBe(true);
    }
  });
});

describe('highlighting', () => {
  it('marks each word where a word begins, in a snippet around the first one', () => {
    const s = snippet('Before that. The Quantum computer, quantum again; subquantum is not.', 'quantum')!;
    expect(s.marks.map(([a, b]) => s.text.slice(a, b))).toEqual(['Quantum', 'quantum']);
    expect(s.marks).toHaveLength(2);
  });

  it('marks a Chinese phrase anywhere, and cuts long text with ellipses', () => {
    const long = `${'前言。'.repeat(60)}我们讨论了量子计算机的原理${'后记。'.repeat(60)}`;
    const s = snippet(long, '量子计算')!;
    expect(s.text.startsWith('…')).toBe(true);
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.marks.map(([a, b]) => s.text.slice(a, b))).toEqual(['量子计算']);
  });

  it('gives nothing when the text does not hold the query', () => {
    expect(snippet('nothing here', 'quantum')).toBeUndefined();
  });

  it('stays quick on a long text full of matches, marking only those it shows', () => {
    const text = 'quantum '.repeat(250_000);
    // Two million characters, every word a match: only the shown part is marked (the old way
    // compared every match with every other, which took minutes here).
    const s = snippet(text, 'quantum q')!;
    expect(s.matched).toBe(2);
    expect(s.marks.length).toBeGreaterThan(10);
    // The longer piece wins where both match; the shorter one marks a word cut off at the end.
    expect(s.marks.slice(0, -1).every(([a, b]) => s.text.slice(a, b) === 'quantum')).toBe(true);
    expect(['quantum', 'q']).toContain(s.text.slice(...s.marks.at(-1)!));
  });

  it("a conversation's snippet comes from the message holding most of the query's words (the newest among equals)", () => {
    const prepared = (id: string, text: string) => ({ id, ...searchable(text) });
    const messages = [prepared('a', 'pelican notes'), prepared('b', 'pelican and heron notes'), prepared('c', 'heron only'), prepared('d', 'a heron and a pelican')];
    expect(bestMatch(messages, 'pelican heron')?.messageId).toBe('d');
    expect(bestMatch(messages, 'notes')?.messageId).toBe('b');
    expect(bestMatch(messages, 'albatross')).toBeUndefined();
  });
});

describe('the indexer', () => {
  const message = (conversationId: string, seq: number, text: string, extra: Partial<Message> = {}): Message => ({
    id: `${conversationId}-${seq}`, conversationId, seq, role: seq % 2 === 0 ? 'user' : 'assistant', text, reasoning: '', status: 'complete', createdAt: seq, ...extra,
  });
  let n = 0;
  const fresh = async (): Promise<ConversationStore> => {
    const store = new ConversationStore(`search-${n++}`);
    await store.addTurn({ conversation: { id: 'c1', title: 'Garden', createdAt: 1, updatedAt: 1, profileId: 'p', model: 'm', surface: 'popup' }, created: true, messages: [message('c1', 0, 'how to grow tomatoes'), message('c1', 1, 'Plenty of sunlight and water')] });
    return store;
  };

  it('indexes on open, again when a reply finishes (not while it streams), and forgets a deleted conversation', async () => {
    const store = await fresh();
    const indexer = new SearchIndexer(store, { saveDelayMs: 0 });
    expect((await indexer.search('sunlight')).map((h) => h.id)).toEqual(['c1']);

    // A reply streaming: its partial saves do not reach the index.
    await store.addMessage(message('c1', 2, 'and compost?'));
    await store.addMessage(message('c1', 3, '', { status: 'streaming' }));
    await store.updateMessage('c1-3', { text: 'Compost helps with nitrogen' });
    await indexer.catchUp();
    expect(await indexer.search('nitrogen')).toEqual([]);
    // It ends: found.
    await store.updateMessage('c1-3', { status: 'complete' });
    await store.updateConversation('c1', {});
    await indexer.catchUp();
    expect((await indexer.search('nitrogen')).map((h) => h.id)).toEqual(['c1']);

    await store.deleteConversation('c1');
    await indexer.catchUp();
    expect(await indexer.search('sunlight')).toEqual([]);
  });

  it('survives a restart without rebuilding: the saved index is loaded and only changes are read', async () => {
    const store = await fresh();
    const first = new SearchIndexer(store);
    await first.open();
    await first.save();
    const read: string[][] = [];
    const original = store.messageTexts.bind(store);
    store.messageTexts = async (ids) => {
      read.push([...ids]);
      return original(ids);
    };
    const second = new SearchIndexer(store);
    expect((await second.search('tomatoes')).map((h) => h.id)).toEqual(['c1']);
    expect(read).toEqual([]);
    // An imported conversation (an older time than the saved index) is still picked up.
    await store.importConversations([{ conversation: { id: 'old', title: 'Imported', createdAt: 0, updatedAt: 0, profileId: 'p', model: 'm', surface: 'chat' }, messages: [message('old', 0, 'pelargonium cuttings')] }]);
    await second.catchUp();
    expect((await second.search('pelargonium')).map((h) => h.id)).toEqual(['old']);
    expect(read).toEqual([['old']]);
  });
});
