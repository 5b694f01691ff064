/**
 * What a run needs of the gateway client for images (issue 30). These shapes are the contract's
 * for `lib/gateway` (helper A's `generateImages`, `editImages`, `fetchImage` on GatewayClient);
 * until that lands on this branch they are declared here. At the merge: import them from
 * `../gateway` instead, and `imageClient` becomes the identity.
 */
import { GatewayError, type CallOptions, type GatewayClient, type Usage } from '../gateway';
import type { ImageOptions } from '../images/types';

export interface ImageRequest extends ImageOptions {
  model: string;
  prompt: string;
  stream?: boolean;
}

export interface ImageEditRequest extends ImageRequest {
  images: Blob[];
  mask?: Blob;
}

export type ImageEvent =
  | { type: 'partial'; index: number; b64: string; mime: string }
  | { type: 'image'; index: number; b64?: string; url?: string; mime: string; revisedPrompt?: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'error'; error: GatewayError }
  | { type: 'done' };

export interface ImageCapableClient extends GatewayClient {
  generateImages(request: ImageRequest, options?: CallOptions): AsyncIterable<ImageEvent>;
  editImages(request: ImageEditRequest, options?: CallOptions): AsyncIterable<ImageEvent>;
  /** GET an image the gateway answered with by address (`data[].url`): no key, no cookies. */
  fetchImage(url: string, options?: CallOptions): Promise<Blob>;
}

/** The client as one that asks for images; a client without them fails the run as the gateway's (never silently). */
export function imageClient(client: GatewayClient): ImageCapableClient {
  const maybe = client as Partial<ImageCapableClient>;
  if (typeof maybe.generateImages === 'function' && typeof maybe.editImages === 'function' && typeof maybe.fetchImage === 'function') return client as ImageCapableClient;
  throw new GatewayError({ kind: 'bad_response', url: client.baseUrl, detail: { code: 'internal', text: 'image requests are not available in this build' } });
}
