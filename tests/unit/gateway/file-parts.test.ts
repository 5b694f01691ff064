import { describe, expect, it } from 'vitest';
import { anthropicBody } from '@/lib/gateway/interfaces/anthropic';
import { chatCompletionsBody } from '@/lib/gateway/interfaces/chat';
import { geminiBody } from '@/lib/gateway/interfaces/gemini';
import { responsesBody } from '@/lib/gateway/interfaces/responses';
import type { ChatRequest } from '@/lib/gateway/types';

const PDF = 'data:application/pdf;base64,JVBERi0xLjcK';
const request: ChatRequest = {
  model: 'm',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }, { type: 'file', filename: 'report.pdf', data: PDF }] }],
};
const userContent = (body: Record<string, unknown>, key = 'messages'): unknown => (body[key] as { content: unknown }[])[0]!.content;

describe('a file sent as itself, in each interface\'s own shape', () => {
  it('Chat Completions: OpenAI\'s file part (new-api forwards {filename, file_data})', () => {
    expect(userContent(chatCompletionsBody(request, true))).toEqual([{ type: 'text', text: 'Summarise' }, { type: 'file', file: { filename: 'report.pdf', file_data: PDF } }]);
  });

  it('Responses: input_file', () => {
    expect(userContent(responsesBody(request, true), 'input')).toEqual([{ type: 'input_text', text: 'Summarise' }, { type: 'input_file', filename: 'report.pdf', file_data: PDF }]);
  });

  it('Anthropic: a base64 document block', () => {
    expect(userContent(anthropicBody(request, true))).toEqual([{ type: 'text', text: 'Summarise' }, { type: 'document', title: 'report.pdf', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjcK' } }]);
  });

  it('Gemini: inline data', () => {
    const contents = geminiBody(request).contents as { parts: unknown[] }[];
    expect(contents[0]!.parts).toEqual([{ text: 'Summarise' }, { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjcK' } }]);
  });
});
