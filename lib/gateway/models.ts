/**
 * The model catalogue (`GET /models`) in the shapes real gateways send, normalised to
 * `ModelInfo`. A capability is `true`/`false` only where the gateway states it (new-api's
 * `supported_endpoint_types`, OpenRouter's `architecture` and
 * `supported_parameters`), otherwise `'unknown'`.
 */
import { ENDPOINT_TYPE_API, type ApiStyle } from './interfaces/names';
import type { ModelCapabilities, ModelInfo } from './types';
import { ModelListWire, ModelWire } from './wire';
import { ownValue } from '../shared/own-keys';

const UNKNOWN: ModelCapabilities = {
  chat: 'unknown',
  responses: 'unknown',
  imageInput: 'unknown',
  imageGeneration: 'unknown',
  embeddings: 'unknown',
  reasoning: 'unknown',
  tools: 'unknown',
};

function fromEndpointTypes(types: readonly string[]): Pick<ModelCapabilities, 'chat' | 'responses' | 'imageGeneration' | 'embeddings'> {
  const has = (t: string): boolean => types.includes(t);
  return {
    chat: has('openai') || has('anthropic') || has('gemini'),
    responses: has('openai-response'),
    imageGeneration: has('image-generation'),
    embeddings: has('embeddings'),
  };
}

function fromModalities(input: readonly string[] | undefined, output: readonly string[] | undefined): Partial<ModelCapabilities> {
  const caps: Partial<ModelCapabilities> = {};
  if (input !== undefined) {
    caps.imageInput = input.includes('image');
    caps.fileInput = input.includes('file');
  }
  if (output !== undefined) {
    caps.imageGeneration = output.includes('image');
    // Text out means a chat model, unless the endpoint types already said which endpoints serve it.
    caps.chat = output.includes('text');
  }
  return caps;
}

/** OpenRouter's older single string, e.g. "text+image->text". */
function splitModality(modality: string): { input: string[]; output: string[] } | undefined {
  const [input, output] = modality.split('->');
  if (input === undefined || output === undefined) return undefined;
  return { input: input.split('+'), output: output.split('+') };
}

export function normalizeModel(wire: ModelWire): ModelInfo {
  let capabilities: ModelCapabilities = { ...UNKNOWN };
  const info: ModelInfo = { id: wire.id, capabilities };
  if (wire.owned_by != null && wire.owned_by !== '') info.ownedBy = wire.owned_by;
  if (wire.name != null && wire.name !== '' && wire.name !== wire.id) info.name = wire.name;
  if (wire.context_length != null) info.contextLength = wire.context_length;

  const types = wire.supported_endpoint_types;
  if (types != null && types.length > 0) {
    info.endpointTypes = [...types];
    capabilities = { ...capabilities, ...fromEndpointTypes(types) };
    // The interfaces it can be reached through, in the gateway's order: the first is the preferred one.
    const apis = [...new Set(types.map((t) => ownValue(ENDPOINT_TYPE_API, t)).filter((a): a is ApiStyle => a !== undefined))];
    if (apis.length > 0) {
      info.apis = apis;
      info.preferredApi = apis[0]!;
    }
  }
  const arch = wire.architecture;
  if (arch != null) {
    const split = arch.modality == null ? undefined : splitModality(arch.modality);
    const stated = fromModalities(arch.input_modalities ?? split?.input, arch.output_modalities ?? split?.output);
    if (capabilities.chat !== 'unknown') delete stated.chat;
    capabilities = { ...capabilities, ...stated };
  }
  const parameters = wire.supported_parameters;
  if (parameters != null) {
    capabilities.reasoning = parameters.includes('reasoning') || parameters.includes('include_reasoning');
    capabilities.tools = parameters.includes('tools');
  }
  info.capabilities = capabilities;
  return info;
}

export interface ParsedCatalogue {
  models: ModelInfo[];
  /** Entries that were not models (no string `id`): counted, not silently dropped. */
  skipped: number;
}

/** Returns undefined when the body is not a model list at all. */
export function parseModelList(body: unknown): ParsedCatalogue | undefined {
  const list = ModelListWire.safeParse(body);
  if (!list.success) return undefined;
  const entries = Array.isArray(list.data) ? list.data : list.data.data ?? [];
  const seen = new Set<string>();
  const models: ModelInfo[] = [];
  let skipped = 0;
  for (const entry of entries) {
    const model = ModelWire.safeParse(entry);
    if (!model.success || model.data.id === '') {
      skipped++;
      continue;
    }
    if (seen.has(model.data.id)) continue;
    seen.add(model.data.id);
    models.push(normalizeModel(model.data));
  }
  return { models, skipped };
}

