/** Gemini (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`): `data:` lines, no `[DONE]`, the end is EOF. */
import { describe, expect, it } from 'vitest';
import { GatewayError, type ChatRequest, type StreamEvent } from '@/lib/gateway';
import { JSON_TYPE, errorOf, KEY, SITE, clientFor, collect, lastOf, reasoningOf, replay, streamOf, textOf } from './recordings';

const ask: ChatRequest = { model: 'gemini-test', api: 'gemini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello' }] };

const data = (value: unknown, eol = '\n'): string => `data: ${JSON.stringify(value)}${eol}${eol}`;
const part = (text: string, thought = false, finishReason?: string, usage?: Record<string, number>) => data({
  candidates: [{ content: { role: 'model', parts: [thought ? { text, thought: true } : { text }] }, ...(finishReason === undefined ? {} : { finishReason }), index: 0 }],
  ...(usage === undefined ? {} : { usageMetadata: usage }),
  modelVersion: 'gemini-test',
});


const failure = (events: Promise<StreamEvent[]>): Promise<GatewayError> => events.then(errorOf, (thrown: unknown) => thrown as GatewayError);

describe('Gemini streams', () => {
  it('text parts, thoughts as reasoning, the last (cumulative) usage with thoughts apart, STOP; the end of the body ends the reply', async () => {
    const events = await streamOf({
      chunks: [
        part('Thinking it over.', true, undefined, { promptTokenCount: 8, totalTokenCount: 8 }),
        part('Hel', false, undefined, { promptTokenCount: 8, candidatesTokenCount: 1, thoughtsTokenCount: 5, totalTokenCount: 14 }),
        part('lo', false, 'STOP', { promptTokenCount: 8, candidatesTokenCount: 2, thoughtsTokenCount: 5, totalTokenCount: 15 }),
      ],
    }, ask);
    expect(reasoningOf(events)).toBe('Thinking it over.');
    expect(textOf(events)).toBe('Hello');
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(1);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { promptTokens: 8, completionTokens: 7, reasoningTokens: 5, totalTokens: 15 } });
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it.each([['MAX_TOKENS', 'length'], ['LANGUAGE', 'language'], ['OTHER', 'other']])('finishReason %s is surfaced as %s', async (reason, ours) => {
    const events = await streamOf({ chunks: [part('Some', false), part(' text', false, reason)] }, ask);
    expect(textOf(events)).toBe('Some text');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: ours });
  });

  it('CRLF framing and no final blank line', async () => {
    const events = await streamOf({ chunks: [part('Hi', false, undefined).replace(/\n/g, '\r\n'), `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: '!' }] }, finishReason: 'STOP' }] })}`] }, ask);
    expect(textOf(events)).toBe('Hi!');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('a blocked prompt (promptFeedback.blockReason, no candidates) is blocked by the filter, naming the category its ratings mark', async () => {
    const error = await failure(streamOf({ chunks: [data({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } })] }, ask));
    expect(error.kind).toBe('content_blocked');
    expect(error.detail).toEqual({ code: 'prompt_blocked', params: { reason: 'safety' } });
    const rated = await failure(streamOf({ chunks: [data({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT', safetyRatings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'HIGH', blocked: true }] } })] }, ask));
    expect(rated.detail).toEqual({ code: 'prompt_blocked', params: { reason: 'prohibited_content', category: 'hate' } });
  });

  describe('a reply its filter blocked ends as content_blocked, never as an empty success', () => {
    /** As Gemini sends it: the only candidate ends with the reason and its ratings, and has no content. */
    const verdict = (finishReason: string, safetyRatings?: unknown[]) => data({
      candidates: [{ finishReason, index: 0, ...(safetyRatings === undefined ? {} : { safetyRatings }) }],
      usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
      modelVersion: 'gemini-test',
    });
    const ratings = [
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
      { category: 'HARM_CATEGORY_HARASSMENT', probability: 'MEDIUM', blocked: true },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH' },
    ];

    it.each(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'RECITATION', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION'])('finishReason %s with no text', async (reason) => {
      const events = await streamOf({ chunks: [verdict(reason)] }, ask);
      expect(textOf(events)).toBe('');
      // The prompt's tokens were still spent: the usage comes before the error.
      expect(events.map((e) => e.type)).toEqual(['usage', 'error']);
      const error = errorOf(events);
      expect(error.kind).toBe('content_blocked');
      expect(error.detail).toEqual({ code: 'reply_blocked', params: { reason: reason.toLowerCase() } });
      expect(error.remedy.links).toEqual([{ id: 'catalogue', url: `${SITE}/models` }]);
    });

    it('names the category: the rating marked blocked, else the most probable harm above negligible, else none', async () => {
      expect(errorOf(await streamOf({ chunks: [verdict('SAFETY', ratings)] }, ask)).detail?.params).toEqual({ reason: 'safety', category: 'harassment' });
      const unmarked = ratings.map(({ blocked: _blocked, ...r }) => r);
      expect(errorOf(await streamOf({ chunks: [verdict('SAFETY', unmarked)] }, ask)).detail?.params).toEqual({ reason: 'safety', category: 'dangerous' });
      const negligible = ratings.map((r) => ({ category: r.category, probability: 'NEGLIGIBLE' }));
      expect(errorOf(await streamOf({ chunks: [verdict('RECITATION', negligible)] }, ask)).detail?.params).toEqual({ reason: 'recitation' });
      // Ratings of a shape we do not know name nothing; the block still stands.
      expect(errorOf(await streamOf({ chunks: [verdict('SAFETY', [{ category: 7 }])] }, ask)).detail?.params).toEqual({ reason: 'safety' });
    });

    it('text that came before the block is kept, and the reply still ends blocked', async () => {
      const events = await streamOf({ chunks: [part('Some', false), part(' text', false), verdict('SAFETY', ratings)] }, ask);
      expect(textOf(events)).toBe('Some text');
      expect(errorOf(events)).toMatchObject({ kind: 'content_blocked', detail: { code: 'reply_blocked', params: { reason: 'safety', category: 'harassment' } } });
      // In the same response as the last words, too.
      const same = await streamOf({ chunks: [part('Some', false), part(' text', false, 'SPII')] }, ask);
      expect(textOf(same)).toBe('Some text');
      expect(errorOf(same).detail).toEqual({ code: 'reply_blocked', params: { reason: 'spii' } });
    });

    it('not streamed (:generateContent): the same error', async () => {
      const body = { candidates: [{ finishReason: 'SAFETY', index: 0, safetyRatings: ratings }], usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 } };
      const events = await collect(clientFor(replay({ headers: JSON_TYPE, chunks: [JSON.stringify(body)] })).streamChat({ ...ask, stream: false }));
      expect(errorOf(events)).toMatchObject({ kind: 'content_blocked', detail: { code: 'reply_blocked', params: { reason: 'safety', category: 'harassment' } } });
    });
  });

  it('an empty body is a dropped connection, not an empty reply', async () => {
    expect((await failure(streamOf({ chunks: [] }, ask))).kind).toBe('network');
  });

  it('an error object mid-stream keeps the text', async () => {
    const events = await streamOf({ chunks: [part('Part', false), data({ error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } })] }, ask);
    expect(textOf(events)).toBe('Part');
    expect(errorOf(events).kind).toBe('server');
  });

  it.each([
    [400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }], 'invalid_key'],
    [429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', undefined, 'rate_limited'],
    [403, 'PERMISSION_DENIED', 'Method doesn\'t allow unregistered callers.', undefined, 'permission_denied'],
    [404, 'NOT_FOUND', 'models/gemini-nope is not found for API version v1beta, or is not supported for generateContent.', undefined, 'model_not_found'],
    [400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', undefined, 'bad_request'],
    [500, 'INTERNAL', 'An internal error has occurred.', undefined, 'server'],
  ])('HTTP %i %s → its kind', async (status, word, message, details, kind) => {
    const error = await failure(streamOf({ status, headers: JSON_TYPE, chunks: [JSON.stringify({ error: { code: status, message, status: word, ...(details === undefined ? {} : { details }) } })] }, ask));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.kind).toBe(kind);
    expect(error.gatewayMessage).toBe(message);
  });

  it('the request: the model in the path with alt=sse, the key in x-goog-api-key only (never in the address), roles user/model, systemInstruction, generationConfig, inlineData images', async () => {
    const fake = replay({ chunks: [part('ok', false, 'STOP')] });
    await collect(clientFor(fake).streamChat({
      ...ask, temperature: 0.3, maxTokens: 500,
      messages: [...ask.messages, { role: 'assistant', content: 'hi' }, { role: 'user', content: [{ type: 'text', text: 'and this?' }, { type: 'image', url: 'data:image/jpeg;base64,/9j/4AAQ' }] }],
    }));
    const call = fake.calls[0]!;
    expect(call.url).toBe(`${SITE}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`);
    expect(call.url).not.toContain(KEY);
    expect(call.url).not.toContain('key=');
    const headers = call.init?.headers as Record<string, string>;
    expect(headers['x-goog-api-key']).toBe(KEY);
    expect(headers.Authorization).toBeUndefined();
    expect(JSON.parse(String(call.init?.body))).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'hello' }] },
        { role: 'model', parts: [{ text: 'hi' }] },
        { role: 'user', parts: [{ text: 'and this?' }, { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.3, maxOutputTokens: 500, thinkingConfig: { includeThoughts: true } },
    });
  });

  it('a reply that was not streamed (:generateContent) gives the same events', async () => {
    const fake = replay({ headers: JSON_TYPE, chunks: [JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Hmm.', thought: true }, { text: 'Done.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 2, totalTokenCount: 4 } })] });
    const events = await collect(clientFor(fake).streamChat({ ...ask, stream: false }));
    expect(fake.calls[0]!.url).toBe(`${SITE}/v1beta/models/gemini-test:generateContent`);
    expect(reasoningOf(events)).toBe('Hmm.');
    expect(textOf(events)).toBe('Done.');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });
});
