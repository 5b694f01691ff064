/**
 * Reading a `text/event-stream` body into batches of messages, one batch per network read.
 * eventsource-parser does the line work (LF, CRLF, CR, comments, `data:` without a space);
 * this adds what gateways need on top: a last event without its closing blank line is still
 * delivered, non-standard fields (llama.cpp's `error:`) are reported, a stream past its
 * deadline times out (the caller says how long is left: bytes alone, such as keep-alive
 * comments, do not buy time), and a stream past its size is given up.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ErrorDetail } from './errors';

export type SseItem =
  | { kind: 'message'; event: string | undefined; data: string }
  /** A line with a field the SSE standard does not know, such as llama.cpp's `error: {…}`. */
  | { kind: 'field'; field: string; value: string }
  | { kind: 'overflow' };

/** An event larger than this (characters) is a broken stream, not a reply. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

export class StreamTimeout extends Error {
  override readonly name = 'StreamTimeout';
  constructor(readonly detail: ErrorDetail) {
    super(detail.code);
  }
}

export class StreamTooLarge extends Error {
  override readonly name = 'StreamTooLarge';
}

export interface ReadSseOptions {
  /** Milliseconds left before the stream is given up; asked before every read. */
  timeLeft(): number;
  /** Called when the time is up (to release the connection); returns why, for the error. */
  onTimeout(): ErrorDetail;
  /** Bytes after which the stream is given up. */
  maxBytes?: number;
  /**
   * A cheap test of each read's raw text. A batch is `flagged` when any read its items may
   * have come from passed it (an event can start in an earlier read than the one that ends it).
   */
  flag?: (raw: string) => boolean;
}

/** The items completed by one network read. */
export interface SseBatch {
  items: SseItem[];
  /** See `ReadSseOptions.flag`; true when no flag test was given. */
  flagged: boolean;
}

/**
 * Yields the items of each read. The reader is released (and the body cancelled) when the
 * consumer stops early. Read failures propagate to the caller as they are.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, options: ReadSseOptions): AsyncGenerator<SseBatch> {
  let batch: SseItem[] = [];
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      batch.push({ kind: 'message', event: message.event, data: message.data });
    },
    onError(error) {
      if (error.type === 'unknown-field' && error.field !== undefined) {
        batch.push({ kind: 'field', field: error.field, value: error.value ?? '' });
      } else if (error.type === 'max-buffer-size-exceeded') {
        batch.push({ kind: 'overflow' });
      }
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  let bytes = 0;
  // Whether a read since the last batch (the one that may hold a started event included) passed `flag`.
  let carried = false;
  const flag = options.flag;
  const deadline = new ReadDeadline(options);
  try {
    for (;;) {
      const { done, value } = await deadline.read(reader);
      if (done) {
        const tail = decoder.decode();
        // Deliver a last event that lacks its closing blank line.
        parser.feed(`${tail}\n\n`);
        finished = true;
        if (batch.length > 0) yield { items: batch, flagged: flag === undefined || carried || flag(tail) };
        return;
      }
      bytes += value.byteLength;
      if (options.maxBytes !== undefined && bytes > options.maxBytes) throw new StreamTooLarge(`over ${options.maxBytes} bytes`);
      const raw = decoder.decode(value, { stream: true });
      const passed = flag === undefined || flag(raw);
      parser.feed(raw);
      if (batch.length > 0) {
        const items = batch;
        batch = [];
        const flagged = carried || passed;
        // This read may also hold the start of the next event.
        carried = passed;
        yield { items, flagged };
        if (items.some((item) => item.kind === 'overflow')) return;
      } else {
        carried ||= passed;
      }
    }
  } finally {
    deadline.stop();
    if (!finished) reader.cancel().catch(() => undefined);
    try {
      reader.releaseLock();
    } catch {
      // A read still pending after an idle timeout: the cancel above settles it.
    }
  }
}

/**
 * The stream's deadline, kept by one timer for the whole stream. A timer set and cleared around
 * each read cost the service worker a third of its reading time (a stream has a read per token:
 * `npm run bench -- rendering`). The timer is moved earlier when the deadline comes nearer; when
 * it fires early (the deadline moved on since: a piece arrived), it is set again for what is left.
 */
class ReadDeadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (epoch ms). */
  private due = 0;
  /** The read waiting now, if one is. */
  private reading: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Set when the time ran out during a read. */
  private failure: StreamTimeout | undefined;

  constructor(private readonly options: ReadSseOptions) {}

  async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
    const left = this.options.timeLeft();
    if (left <= 0) throw new StreamTimeout(this.options.onTimeout());
    const due = Date.now() + left;
    if (this.timer === undefined || due < this.due) this.arm(due);
    this.reading = reader;
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      // Awaited alone (no race with a timeout promise): the timer ends a read that waits too long
      // by cancelling the reader, which settles it.
      result = await reader.read();
    } catch (error) {
      throw this.failure ?? error;
    } finally {
      this.reading = undefined;
    }
    if (this.failure !== undefined) throw this.failure;
    return result;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(due: number): void {
    clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(() => this.fire(), Math.max(0, due - Date.now()));
  }

  private fire(): void {
    this.timer = undefined;
    const reader = this.reading;
    // Between reads the next read asks for the time itself (the consumer may have moved it on).
    if (reader === undefined) return;
    const left = this.options.timeLeft();
    if (left > 0) {
      this.arm(Date.now() + left);
      return;
    }
    this.failure = new StreamTimeout(this.options.onTimeout());
    reader.cancel(this.failure).catch(() => undefined);
  }
}
