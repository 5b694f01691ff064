/** For fake gateway clients in tests that never ask for images: the image calls, refusing. */
import type { GatewayClient } from '@/lib/gateway';

export const NO_IMAGES: Pick<GatewayClient, 'generateImages' | 'editImages' | 'fetchImage'> = {
  generateImages: () => {
    throw new Error('this fake client asks for no images');
  },
  editImages: () => {
    throw new Error('this fake client asks for no images');
  },
  fetchImage: () => Promise.reject(new Error('this fake client asks for no images')),
};

/** For fake gateway clients in tests that never speak or transcribe: the audio calls, refusing. */
export const NO_AUDIO: Pick<GatewayClient, 'speak' | 'transcribe'> = {
  speak: () => Promise.reject(new Error('this fake client asks for no speech')),
  transcribe: () => Promise.reject(new Error('this fake client asks for no transcription')),
};
