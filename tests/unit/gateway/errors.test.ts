/**
 * HTTP errors before a stream begins, reconstructed from how each gateway answers. Each is
 * thrown as a GatewayError whose kind comes from code, type and status read together.
 */
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERROR_KINDS, GatewayError, createGatewayClient, type GatewayErrorKind } from '@/lib/gateway';
import { BASE, JSON_TYPE, KEY, SITE, clientFor, collect, hello, replay, type Recording } from './recordings';

async function streamError(rec: Recording, request = hello): Promise<GatewayError> {
  try {
    await collect(clientFor(replay(rec)).streamChat(request));
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected streamChat to throw');
}

async function modelsError(rec: Recording): Promise<GatewayError> {
  try {
    await clientFor(replay(rec)).listModels();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected listModels to throw');
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Recording => ({
  status,
  headers: { ...JSON_TYPE, ...headers },
  chunks: [JSON.stringify(body)],
});

const seen = new Set<GatewayErrorKind>();
function expectKind(error: GatewayError, kind: GatewayErrorKind): void {
  expect(error.kind).toBe(kind);
  seen.add(kind);
}

describe('seed part 7', () => {
  it('401 INVALID_API_KEY is invalid_key, with the keys page as remedy', async () => {
    const error = await streamError(json(401, { error: { message: 'Invalid API key', type: 'invalid_request_error', param: null, code: 'INVALID_API_KEY' } }));
    expectKind(error, 'invalid_key');
    expect(error.status).toBe(401);
    expect(error.code).toBe('INVALID_API_KEY');
    expect(error.url).toBe(`${BASE}/chat/completions`);
    expect(error.remedy.links).toContainEqual({ id: 'keys', url: `${SITE}/keys` });
  });

  it('404 for a doubled /v1 is bad_address, naming the address to correct', async () => {
    const client = createGatewayClient({
      baseUrl: `${SITE}/v1/v1`,
      siteUrl: SITE,
      apiKey: KEY,
      fetch: replay(json(404, { error: { message: 'Invalid URL (POST /v1/v1/chat/completions)', type: 'invalid_request_error', param: '', code: '' } })).fetch,
    });
    const error = await collect(client.streamChat(hello)).catch((e: unknown) => e as GatewayError);
    expectKind(error as GatewayError, 'bad_address');
    expect((error as GatewayError).siteUrl).toBe(SITE);
    expect((error as GatewayError).remedy.links[0]?.url).toBe(`${SITE}/v1/v1/chat/completions`);
  });

  it('"model does not exist" is model_not_found, with the catalogue as remedy', async () => {
    const error = await streamError(json(404, { error: { message: 'model does not exist: gpt-9', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }));
    expectKind(error, 'model_not_found');
    expect(error.remedy.links).toContainEqual({ id: 'catalogue', url: `${SITE}/models` });
  });

  it('"insufficient balance" is insufficient_balance, with the dashboard, Purchase and Redeem', async () => {
    const error = await streamError(json(402, { error: { message: 'insufficient balance', type: 'insufficient_balance', param: null, code: 'insufficient_balance' } }));
    expectKind(error, 'insufficient_balance');
    const labels = error.remedy.links.map((l) => l.id);
    expect(labels).toEqual(expect.arrayContaining(['dashboard', 'purchase', 'redeem']));
    expect(error.remedy.links.every((l) => l.url.startsWith(SITE))).toBe(true);
  });
});

describe('new-api', () => {
  it('401 with code "" and a Chinese message is invalid_key', async () => {
    const error = await streamError(json(401, { error: { message: '无效的令牌', type: 'new_api_error', param: '', code: '' } }));
    expectKind(error, 'invalid_key');
    expect(error.code).toBeUndefined();
    expect(error.gatewayMessage).toBe('无效的令牌');
  });

  it('503 model_not_found', async () => {
    const error = await streamError(json(503, { error: { message: '当前分组 default 下对于模型 gpt-9 无可用渠道 (request id: 2025)', type: 'new_api_error', param: '', code: 'model_not_found' } }));
    expectKind(error, 'model_not_found');
  });

  it('403 insufficient_user_quota (Chinese message, full-width ＄)', async () => {
    const error = await streamError(json(403, { error: { message: '用户额度不足, 剩余额度: ＄0.000000', type: 'new_api_error', param: '', code: 'insufficient_user_quota' } }));
    expectKind(error, 'insufficient_balance');
  });

  it('403 pre_consume_token_quota_failed (the key\'s own limit) is a balance problem', async () => {
    const error = await streamError(json(403, { error: { message: '预扣费额度失败, 用户剩余额度: ＄0.01, 需要预扣费额度: ＄0.05', type: 'new_api_error', param: '', code: 'pre_consume_token_quota_failed' } }));
    expectKind(error, 'insufficient_balance');
  });

  it('403 with code "" (key may not use that model) is permission_denied', async () => {
    const error = await streamError(json(403, { error: { message: '该令牌无权访问模型 gpt-4o', type: 'new_api_error', param: '', code: '' } }));
    expectKind(error, 'permission_denied');
    expect(error.remedy.links[0]?.url).toBe(`${SITE}/keys`);
  });

  it('429 with a Chinese message and code ""', async () => {
    const error = await streamError(json(429, { error: { message: '您已达到请求数限制：1分钟内最多请求60次', type: 'new_api_error', param: '', code: '' } }));
    expectKind(error, 'rate_limited');
  });

  it('429 with an empty body (no Redis) and Retry-After', async () => {
    const error = await streamError({ status: 429, headers: { 'retry-after': '20' }, chunks: [] });
    expectKind(error, 'rate_limited');
    expect(error.retryAfter).toBe(20);
  });

  it('Retry-After as an HTTP date', async () => {
    const when = new Date(Date.now() + 30_000).toUTCString();
    const error = await streamError({ status: 429, headers: { 'retry-after': when }, chunks: [''] });
    expect(error.retryAfter).toBeGreaterThanOrEqual(28);
    expect(error.retryAfter).toBeLessThanOrEqual(31);
  });
});

describe('one-api', () => {
  it('401 for a key whose own quota is spent is insufficient_balance, not invalid_key', async () => {
    const error = await streamError(json(401, { error: { message: '该令牌额度已用尽', type: 'one_api_error' } }));
    expectKind(error, 'insufficient_balance');
  });

  it('503 "no channel available" without a code is model_not_found', async () => {
    const error = await streamError(json(503, { error: { message: '当前分组 default 下对于模型 gpt-9 无可用渠道', type: 'one_api_error' } }));
    expectKind(error, 'model_not_found');
  });
});

describe('OpenAI', () => {
  it('429 insufficient_quota is a balance problem, not a rate limit', async () => {
    const error = await streamError(json(429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }));
    expectKind(error, 'insufficient_balance');
  });

  it('404 model_not_found', async () => {
    const error = await streamError(json(404, { error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } }));
    expectKind(error, 'model_not_found');
  });

  it('401 that echoes part of the key: the key never appears in the error', async () => {
    const error = await streamError(json(401, { error: { message: `Incorrect API key provided: ${KEY.slice(0, 8)}*****${KEY.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }));
    expectKind(error, 'invalid_key');
    const everything = JSON.stringify(error) + error.message + String(error.stack);
    expect(everything).not.toContain(KEY.slice(0, 12));
    expect(everything).not.toContain(KEY);
  });

  it('400 context_length_exceeded is bad_request', async () => {
    const error = await streamError(json(400, { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }));
    expectKind(error, 'bad_request');
  });
});

describe('OpenRouter and DeepSeek', () => {
  it('OpenRouter 402 with a numeric code', async () => {
    const error = await streamError(json(402, { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits', metadata: {} } }));
    expectKind(error, 'insufficient_balance');
    expect(error.code).toBe('402');
  });

  it('DeepSeek 402 Insufficient Balance', async () => {
    const error = await streamError(json(402, { error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } }));
    expectKind(error, 'insufficient_balance');
  });
});

describe('LiteLLM, vLLM, Ollama', () => {
  it('LiteLLM 400 invalid model name with type "None"', async () => {
    const error = await streamError(json(400, { error: { message: "{'error': '/chat/completions: Invalid model name passed in model=gpt-9. Call `/v1/models` to view available models for your key.'}", type: 'None', param: 'None', code: '400' } }));
    expectKind(error, 'model_not_found');
    expect(error.type).toBeUndefined();
  });

  it('LiteLLM 429 budget_exceeded is a balance problem', async () => {
    const error = await streamError(json(429, { error: { message: 'Budget has been exceeded! Current cost: 1.2, Max budget: 1.0', type: 'budget_exceeded', param: 'None', code: '400' } }));
    expectKind(error, 'insufficient_balance');
  });

  it('vLLM 404 with a top-level error object', async () => {
    const error = await streamError(json(404, { object: 'error', message: 'The model `gpt-9` does not exist.', type: 'NotFoundError', param: null, code: 404 }));
    expectKind(error, 'model_not_found');
  });

  it('Ollama 404 model not found', async () => {
    const error = await streamError(json(404, { error: { message: 'model "llama9" not found, try pulling it first', type: 'api_error', param: null, code: null } }));
    expectKind(error, 'model_not_found');
  });

  it('an older proxy\'s {"error": "<string>"}', async () => {
    const error = await streamError(json(401, { error: 'invalid api key' }));
    expectKind(error, 'invalid_key');
    expect(error.gatewayMessage).toBe('invalid api key');
  });
});

describe('wrong addresses and broken gateways', () => {
  const page = '<!doctype html><html><head><title>New API</title></head><body><div id="root"></div></body></html>';

  it('an HTML page with status 200 is bad_address (chat)', async () => {
    const error = await streamError({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, chunks: [page] });
    expectKind(error, 'bad_address');
    expect(error.detail?.code).toBe('web_page_not_api');
  });

  it('an HTML page with status 200 is bad_address (models)', async () => {
    const error = await modelsError({ status: 200, headers: { 'content-type': 'text/html' }, chunks: [page] });
    expectKind(error, 'bad_address');
  });

  it('a 404 HTML page is bad_address', async () => {
    const error = await streamError({ status: 404, headers: { 'content-type': 'text/html' }, chunks: ['<html><body>Not Found</body></html>'] });
    expectKind(error, 'bad_address');
  });

  it('a redirect is not followed (the key stays with the configured origin)', async () => {
    const error = await streamError({ status: 301, headers: { location: 'https://elsewhere.example/v1/chat/completions' }, chunks: [] });
    expectKind(error, 'bad_address');
    expect(error.detail).toEqual({ code: 'redirected', params: { location: 'https://elsewhere.example/v1/chat/completions' } });
  });

  it('500 is server', async () => {
    expectKind(await streamError(json(500, { error: { message: 'upstream failed', type: 'server_error', code: 'internal_error' } })), 'server');
  });

  it('502 with a proxy\'s HTML page is server', async () => {
    expectKind(await streamError({ status: 502, headers: { 'content-type': 'text/html' }, chunks: ['<html>Bad Gateway</html>'] }), 'server');
  });

  it('504 is timeout', async () => {
    expectKind(await streamError({ status: 504, headers: {}, chunks: [] }), 'timeout');
  });

  it('a 200 list of another shape is bad_response', async () => {
    expectKind(await modelsError(json(200, { models: 'nope' })), 'bad_response');
  });

  it('a 200 that is neither JSON nor HTML is bad_response', async () => {
    expectKind(await modelsError({ status: 200, headers: { 'content-type': 'text/plain' }, chunks: ['OK'] }), 'bad_response');
  });

  it('a connection that cannot be made is network', async () => {
    const fetchFails = (async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    }) as unknown as typeof fetch;
    const client = createGatewayClient({ baseUrl: BASE, apiKey: KEY, fetch: fetchFails });
    const error = await client.listModels().catch((e: unknown) => e as GatewayError);
    expectKind(error as GatewayError, 'network');
    expect((error as GatewayError).detail).toEqual({ code: 'connect_failed', params: { origin: 'https://gw.example.com', cause: 'ECONNREFUSED' } });
  });

  it('no headers in time is timeout', async () => {
    const hangs = ((_url: string, init?: RequestInit) => new Promise<Response>((_, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    })) as unknown as typeof fetch;
    const client = createGatewayClient({ baseUrl: BASE, apiKey: KEY, fetch: hangs, limits: { headersTimeoutMs: 50 } });
    expectKind(await client.listModels().catch((e: unknown) => e as GatewayError) as GatewayError, 'timeout');
  });

  it('a request the user stops is aborted', async () => {
    const hangs = ((_url: string, init?: RequestInit) => new Promise<Response>((_, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    })) as unknown as typeof fetch;
    const client = createGatewayClient({ baseUrl: BASE, apiKey: KEY, fetch: hangs });
    const controller = new AbortController();
    const pending = collect(client.streamChat(hello, { signal: controller.signal })).catch((e: unknown) => e as GatewayError);
    setTimeout(() => controller.abort(), 10);
    expectKind(await pending as GatewayError, 'aborted');
  });

  it('an already-aborted signal never sends the request', async () => {
    const fake = replay(json(200, { data: [] }));
    const controller = new AbortController();
    controller.abort();
    const error = await clientFor(fake).listModels({ signal: controller.signal }).catch((e: unknown) => e as GatewayError);
    expectKind(error as GatewayError, 'aborted');
    expect(fake.calls).toHaveLength(0);
  });
});

describe('a prompt the model\'s filter refused', () => {
  it('Azure\'s 400 content_filter and new-api\'s prompt_blocked are content_blocked, with the catalogue to pick another model', async () => {
    const azure = await streamError(json(400, { error: {
      message: 'The response was filtered due to the prompt triggering Azure OpenAI\'s content management policy. Please modify your prompt and retry.',
      type: null, param: 'prompt', code: 'content_filter', status: 400,
      innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { hate: { filtered: true, severity: 'high' }, violence: { filtered: false, severity: 'safe' } } },
    } }));
    expectKind(azure, 'content_blocked');
    expect(azure.gatewayMessage).toContain('content management policy');
    expect(azure.remedy.links).toEqual([{ id: 'catalogue', url: `${SITE}/models` }]);
    const newApi = await streamError(json(400, { error: { message: 'request blocked by Gemini API: SAFETY', type: 'new_api_error', param: '', code: 'prompt_blocked' } }));
    expectKind(newApi, 'content_blocked');
  });
});

describe('every kind', () => {
  it('carries codes, not sentences, and the tests above met every kind', () => {
    for (const kind of GATEWAY_ERROR_KINDS) {
      const error = new GatewayError({ kind, url: `${BASE}/models`, siteUrl: SITE });
      expect(error.message.startsWith(kind)).toBe(true);
      expect(error.toJSON()).not.toHaveProperty('message');
      expect(error.message).toContain(`${BASE}/models`);
    }
    // bad_request, server, timeout and the rest are all reached by a recorded response above.
    expect([...seen].sort()).toEqual([...GATEWAY_ERROR_KINDS].sort());
  });
});
