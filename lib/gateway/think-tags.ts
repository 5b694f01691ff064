/**
 * Splitting `<think>…</think>` reasoning out of streamed content, chunk by chunk, without
 * regexes over the whole text. Tags may be split across chunks. `<think>` counts only at
 * the start of the content; a lone `</think>` (servers that strip the opening tag) turns
 * everything before it into reasoning, unless a `<think>` came first (then the answer is
 * about tags). After the first think block, content passes through.
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

export class ThinkTagSplitter {
  private state: State = 'start';
  private pending = '';
  private emittedText = false;

  /** Splits one chunk of content, appending its segments to `out`. */
  push(chunk: string, out: SegmentSink): void {
    // The common case, on every delta: nothing held back and no tag can start in this chunk.
    if (this.pending === '' && (this.state === 'passthrough' || (this.state === 'watching' && !chunk.includes('<')))) {
      this.emitText(chunk, out);
      return;
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
            if (this.emittedText) out.push({ type: 'reasoning', text: before, movedFromText: true });
            else if (before.trim() !== '') out.push({ type: 'reasoning', text: before });
            this.state = 'after-think';
            buf = buf.slice(end + CLOSE.length);
            continue;
          }
          const hold = Math.max(partialTagAtEnd(buf, CLOSE), partialTagAtEnd(buf, OPEN));
          this.emitText(buf.slice(0, buf.length - hold), out);
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

  private emitText(text: string, out: SegmentSink): void {
    if (text === '') return;
    this.emittedText = true;
    out.push({ type: 'text', text });
  }
}
