/** The JSON bodies of `POST /chat/completions` and `POST /responses` (seed part 2). */
import type { ChatMessage, ChatRequest, ContentPart } from './types';

function chatContent(content: ChatMessage['content']): unknown {
  if (typeof content === 'string') return content;
  return content.map((part: ContentPart) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: 'image_url', image_url: part.detail === undefined ? { url: part.url } : { url: part.url, detail: part.detail } },
  );
}

export function chatCompletionsBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...request.extra,
    model: request.model,
    messages: request.messages.map((m) => ({ role: m.role, content: chatContent(m.content) })),
    stream,
  };
  if (stream && request.includeUsage !== false) body.stream_options = { include_usage: true };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  return body;
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function responsesContent(message: ChatMessage): unknown {
  if (typeof message.content === 'string' || message.role === 'assistant') return textOf(message.content);
  return message.content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : { type: 'input_image', image_url: part.url, detail: part.detail ?? 'auto' },
  );
}

export function responsesBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const system = request.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content));
  const turns = request.messages.filter((m) => m.role !== 'system');
  const only = turns.length === 1 ? turns[0] : undefined;
  const body: Record<string, unknown> = {
    ...request.extra,
    model: request.model,
    // The seed's form is a string; a conversation or an image needs the list form.
    input: only !== undefined && only.role === 'user' && typeof only.content === 'string'
      ? only.content
      : turns.map((m) => ({ role: m.role, content: responsesContent(m) })),
    stream,
  };
  if (system.length > 0) body.instructions = system.join('\n\n');
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  return body;
}
