/**
 * Reading a `text/event-stream` body into batches of messages, one batch per network read.
 * eventsource-parser does the line work (LF, CRLF, CR, comments, `data:` without a space);
 * this adds what gateways need on top: a last event without its closing blank line is still
 * delivered, non-standard fields (llama.cpp's `error:`) are reported, and a stalled stream
 * times out.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type SseItem =
  | { kind: 'message'; event: string | undefined; data: string }
  /** A line with a field the SSE standard does not know, such as llama.cpp's `error: {…}`. */
  | { kind: 'field'; field: string; value: string }
  | { kind: 'overflow' };

/** An event larger than this (characters) is a broken stream, not a reply. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

export class StreamIdleTimeout extends Error {
  override readonly name = 'StreamIdleTimeout';
}

export interface ReadSseOptions {
  /** Milliseconds without any byte (comments count) before the stream is given up. */
  idleTimeoutMs: number;
  /** Called when the stream is abandoned for idleness, to release the connection. */
  onIdle?: () => void;
}

/**
 * Yields the items of each read. The reader is released (and the body cancelled) when the
 * consumer stops early. Read failures propagate to the caller as they are.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, options: ReadSseOptions): AsyncGenerator<SseItem[]> {
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
  try {
    for (;;) {
      const { done, value } = await readWithIdleTimeout(reader, options);
      if (done) {
        const tail = decoder.decode();
        // Deliver a last event that lacks its closing blank line.
        parser.feed(`${tail}\n\n`);
        finished = true;
        if (batch.length > 0) yield batch;
        return;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      if (batch.length > 0) {
        const out = batch;
        batch = [];
        yield out;
        if (out.some((item) => item.kind === 'overflow')) return;
      }
    }
  } finally {
    if (!finished) reader.cancel().catch(() => undefined);
    try {
      reader.releaseLock();
    } catch {
      // A read still pending after an idle timeout: the cancel above settles it.
    }
  }
}

async function readWithIdleTimeout(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  options: ReadSseOptions,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      options.onIdle?.();
      reject(new StreamIdleTimeout(`no data for ${Math.round(options.idleTimeoutMs / 1000)} s`));
    }, options.idleTimeoutMs);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}
