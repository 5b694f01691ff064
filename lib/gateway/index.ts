/**
 * The gateway protocol library: everything the extension's surfaces use to talk to a
 * chat-completions-compatible gateway. Framework-free; import from `lib/gateway` only.
 */
export { resolveGatewayAddress, tryResolveGatewayAddress, endpointUrl, sendsKeyInClear, GatewayAddressError } from './address';
export type { GatewayAddress, AddressProblem, AddressResult } from './address';
export { createGatewayClient, DEFAULT_LIMITS } from './client';
export type { GatewayClient, GatewayClientOptions, GatewayLimits, CallOptions, BalanceOptions } from './client';
export { BALANCE_SOURCES, costOf, priceOf, replyCost } from './billing';
export type { Balance, BalanceSource, ModelPrice, PriceList, ReplyCost } from './billing';
export { GatewayError, GATEWAY_ERROR_KINDS, remedyFor, redactSecrets } from './errors';
export type { GatewayErrorKind, Remedy, RemedyLink } from './errors';
export { parseModelList } from './models';
export { imageEditForm, imageGenerationBody } from './images';
export { SPEECH_FORMATS, SPEECH_MAX_INPUT, recordingName, speechBody, transcriptionForm, type SpeechFormat, type SpeechRequest, type TranscriptionRequest } from './audio';
export type { ImageEditRequest, ImageEvent, ImageRequest } from './images';
export { API_STYLES, chooseApi, isApiStyle } from './interfaces/names';
export type {
  ApiStyle,
  Capability,
  ChatMessage,
  ChatRequest,
  ContentPart,
  ModelCapabilities,
  ModelInfo,
  ReplySource,
  StreamEvent,
  TextMessage,
  ToolCall,
  ToolSpec,
  Usage,
} from './types';
