/**
 * Gemini's own interface and images (issue 30, item 4): an image the model drew (`inlineData`)
 * becomes the markdown a Chat Completions image model writes, so one extractor takes both; an
 * image in a model turn's text goes back to Gemini as `inlineData`, so the next turn can edit it.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '@/lib/gateway';
import { InlineImageExtractor } from '@/lib/images/inline';
import { modelTextParts } from '@/lib/gateway/interfaces/gemini';
import { JSON_TYPE, clientFor, collect, lastOf, replay, streamOf, textOf } from './recordings';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const ask: ChatRequest = { model: 'gemini-2.5-flash-image', api: 'gemini', messages: [{ role: 'user', content: 'draw a red cat' }] };
const data = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
const parts = (list: unknown[], finishReason?: string) => data({ candidates: [{ content: { role: 'model', parts: list }, ...(finishReason === undefined ? {} : { finishReason }) }] });

describe('an image in a Gemini reply', () => {
  it('streamed: an inlineData part is the text ![image](data:…;base64,…), in its place among the text', async () => {
    const events = await streamOf({ chunks: [
      parts([{ text: 'Here is your cat:\n\n' }]),
      parts([{ inlineData: { mimeType: 'image/png', data: PNG } }]),
      parts([{ text: '\n\nEnjoy!' }], 'STOP'),
    ] }, ask);
    expect(textOf(events)).toBe(`Here is your cat:\n\n![image](data:image/png;base64,${PNG})\n\nEnjoy!`);
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('the extractor then takes it out as for any chat model', async () => {
    const events = await streamOf({ chunks: [parts([{ text: 'Cat: ' }, { inlineData: { mimeType: 'image/png', data: PNG } }], 'STOP')] }, ask);
    const extractor = new InlineImageExtractor(() => 'i1');
    const out = extractor.push(textOf(events));
    expect(out.text + extractor.end().text).toBe('Cat: ![image](gc-image:i1)');
    expect(out.images[0]?.base64.join('')).toBe(PNG);
  });

  it('not streamed (:generateContent): the same text', async () => {
    const fake = replay({ headers: JSON_TYPE, chunks: [JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Done.' }, { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } }] }, finishReason: 'STOP' }] })] });
    const events = await collect(clientFor(fake).streamChat({ ...ask, stream: false }));
    expect(textOf(events)).toBe('Done.![image](data:image/jpeg;base64,/9j/4AAQ)');
  });

  it('snake-case inline_data is read too; thought drafts, other media and what is not base64 are not written', async () => {
    const events = await streamOf({ chunks: [parts([
      { inline_data: { mime_type: 'image/png', data: PNG } },
      { inlineData: { mimeType: 'image/png', data: 'DRAFT' }, thought: true },
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'image/png', data: 'abc) ![x](javascript:alert(1)' } },
      { inlineData: { mimeType: 'image/png"', data: PNG } },
      { inlineData: {} },
    ], 'STOP')] }, ask);
    expect(textOf(events)).toBe(`![image](data:image/png;base64,${PNG})`);
  });
});

describe('an image in a model turn, sent back', () => {
  it('a model turn\'s data-URI images are inlineData parts, in place; user turns and plain text unchanged', async () => {
    const fake = replay({ chunks: [parts([{ text: 'ok' }], 'STOP')] });
    await collect(clientFor(fake).streamChat({ ...ask, messages: [
      { role: 'user', content: 'draw a red cat' },
      { role: 'assistant', content: `Here is your cat:\n\n![image](data:image/png;base64,${PNG.slice(0, 40)}\n${PNG.slice(40)})\n\nEnjoy!` },
      { role: 'user', content: 'now make it blue ![not](data:image/png;base64,AAAA)' },
      { role: 'assistant', content: 'No image here.' },
      { role: 'user', content: 'thanks' },
    ] }));
    const body = JSON.parse(String(fake.calls[0]!.init?.body)) as { contents: { role: string; parts: unknown[] }[] };
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'draw a red cat' }] },
      { role: 'model', parts: [{ text: 'Here is your cat:\n\n' }, { inlineData: { mimeType: 'image/png', data: PNG } }, { text: '\n\nEnjoy!' }] },
      { role: 'user', parts: [{ text: 'now make it blue ![not](data:image/png;base64,AAAA)' }] },
      { role: 'model', parts: [{ text: 'No image here.' }] },
      { role: 'user', parts: [{ text: 'thanks' }] },
    ]);
  });

  it('modelTextParts: only images, several, and text with no image', () => {
    expect(modelTextParts(`![image](data:image/png;base64,${PNG})`)).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG } }]);
    expect(modelTextParts('a ![1](data:image/png;base64,AAAA) b ![2](data:image/webp;base64,UklGR) c')).toEqual([
      { text: 'a ' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }, { text: ' b ' }, { inlineData: { mimeType: 'image/webp', data: 'UklGR' } }, { text: ' c' },
    ]);
    expect(modelTextParts('![web](https://x/y.png) and ![ref](gc-image:abc)')).toEqual([{ text: '![web](https://x/y.png) and ![ref](gc-image:abc)' }]);
    expect(modelTextParts('')).toEqual([{ text: '' }]);
  });
});
