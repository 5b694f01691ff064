import type { ApiStyle } from '@/lib/gateway';

/** Each interface's full name (settings, titles). */
export const API_NAME = {
  chat: 'chat.settings.apiChat',
  responses: 'chat.settings.apiResponses',
  anthropic: 'chat.settings.apiAnthropic',
  gemini: 'chat.settings.apiGemini',
} as const satisfies Record<ApiStyle, string>;
