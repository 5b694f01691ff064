/**
 * Google's own SDK (`@google/genai`) against the reference gateway, pointed at its site address:
 * proof that its Gemini interface is the one real clients speak (generateContent, the SSE
 * stream, thought summaries, images, the models list, errors).
 */
import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BROKE_KEY, startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

let gateway: ReferenceGateway;
let sdk: GoogleGenAI;

const sdkFor = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.siteUrl } });

beforeAll(async () => {
  gateway = await startReferenceGateway();
  sdk = sdkFor(gateway.demoKey);
});
afterAll(async () => {
  await gateway.close();
});
beforeEach(() => gateway.reset());

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the Google GenAI SDK against the reference gateway', () => {
  it('lists the models that offer the Gemini interface', async () => {
    const names: string[] = [];
    for await (const model of await sdk.models.list()) names.push(model.name ?? '');
    expect(names).toEqual(['models/vision-1', 'models/gemini-ref-1', 'models/gemini-2.5-flash-image']);
  });

  it('generates content, with the key in x-goog-api-key and never in the address', async () => {
    const response = await sdk.models.generateContent({ model: 'gemini-ref-1', contents: 'hello sdk', config: { systemInstruction: 'Be brief.' } });
    expect(response.text).toBe('Gemini: hello sdk');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
    const request = gateway.requests.at(-1)!;
    expect(request).toMatchObject({ path: '/v1beta/models/gemini-ref-1:generateContent', keyIn: 'x-goog-api-key' });
    expect(request.query).not.toContain('key=');
  });

  it('streams with thought summaries apart from the text, and cumulative usage', async () => {
    const stream = await sdk.models.generateContentStream({
      model: 'gemini-ref-1', contents: 'why is the sky blue', config: { thinkingConfig: { includeThoughts: true } },
    });
    let thoughts = '';
    let text = '';
    let finish: string | undefined;
    let thoughtsTokens: number | undefined;
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.thought === true) thoughts += part.text ?? '';
        else text += part.text ?? '';
      }
      finish = chunk.candidates?.[0]?.finishReason ?? finish;
      thoughtsTokens = chunk.usageMetadata?.thoughtsTokenCount ?? thoughtsTokens;
    }
    expect(thoughts).toBe('Thinking about: why is the sky blue');
    expect(text).toBe('Gemini: why is the sky blue');
    expect(finish).toBe('STOP');
    expect(thoughtsTokens).toBe(9);
    expect(gateway.requests.at(-1)).toMatchObject({ path: '/v1beta/models/gemini-ref-1:streamGenerateContent', query: '?alt=sse' });
  });

  it('maxOutputTokens cuts the reply with MAX_TOKENS', async () => {
    const response = await sdk.models.generateContent({ model: 'vision-1', contents: 'a long message', config: { maxOutputTokens: 3 } });
    expect(response.text).toBe('No image rec');
    expect(response.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
  });

  it('takes an image as inlineData', async () => {
    const data = Buffer.from('fake png bytes').toString('base64');
    const response = await sdk.models.generateContent({
      model: 'gemini-ref-1',
      contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data } }, { text: 'what is it?' }] }],
    });
    expect(response.text).toBe('Gemini saw image 1: image/png, 14 bytes. You said: what is it?');
  });

  it('a blocked prompt comes back as promptFeedback with no candidates', async () => {
    const response = await sdk.models.generateContent({ model: 'gemini-ref-1', contents: 'please #blocked' });
    expect(response.promptFeedback?.blockReason).toBe('SAFETY');
    expect(response.candidates ?? []).toEqual([]);
  });

  it('the gateway\'s refusals reach the SDK as ApiError with their statuses', async () => {
    expect((await rejection(sdkFor('sk-wrong').models.generateContent({ model: 'gemini-ref-1', contents: 'x' }))).status).toBe(400);
    expect((await rejection(sdk.models.generateContent({ model: 'gemini-9', contents: 'x' }))).status).toBe(404);
    expect((await rejection(sdk.models.generateContent({ model: 'echo-1', contents: 'x' }))).status).toBe(400);
    expect((await rejection(sdkFor(BROKE_KEY).models.generateContent({ model: 'gemini-ref-1', contents: 'x' }))).status).toBe(402);
    gateway.setFault({ kind: 'rate-limit', retryAfter: 5 });
    const limited = await rejection(sdk.models.generateContent({ model: 'gemini-ref-1', contents: 'x' }));
    expect(limited.status).toBe(429);
    expect(limited.message).toMatch(/RESOURCE_EXHAUSTED/);
    gateway.setFault({ kind: 'overloaded' });
    expect((await rejection(sdk.models.generateContent({ model: 'gemini-ref-1', contents: 'x' }))).status).toBe(503);
  });
});
