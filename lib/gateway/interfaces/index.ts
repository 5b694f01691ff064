/** Every interface the client speaks, by name. */
import { anthropicInterface } from './anthropic';
import { chatInterface } from './chat';
import { geminiInterface } from './gemini';
import type { WireInterface } from './interface';
import type { ApiStyle } from './names';
import { responsesInterface } from './responses';

export const WIRE_INTERFACES: Readonly<Record<ApiStyle, WireInterface>> = {
  chat: chatInterface,
  responses: responsesInterface,
  anthropic: anthropicInterface,
  gemini: geminiInterface,
};

export type { WireInterface } from './interface';
export { API_STYLES, ENDPOINT_TYPE_API, isApiStyle, type ApiStyle } from './names';
