/** `GET /models` in the shapes real gateways send. */
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, clientFor, replay } from './recordings';

async function list(body: unknown) {
  const fake = replay({ headers: JSON_TYPE, chunks: [JSON.stringify(body)] });
  const models = await clientFor(fake).listModels();
  return { models, fake };
}

describe('listModels', () => {
  it('GETs {base_url}/models with the bearer key', async () => {
    const { fake } = await list({ data: [] });
    expect(fake.calls[0]?.url).toBe('https://gw.example.com/v1/models');
    expect(fake.calls[0]?.init?.method).toBe('GET');
    expect((fake.calls[0]?.init?.headers as Record<string, string>).Authorization).toMatch(/^Bearer sk-/);
  });

  it("new-api: supported_endpoint_types gives chat, Responses, image generation; the first is preferred", async () => {
    const { models } = await list({
      data: [
        { id: 'gpt-4o', object: 'model', created: 1, owned_by: 'openai', supported_endpoint_types: ['openai', 'openai-response'] },
        { id: 'o3-pro', object: 'model', created: 1, owned_by: 'openai', supported_endpoint_types: ['openai-response'] },
        { id: 'dall-e-3', object: 'model', created: 1, owned_by: 'openai', supported_endpoint_types: ['image-generation'] },
        { id: 'text-embedding-3-small', object: 'model', created: 1, owned_by: 'openai', supported_endpoint_types: ['embeddings'] },
        { id: 'mystery', object: 'model', created: 1, owned_by: 'custom', supported_endpoint_types: [] },
      ],
      object: 'list',
      success: true,
    });
    expect(models[0]).toEqual({
      id: 'gpt-4o',
      ownedBy: 'openai',
      endpointTypes: ['openai', 'openai-response'],
      apis: ['chat', 'responses'],
      preferredApi: 'chat',
      capabilities: { chat: true, responses: true, imageInput: 'unknown', imageGeneration: false, embeddings: false, reasoning: 'unknown', tools: 'unknown' },
    });
    expect(models[1]).toMatchObject({ preferredApi: 'responses', capabilities: { chat: false, responses: true } });
    expect(models[2]?.capabilities).toMatchObject({ chat: false, imageGeneration: true });
    expect(models[3]?.capabilities).toMatchObject({ chat: false, embeddings: true });
    // [] means the gateway does not know: every capability stays unknown.
    expect(models[4]?.capabilities).toEqual({ chat: 'unknown', responses: 'unknown', imageInput: 'unknown', imageGeneration: 'unknown', embeddings: 'unknown', reasoning: 'unknown', tools: 'unknown' });
    expect(models[4]?.preferredApi).toBeUndefined();
  });

  it('new-api: a model served through Anthropic Messages and Gemini lists those interfaces, the first preferred', async () => {
    const { models } = await list({
      data: [
        { id: 'claude-sonnet-4', object: 'model', created: 1, owned_by: 'anthropic', supported_endpoint_types: ['anthropic', 'openai'] },
        { id: 'gemini-2.5-pro', object: 'model', created: 1, owned_by: 'google', supported_endpoint_types: ['gemini', 'openai', 'image-generation'] },
      ],
      object: 'list',
      success: true,
    });
    expect(models[0]).toMatchObject({ apis: ['anthropic', 'chat'], preferredApi: 'anthropic', capabilities: { chat: true } });
    expect(models[1]).toMatchObject({ apis: ['gemini', 'chat'], preferredApi: 'gemini', capabilities: { chat: true, imageGeneration: true } });
  });

  it('older new-api / one-api: no object field, with permission, root and parent', async () => {
    const { models } = await list({
      data: [{ id: 'gpt-3.5-turbo', created: 1626777600, owned_by: 'openai', permission: [{ id: 'modelperm-x', allow_sampling: true }], root: 'gpt-3.5-turbo', parent: null }],
      success: true,
    });
    expect(models).toEqual([{ id: 'gpt-3.5-turbo', ownedBy: 'openai', capabilities: { chat: 'unknown', responses: 'unknown', imageInput: 'unknown', imageGeneration: 'unknown', embeddings: 'unknown', reasoning: 'unknown', tools: 'unknown' } }]);
  });

  it('OpenRouter: architecture modalities, context length and name; no object fields', async () => {
    const { models } = await list({
      data: [
        {
          id: 'openai/gpt-4o', name: 'OpenAI: GPT-4o', context_length: 128000,
          architecture: { modality: 'text+image->text', input_modalities: ['text', 'image', 'file'], output_modalities: ['text'], tokenizer: 'GPT' },
          pricing: { prompt: '0.0000025', completion: '0.00001' },
        },
        { id: 'google/gemini-2.5-flash-image', name: 'Gemini Image', architecture: { input_modalities: ['text', 'image'], output_modalities: ['image', 'text'] } },
        { id: 'meta/llama-3-8b', architecture: { modality: 'text->text' } },
      ],
    });
    expect(models[0]).toEqual({
      id: 'openai/gpt-4o',
      name: 'OpenAI: GPT-4o',
      contextLength: 128000,
      capabilities: { chat: true, responses: 'unknown', imageInput: true, imageGeneration: false, embeddings: 'unknown', reasoning: 'unknown', tools: 'unknown', fileInput: true },
    });
    expect(models[1]?.capabilities).toMatchObject({ imageInput: true, imageGeneration: true, chat: true, fileInput: false });
    expect(models[2]?.capabilities).toMatchObject({ imageInput: false, chat: true });
  });

  it("OpenRouter's supported_parameters state reasoning and tools; without them both stay unknown", async () => {
    const { models } = await list({
      data: [
        { id: 'deepseek/deepseek-r1', supported_parameters: ['max_tokens', 'reasoning', 'include_reasoning', 'tools', 'tool_choice'] },
        { id: 'meta/llama-3-8b', supported_parameters: ['max_tokens', 'temperature'] },
        { id: 'plain' },
      ],
    });
    expect(models[0]?.capabilities).toMatchObject({ reasoning: true, tools: true });
    expect(models[1]?.capabilities).toMatchObject({ reasoning: false, tools: false });
    expect(models[2]?.capabilities).toMatchObject({ reasoning: 'unknown', tools: 'unknown' });
  });

  it('Ollama may answer data: null', async () => {
    expect((await list({ object: 'list', data: null })).models).toEqual([]);
  });

  it('a bare array, entries without an id skipped, duplicates kept once', async () => {
    const { models } = await list([{ id: 'a' }, { name: 'no id' }, 7, { id: 'a', owned_by: 'dup' }, { id: 'b', owned_by: '' }]);
    expect(models.map((m) => m.id)).toEqual(['a', 'b']);
    expect(models[1]?.ownedBy).toBeUndefined();
  });

  it('vLLM and LiteLLM extra fields pass without harm', async () => {
    const { models } = await list({ object: 'list', data: [{ id: 'qwen', object: 'model', created: 1, owned_by: 'vllm', root: '/models/qwen', max_model_len: 32768, permission: [] }] });
    expect(models[0]).toMatchObject({ id: 'qwen', ownedBy: 'vllm' });
  });

  it('an error body with status 200 (success: false) is thrown, not an empty list', async () => {
    await expect(list({ success: false, message: '无权进行此操作，未登录且未提供 access token' })).rejects.toMatchObject({ name: 'GatewayError' });
  });
});

describe('chooseApi', () => {
  it("the conversation's choice, else the model's preferred interface, else the profile's default", async () => {
    const { chooseApi } = await import('@/lib/gateway');
    expect(chooseApi('gemini', { preferredApi: 'anthropic' }, 'chat')).toBe('gemini');
    // A Responses-only model works under a Chat profile.
    expect(chooseApi(undefined, { preferredApi: 'responses' }, 'chat')).toBe('responses');
    expect(chooseApi(undefined, {}, 'responses')).toBe('responses');
    expect(chooseApi(undefined, undefined, 'chat')).toBe('chat');
  });
});
