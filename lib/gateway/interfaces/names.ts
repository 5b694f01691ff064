/**
 * The interfaces a gateway can serve a model through, one name each: every type, zod enum and
 * list of them derives from this constant.
 */
export const API_STYLES = ['chat', 'responses', 'anthropic', 'gemini'] as const;

/**
 * `chat`: POST {base}/chat/completions; `responses`: POST {base}/responses; `anthropic`: POST
 * {base}/messages (Anthropic Messages); `gemini`: POST {site}/v1beta/models/{model}:streamGenerateContent.
 */
export type ApiStyle = (typeof API_STYLES)[number];

/** new-api's `supported_endpoint_types` words for each interface. */
export const ENDPOINT_TYPE_API: Readonly<Record<string, ApiStyle>> = {
  openai: 'chat',
  'openai-response': 'responses',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

export function isApiStyle(value: unknown): value is ApiStyle {
  return typeof value === 'string' && (API_STYLES as readonly string[]).includes(value);
}

/**
 * The interface a request goes through: the conversation's own choice; else the model's preferred
 * one, where the catalogue says (a Responses-only model works under a Chat profile); else the
 * profile's default.
 */
export function chooseApi(own: ApiStyle | undefined, model: { preferredApi?: ApiStyle | undefined } | undefined, profileDefault: ApiStyle): ApiStyle {
  return own ?? model?.preferredApi ?? profileDefault;
}
