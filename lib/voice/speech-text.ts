/**
 * A reply made ready to be read aloud (issue 32, "Read aloud"): its markdown parsed as the
 * renderer parses it (markdown-it with the same formula rules), its marks dropped (emphasis, link
 * targets, headings' hashes), and what is not prose replaced by what the page says of it (a code
 * block by its language and length, a formula, an image by its description, a table by its size),
 * then cut into sentences and grouped into pieces for the speech model: the first piece one short
 * sentence, so speech starts within a second; the rest up to a size, so a long reply costs few
 * requests. This module returns the model's own text and the words `say` gives it: it makes no
 * sentences of its own (the page words them through the i18n layer).
 */
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { mathPlugin } from '../render/math';

/** What is read as something the page words, not as its text. */
export type SpokenPart =
  | { kind: 'code'; language: string; lines: number }
  | { kind: 'formula' }
  | { kind: 'image'; alt: string }
  | { kind: 'table'; rows: number; columns: number };

export interface SpeechPieceOptions {
  /** The page's words for a part that is not prose (without a full stop: one is added where needed). */
  say(part: SpokenPart): string;
  /** The first piece ends after this many characters at most (a sentence, or a cut at a comma or space). */
  firstChars?: number;
  /** Later pieces group sentences up to this many characters. */
  maxChars?: number;
  /** The language of the reply, for its sentences (the browser's rules when unset). */
  locale?: string;
}

const md = new MarkdownIt({ html: false, linkify: false, breaks: false }).use(mathPlugin);

/** Sentence ends in the scripts replies are written in (Latin, CJK full-width, Devanagari, Arabic). */
const ENDS_SENTENCE = /[.!?。！？…;；:：।؟]["'”’)\]」』）]*$/;

/** A block's text, ending as a sentence. */
function sentence(text: string): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (trimmed === '') return '';
  return ENDS_SENTENCE.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** An inline token's children as text: marks dropped, formulas and images as the page says them. */
function inlineText(children: readonly Token[], say: SpeechPieceOptions['say']): string {
  let text = '';
  for (const child of children) {
    switch (child.type) {
      case 'text':
      case 'code_inline':
        text += child.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += ' ';
        break;
      case 'image':
        text += ` ${say({ kind: 'image', alt: child.content || (child.children ?? []).map((c) => c.content).join('') })} `;
        break;
      case 'math_inline':
      case 'math_inline_display':
        text += ` ${say({ kind: 'formula' })} `;
        break;
      default:
        break;
    }
  }
  return text;
}

/** The reply's text to be spoken, block by block, each ending as a sentence. */
export function speechText(markdown: string, say: SpeechPieceOptions['say']): string[] {
  const tokens = md.parse(markdown, {});
  const blocks: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    switch (token.type) {
      case 'inline':
        blocks.push(sentence(inlineText(token.children ?? [], say)));
        break;
      case 'fence':
      case 'code_block': {
        const language = token.info.trim().split(/\s+/, 1)[0] ?? '';
        const lines = token.content.replace(/\n$/, '').split('\n').length;
        blocks.push(sentence(say({ kind: 'code', language, lines })));
        break;
      }
      case 'math_block':
        blocks.push(sentence(say({ kind: 'formula' })));
        break;
      case 'table_open': {
        // A table is said by its size; its cells are not read one by one.
        let rows = 0;
        let columns = 0;
        let cells = 0;
        let j = i + 1;
        for (; j < tokens.length && tokens[j]!.type !== 'table_close'; j++) {
          const t = tokens[j]!;
          if (t.type === 'tr_open') {
            rows++;
            cells = 0;
          } else if (t.type === 'th_open' || t.type === 'td_open') columns = Math.max(columns, ++cells);
        }
        blocks.push(sentence(say({ kind: 'table', rows, columns })));
        i = j;
        break;
      }
      default:
        break;
    }
  }
  return blocks.filter((block) => block !== '');
}

/** `text` as sentences, by the locale's rules where the platform has them. */
function sentences(text: string, locale: string | undefined): string[] {
  if (typeof Intl !== 'undefined' && 'Segmenter' in Intl) {
    const segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
    return [...segmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s !== '');
  }
  return (text.match(/[^.!?。！？]+[.!?。！？]*\s*/g) ?? [text]).map((s) => s.trim()).filter((s) => s !== '');
}

/** A sentence longer than `max`, cut after a comma (or a space) before `max` where there is one. */
function cut(sentence: string, max: number): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const at = Math.max(window.lastIndexOf(', '), window.lastIndexOf('，'), window.lastIndexOf('、'));
    const space = window.lastIndexOf(' ');
    const end = at > max / 3 ? at + 1 : space > max / 3 ? space : max;
    out.push(rest.slice(0, end).trim());
    rest = rest.slice(end).trim();
  }
  if (rest !== '') out.push(rest);
  return out;
}

/**
 * The pieces a reply is spoken in, in order: the first one sentence (cut at `firstChars`), the
 * others whole sentences grouped up to `maxChars` (a longer sentence cut, never past `maxChars`).
 */
export function speechPieces(markdown: string, options: SpeechPieceOptions): string[] {
  const firstChars = options.firstChars ?? 160;
  const maxChars = options.maxChars ?? 600;
  const all = speechText(markdown, options.say).flatMap((block) => sentences(block, options.locale));
  const pieces: string[] = [];
  let current = '';
  for (const whole of all) {
    const limit = pieces.length === 0 && current === '' ? firstChars : maxChars;
    for (const part of cut(whole, limit)) {
      if (pieces.length === 0 && current === '') {
        // The first piece is the first sentence alone: speech starts as soon as it is spoken.
        pieces.push(part);
        continue;
      }
      if (current !== '' && current.length + 1 + part.length > maxChars) {
        pieces.push(current);
        current = '';
      }
      current = current === '' ? part : `${current} ${part}`;
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}
