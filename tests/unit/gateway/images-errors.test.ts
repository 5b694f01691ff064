/**
 * Image models' refusals (issue 30, item 6): a content-policy refusal and a value the model does
 * not take are told apart by the gateway's code, type, param and status, never by its words alone;
 * the values the model takes are read from its words when it lists them.
 */
import { describe, expect, it } from 'vitest';
import { classifyFacts, detailFromFacts, errorFromHttpResponse, supportedValues } from '@/lib/gateway/classify';
import { BASE, KEY, SITE } from './recordings';

const ctx = { url: `${BASE}/images/generations`, siteUrl: SITE, apiKey: KEY };
const answer = (status: number, body: unknown) => errorFromHttpResponse({ status, headers: new Headers({ 'content-type': 'application/json' }) }, JSON.stringify(body), ctx);

describe('content policy', () => {
  it('OpenAI\'s content_policy_violation is content_blocked with the content_policy detail', () => {
    const error = answer(400, { error: { message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } });
    expect(error.kind).toBe('content_blocked');
    expect(error.detail).toEqual({ code: 'content_policy' });
    expect(error.remedy.links).toEqual([{ id: 'catalogue', url: `${SITE}/models` }]);
  });

  it('gpt-image\'s moderation_blocked, Azure\'s policy code and new-api\'s sensitive words (in Chinese) too', () => {
    const bodies = [
      { error: { message: 'Your request was rejected by the safety system. safety_violations=[sexual].', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' } },
      { error: { message: 'The request was blocked.', type: null, param: 'prompt', code: 'ResponsibleAIPolicyViolation' } },
      { error: { message: '敏感词检测失败：提示词包含敏感词', type: 'new_api_error', param: '', code: 'sensitive_words_detected' } },
    ];
    for (const body of bodies) {
      const error = answer(400, body);
      expect(error.kind, JSON.stringify(body)).toBe('content_blocked');
      expect(error.detail).toEqual({ code: 'content_policy' });
    }
    // The gateway's words are kept for the curious, as sent.
    expect(answer(400, bodies[2]).gatewayMessage).toBe('敏感词检测失败：提示词包含敏感词');
  });

  it('words that sound like a policy refusal, without a code that says so, are not one', () => {
    const error = answer(400, { error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', param: null, code: null } });
    expect(error.kind).toBe('bad_request');
    expect(error.detail).toBeUndefined();
  });
});

describe('an option the model does not take', () => {
  it('an unsupported size names the param and the sizes listed in the message', () => {
    const error = answer(400, { error: { message: 'Invalid value: \'999x999\'. Supported values are: \'1024x1024\', \'1536x1024\', \'1024x1536\', and \'auto\'.', type: 'invalid_request_error', param: 'size', code: 'invalid_value' } });
    expect(error.kind).toBe('bad_request');
    expect(error.detail).toEqual({ code: 'unsupported_option', params: { param: 'size', supported: '1024x1024, 1536x1024, 1024x1536, auto' } });
  });

  it('the code may be a number, empty or missing: the param and the status still say it', () => {
    for (const code of [400, '', undefined, null]) {
      const error = answer(400, { error: { message: 'Invalid size', type: 'invalid_request_error', param: 'size', ...(code === undefined ? {} : { code }) } });
      expect(error.kind, String(code)).toBe('bad_request');
      expect(error.detail).toEqual({ code: 'unsupported_option', params: { param: 'size' } });
    }
  });

  it('invalid_size without a param is about the size; a value code on another option names it', () => {
    expect(answer(400, { error: { message: 'size not supported', code: 'invalid_size' } }).detail).toEqual({ code: 'unsupported_option', params: { param: 'size' } });
    const quality = answer(400, { error: { message: 'Invalid value: \'ultra\'. Supported values are: \'low\', \'medium\', \'high\', and \'auto\'.', type: 'invalid_request_error', param: 'quality', code: 'invalid_value' } });
    expect(quality.detail).toEqual({ code: 'unsupported_option', params: { param: 'quality', supported: 'low, medium, high, auto' } });
  });

  it('DALL·E 2\'s "is not one of [...]" and dall-e-3\'s n limit', () => {
    const dalle2 = answer(400, { error: { message: '\'999x999\' is not one of [\'256x256\', \'512x512\', \'1024x1024\'] - \'size\'', type: 'invalid_request_error', param: null, code: null } });
    // No param and no code: nothing says it is the size, whatever the words.
    expect(dalle2.detail).toBeUndefined();
    expect(supportedValues('\'999x999\' is not one of [\'256x256\', \'512x512\', \'1024x1024\'] - \'size\'')).toBe('256x256, 512x512, 1024x1024');
    const n = answer(400, { error: { message: 'You must provide n=1 for this model.', type: 'invalid_request_error', param: 'n', code: null } });
    expect(n.detail).toEqual({ code: 'unsupported_option', params: { param: 'n' } });
  });

  it('a refusal naming the model in its words, with the size as param, is still about the size', () => {
    const error = answer(400, { error: { message: 'The size 999x999 is not supported by this model. Supported sizes are 1024x1024, 1792x1024 or 1024x1792', type: 'invalid_request_error', param: 'size', code: 'invalid_value' } });
    expect(error.kind).toBe('bad_request');
    expect(error.detail).toEqual({ code: 'unsupported_option', params: { param: 'size', supported: '1024x1024, 1792x1024, 1024x1792' } });
  });

  it('Chinese lists are read too; a message that lists nothing gives no list', () => {
    expect(supportedValues('不支持的尺寸 999x999，支持的尺寸为：1024x1024、1536x1024、auto')).toBe('1024x1024, 1536x1024, auto');
    expect(supportedValues('Invalid value for size.')).toBeUndefined();
    expect(supportedValues(undefined)).toBeUndefined();
  });

  it('the content of a request (messages, prompt, image) is not an option', () => {
    expect(detailFromFacts('bad_request', { status: 400, code: 'invalid_value', param: 'messages', message: 'Invalid value' })).toBeUndefined();
    expect(detailFromFacts('bad_request', { status: 400, code: 'invalid_value', param: 'image', message: 'Invalid image' })).toBeUndefined();
    expect(detailFromFacts('bad_request', { status: 400, param: 'temperature', message: 'bad' })).toBeUndefined();
  });

  it('a missing model is still model_not_found, and other kinds get no option detail', () => {
    expect(classifyFacts({ status: 400, param: 'model', message: 'The model `dall-e-9` does not exist' }, ctx.url)).toBe('model_not_found');
    expect(answer(429, { error: { message: 'slow down', type: 'rate_limit_error', param: 'size', code: 'rate_limit_exceeded' } }).detail).toBeUndefined();
  });
});
