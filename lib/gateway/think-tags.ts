/**
 * Splitting `<think>…</think>` reasoning out of streamed content, chunk by chunk, without
 * regexes over the whole text. Tags may be split across chunks. `<think>` counts only at
 * the start of the content. After the first think block, content passes through.
 *
 * A lone `</think>` is the hard case. Servers that put the opening `<think>` in the prompt
 * (DeepSeek-R1 distills behind vLLM without a reasoning parser) send thousands of characters
 * of reasoning, blank lines and all, then `</think>`, then the answer: the text before it is
 * reasoning. But an answer may also merely mention the tag (explaining a page that holds
 * it), and then hiding its first part would be wrong. The rule that serves both:
 *
 *   a lone `</think>` moves the text before it into reasoning only when it is the first
 *   `</think>` of the reply, no `<think>` and no fenced code block (``` or ~~~) came before
 *   it, and the tag itself is not quoted: not inside an inline code span (an odd number of
 *   backticks before it on its line), not on a block-quote line (`>`), not right after a
 *   quotation mark.
 *
 * Reasoning rarely opens a fence or quotes the tag; an answer that talks about the tag almost
 * always does one of these. And when the gateway sends reasoning in its own field
 * (`reasoning_content`, `reasoning`), it has already separated it: a lone `</think>` in the
 * content can then only be a quotation, and is left alone (`separateReasoning`). When the rule still guesses wrong, nothing is lost: the moved text
 * is marked (`movedFromText`), kept in the reasoning, and the UI can put it back.
 */

export type Segment =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; movedFromText?: true };

/** Where segments go: the caller's event list. */
export interface SegmentSink {
  push(segment: Segment): unknown;
}

const OPEN = '<think>';
const CLOSE = '</think>';

type State = 'start' | 'think' | 'watching' | 'after-think' | 'passthrough';

/** The longest end of `text` that is the beginning of `tag` (a tag cut by the chunk boundary). */
function partialTagAtEnd(text: string, tag: string): number {
  const max = Math.min(tag.length - 1, text.length);
  for (let n = max; n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

/**
 * How many recent pieces the watcher keeps (a power of two): enough for the line a tag stands
 * on. A line longer than that is judged by its last pieces.
 */
const RECENT = 64;
const QUOTE_MARKS = '"\'“‘「『«`';

function opensFence(text: string): boolean {
  return text.includes('```') || text.includes('~~~');
}

/** Whether a lone `</think>` standing after `line` (its line so far) is quoted rather than a tag. */
function quotedAt(line: string): boolean {
  if (/^\s*>/.test(line)) return true;
  if (line.length > 0 && QUOTE_MARKS.includes(line[line.length - 1] ?? '')) return true;
  let ticks = 0;
  for (let i = line.indexOf('`'); i !== -1; i = line.indexOf('`', i + 1)) ticks++;
  return ticks % 2 === 1;
}

export class ThinkTagSplitter {
  private state: State = 'start';
  private pending = '';
  private emittedText = false;
  /**
   * While watching: the last pieces of text emitted (references in a ring: one write a delta,
   * which is all the common case can afford). They are read only when a lone `</think>`
   * appears, to judge the line it stands on.
   */
  private readonly recent: string[] = new Array<string>(RECENT).fill('');
  private count = 0;
  /**
   * False when the caller knows the coming pieces hold no backtick or tilde (a network read
   * without any), so they need not be searched for a fence one by one.
   */
  fenceMarks = true;

  /** The gateway sends reasoning in a field of its own: stop watching the content for a lone `</think>`. */
  separateReasoning(): void {
    if (this.state === 'watching') this.state = 'passthrough';
    this.separate = true;
  }

  private separate = false;

  /** Splits one chunk of content, appending its segments to `out`. */
  push(chunk: string, out: SegmentSink): void {
    // The common case, on every delta: nothing held back and nothing in this chunk that could
    // start a tag, a fence or a code span.
    if (this.pending === '') {
      if (this.state === 'passthrough') {
        this.emitText(chunk, out);
        return;
      }
      if (this.state === 'watching' && !chunk.includes('<')) {
        this.emitWatched(chunk, out);
        return;
      }
    }
    this.consume(this.pending + chunk, out);
  }

  /** End of content: whatever was held back for a possible tag is delivered as it stands. */
  flush(out: SegmentSink): void {
    const rest = this.pending;
    this.pending = '';
    if (rest === '') return;
    if (this.state === 'think') {
      out.push({ type: 'reasoning', text: rest });
    } else if (this.state === 'start' || this.state === 'after-think') {
      const text = rest.trimStart();
      if (text !== '') out.push({ type: 'text', text });
    } else {
      out.push({ type: 'text', text: rest });
    }
  }

  private consume(input: string, out: SegmentSink): void {
    let buf = input;
    this.pending = '';
    for (;;) {
      switch (this.state) {
        case 'start': {
          const trimmed = buf.trimStart();
          if (trimmed === '' || (trimmed.length < OPEN.length && OPEN.startsWith(trimmed))) {
            this.pending = buf;
            return;
          }
          if (trimmed.startsWith(OPEN)) {
            this.state = 'think';
            buf = trimmed.slice(OPEN.length);
          } else {
            this.state = this.separate ? 'passthrough' : 'watching';
          }
          continue;
        }
        case 'think': {
          const end = buf.indexOf(CLOSE);
          if (end !== -1) {
            if (end > 0) out.push({ type: 'reasoning', text: buf.slice(0, end) });
            this.state = 'after-think';
            buf = buf.slice(end + CLOSE.length);
            continue;
          }
          const hold = partialTagAtEnd(buf, CLOSE);
          if (buf.length > hold) out.push({ type: 'reasoning', text: buf.slice(0, buf.length - hold) });
          this.pending = buf.slice(buf.length - hold);
          return;
        }
        case 'watching': {
          const end = buf.indexOf(CLOSE);
          const open = buf.indexOf(OPEN);
          if (open !== -1 && (end === -1 || open < end)) {
            // A <think> inside the answer: the text talks about tags; stop looking for them.
            this.state = 'passthrough';
            continue;
          }
          if (end !== -1) {
            const before = buf.slice(0, end);
            const prior = this.recentText() + before;
            if (opensFence(prior) || quotedAt(prior.slice(prior.lastIndexOf('\n') + 1))) {
              // The answer shows code or quotes the tag: it stays text, and no later tag counts.
              this.state = 'passthrough';
              continue;
            }
            if (this.emittedText) out.push({ type: 'reasoning', text: before, movedFromText: true });
            else if (before.trim() !== '') out.push({ type: 'reasoning', text: before });
            this.state = 'after-think';
            buf = buf.slice(end + CLOSE.length);
            continue;
          }
          const hold = Math.max(partialTagAtEnd(buf, CLOSE), partialTagAtEnd(buf, OPEN));
          this.emitWatched(buf.slice(0, buf.length - hold), out);
          this.pending = buf.slice(buf.length - hold);
          return;
        }
        case 'after-think': {
          const trimmed = buf.trimStart();
          if (trimmed === '') {
            this.pending = '';
            return;
          }
          this.state = 'passthrough';
          buf = trimmed;
          continue;
        }
        case 'passthrough':
          this.emitText(buf, out);
          return;
      }
    }
  }

  /** Emits text while watching for a lone `</think>`, keeping what is needed to judge one. */
  private emitWatched(text: string, out: SegmentSink): void {
    if (text === '') return;
    this.emitText(text, out);
    // After a fence no tag counts: stop watching (and paying for it on every delta).
    if (this.fenceMarks && this.fenceIn(text)) this.state = 'passthrough';
    this.recent[this.count++ & (RECENT - 1)] = text;
  }

  /** Whether `text` opens a fence, alone or with the end of the piece before it. */
  private fenceIn(text: string): boolean {
    const tick = text.indexOf('`');
    const tilde = text.indexOf('~');
    if (tick === -1 && tilde === -1) return false;
    if (tick === 0 || tilde === 0) {
      const before = this.recent[(this.count - 2) & (RECENT - 1)]! + this.recent[(this.count - 1) & (RECENT - 1)]!;
      return opensFence(before.slice(-2) + text);
    }
    return opensFence(text);
  }

  /** The recent pieces, oldest first. */
  private recentText(): string {
    const from = Math.max(0, this.count - RECENT);
    let text = '';
    for (let i = from; i < this.count; i++) text += this.recent[i & (RECENT - 1)];
    return text;
  }

  private emitText(text: string, out: SegmentSink): void {
    if (text === '') return;
    this.emittedText = true;
    out.push({ type: 'text', text });
  }
}
