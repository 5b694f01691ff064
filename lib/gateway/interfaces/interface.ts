/** What each interface module gives the client: where, with which headers, what, and how to read the answer. */
import type { ClassifyContext } from '../classify';
import type { ReplyDecoder } from '../decoders';
import type { ChatMessage, ChatRequest, ContentPart, StreamEvent } from '../types';
import type { ApiStyle } from './names';

export interface WireInterface {
  readonly name: ApiStyle;
  /** The request's address: never holds the key. */
  url(address: { baseUrl: string; siteUrl: string }, model: string, stream: boolean): string;
  /** The headers that carry the key (and the interface's version, where it has one). */
  headers(apiKey: string): Record<string, string>;
  body(request: ChatRequest, stream: boolean): Record<string, unknown>;
  streamDecoder(ctx: ClassifyContext): ReplyDecoder;
  /** A reply that was not streamed: the same events as a stream. */
  decodeBody(value: unknown, ctx: ClassifyContext): StreamEvent[];
}

/** The OpenAI interfaces' `Authorization: Bearer`. */
export const bearer = (apiKey: string): Record<string, string> => ({ Authorization: `Bearer ${apiKey}` });

export function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** A `data:` URL's media type and base64 payload; undefined for any other address. */
export function dataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return match === null ? undefined : { mediaType: match[1]!, data: match[2]! };
}

/** An image address's media type guessed from its name (vendors want one for a link). */
export function mediaTypeOf(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return ext === 'png' ? 'image/png' : ext === 'gif' ? 'image/gif' : ext === 'webp' ? 'image/webp' : 'image/jpeg';
}

/** The turns without system messages, and the system messages' text joined. */
export function splitSystem(messages: readonly ChatMessage[]): { system: string | undefined; turns: ChatMessage[] } {
  const system = messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).filter((t) => t !== '');
  return { system: system.length === 0 ? undefined : system.join('\n\n'), turns: messages.filter((m) => m.role !== 'system') };
}

export type { ContentPart };
