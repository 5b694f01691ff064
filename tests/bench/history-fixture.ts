/**
 * A year of a daily user's history, made up deterministically for the workspace bench: our
 * export format (gateway-chat-history v1) with 10,000 conversations and about 200,000 messages,
 * a tenth of them in Chinese, and one conversation of 1,000 messages (2 MB of text).
 */
import { HISTORY_FORMAT, HISTORY_VERSION } from '../../lib/transfer/history-file';

export const LONG_CONVERSATION = 'bench-long';
/** Words the bench searches for, planted where the text generator puts them. */
export const RARE_WORD = 'quokkaplasm';

/** The message of the long conversation that holds the rare word (about a third of the way in). */
export function plantedAt(longMessages: number): number {
  return Math.floor(longMessages * 0.3) | 1;
}

/** A small, fast, seeded random number generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ter', 'an', 'ver', 'sto', 'pel', 'ri', 'con', 'da', 'fen', 'gu', 'hal', 'ist', 'jor', 'ne', 'ple', 'qua', 'sen', 'ti', 'un', 'wex', 'yo', 'zan', 'bre', 'cal', 'dor', 'el', 'for'];
const CJK = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞';

/** A vocabulary of made-up words, used with a skew (a few common, most rare), like real text. */
function vocabulary(rand: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 1 + Math.floor(rand() * 3);
    let word = '';
    for (let i = 0; i < n; i++) word += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

export interface BenchHistory {
  /** The file's text, as an export writes it. */
  text: string;
  conversations: number;
  messages: number;
  /** A word that occurs in a reply of the long conversation (only there). */
  rareWord: string;
  /** Ids of the long conversation's first and last messages. */
  longFirst: string;
  longLast: string;
}

export function benchHistory(conversationCount = 10_000, messagesEach = 20, longMessages = 1_000): BenchHistory {
  const rand = random(20261123);
  const words = vocabulary(rand, 20_000);
  const word = (): string => words[Math.floor(words.length * rand() ** 3)]!;
  const sentence = (): string => {
    const n = 6 + Math.floor(rand() * 14);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(word());
    const s = parts.join(' ');
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  };
  const chinese = (length: number): string => {
    let s = '';
    for (let i = 0; i < length; i++) s += CJK[Math.floor(CJK.length * rand() ** 2)];
    return `${s}。`;
  };
  /** A paragraph of about `length` characters. */
  const paragraph = (length: number, zh: boolean): string => {
    let p = '';
    while (p.length < length) p += (p === '' ? '' : ' ') + (zh ? chinese(12 + Math.floor(rand() * 20)) : sentence());
    return p;
  };
  /** A reply with the markdown replies have: paragraphs, a list, now and then code. */
  const reply = (length: number, zh: boolean): string => {
    const blocks: string[] = [];
    let size = 0;
    while (size < length) {
      const kind = rand();
      let block: string;
      if (kind < 0.12) block = `## ${paragraph(30, zh)}`;
      else if (kind < 0.3) block = Array.from({ length: 3 + Math.floor(rand() * 3) }, () => `- ${paragraph(60, zh)}`).join('\n');
      else if (kind < 0.38) block = `\`\`\`ts\nconst ${word()} = ${word()}(${word()}, ${Math.floor(rand() * 100)});\nfor (const ${word()} of ${word()}) console.log(${word()});\n\`\`\``;
      else block = paragraph(150 + Math.floor(rand() * 250), zh);
      blocks.push(block);
      size += block.length;
    }
    return blocks.join('\n\n');
  };

  const now = Date.UTC(2026, 10, 23, 12);
  const year = 365 * 86_400_000;
  const records: unknown[] = [];
  let messageCount = 0;
  let longFirst = '';
  let longLast = '';
  for (let c = 0; c < conversationCount; c++) {
    const long = c === 0;
    const id = long ? LONG_CONVERSATION : `bench-${c}`;
    const zh = !long && c % 10 === 3;
    const count = long ? longMessages : messagesEach;
    // Spread over a year, newest first; the long one is the newest.
    const updatedAt = now - Math.floor((c / conversationCount) * year) - (long ? 0 : 60_000);
    const createdAt = updatedAt - count * 60_000;
    const messages: Record<string, unknown>[] = [];
    let parent: string | null = null;
    for (let m = 0; m < count; m++) {
      const role = m % 2 === 0 ? 'user' : 'assistant';
      const messageId = `${id}-m${m}`;
      let text = role === 'user'
        ? paragraph(long ? 900 : 20 + Math.floor(rand() * 150), zh)
        : reply(long ? 3_000 : 100 + Math.floor(rand() * 500), zh);
      if (long && m === plantedAt(longMessages)) text += ` The ${RARE_WORD} answer is here.`;
      const message: Record<string, unknown> = {
        id: messageId, conversationId: id, seq: m, role, parentId: parent, text, reasoning: '', status: 'complete',
        createdAt: createdAt + m * 60_000,
      };
      if (role === 'assistant') {
        message.model = 'echo-1';
        message.usage = { promptTokens: 200 + m * 40, completionTokens: Math.round(text.length / 4) };
      }
      messages.push(message);
      parent = messageId;
    }
    if (long) {
      longFirst = String(messages[0]!.id);
      longLast = String(messages.at(-1)!.id);
    }
    messageCount += messages.length;
    const title = long ? 'A long conversation about everything' : zh ? paragraph(10, true).slice(0, 16) : sentence().slice(0, 48);
    records.push({
      conversation: { id, title, createdAt, updatedAt, profileId: 'p1', model: 'echo-1', surface: c % 3 === 0 ? 'popup' : c % 3 === 1 ? 'sidepanel' : 'chat', replyStatus: 'complete' },
      messages,
    });
  }
  const text = JSON.stringify({ format: HISTORY_FORMAT, version: HISTORY_VERSION, exportedAt: now, conversations: records });
  return { text, conversations: conversationCount, messages: messageCount, rareWord: RARE_WORD, longFirst, longLast };
}
