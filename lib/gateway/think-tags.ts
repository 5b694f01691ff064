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
 * always does one of these. When the rule still guesses wrong, nothing is lost: the moved text
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

/** Characters kept of the current line while watching (enough to judge how a tag is quoted). */
const LINE_TAIL = 4096;
const QUOTE_MARKS = '"\'“‘「『«`';

/** Whether a lone `</think>` standing after `line` (its line so far) is quoted, not a tag. */
function quotedAt(line: string): boolean {
  if (/^\s*>/.test(line)) return true;
  if (line.length > 0 && QUOTE_MARKS.includes(line[line.length - 1] ?? '')) return true;
  let ticks = 0;
  for (let i = line.indexOf('`'); i !== -1; i = line.indexOf('`', i + 1)) ticks++;
  return ticks % 2 === 1;
}

function opensFence(text: string): boolean {
  return text.includes('```') || text.includes('~~~');
}

export class ThinkTagSplitter {
  private state: State = 'start';
  private pending = '';
  private emittedText = false;
  /** While watching: the text of the current line so far (its tail). */
  private line = '';

  /** Splits one chunk of content, appending its segments to `out`. */
  push(chunk: string, out: SegmentSink): void {
    // The common case, on every delta: nothing held back and nothing in this chunk that could
    // start a tag, a fence or a code span.
    if (this.pending === '') {
      if (this.state === 'passthrough') {
        this.emitText(chunk, out);
        return;
      }
      if (this.state === 'watching' && !chunk.includes('<') && !chunk.includes('`') && !chunk.includes('~')) {
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
            this.state = 'watching';
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
            const nl = before.lastIndexOf('\n');
            const line = nl === -1 ? this.line + before : before.slice(nl + 1);
            if (opensFence(this.line + before) || quotedAt(line)) {
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
          // A fence cut by the chunk boundary ("``" + "`") is seen once the rest arrives:
          // the line's tail keeps the first part.
          if (!this.emitWatched(buf.slice(0, buf.length - hold), out)) {
            buf = buf.slice(buf.length - hold);
            continue;
          }
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

  /**
   * Emits text while watching for a lone `</think>`, keeping the current line's tail. Returns
   * false when the text opened a fenced code block: from there on nothing is a tag (the state
   * is then passthrough).
   */
  private emitWatched(text: string, out: SegmentSink): boolean {
    this.emitText(text, out);
    const nl = text.lastIndexOf('\n');
    const joined = nl === -1 ? this.line + text : text.slice(nl + 1);
    if ((text.includes('`') || text.includes('~')) && opensFence(this.line + text)) {
      this.state = 'passthrough';
      this.line = '';
      return false;
    }
    this.line = joined.length > LINE_TAIL ? joined.slice(-LINE_TAIL) : joined;
    return true;
  }

  private emitText(text: string, out: SegmentSink): void {
    if (text === '') return;
    this.emittedText = true;
    out.push({ type: 'text', text });
  }
}
