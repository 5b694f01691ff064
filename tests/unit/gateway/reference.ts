/**
 * The reference gateway for a test file (or a describe block): started once, reset before each
 * test with a fresh client holding the demo key, closed at the end.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createGatewayClient, type GatewayClient } from '@/lib/gateway';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

export function referenceGatewayPerFile(): { readonly gateway: ReferenceGateway; readonly client: GatewayClient } {
  let gateway: ReferenceGateway | undefined;
  let client: GatewayClient | undefined;
  beforeAll(async () => {
    gateway = await startReferenceGateway();
  });
  afterAll(async () => {
    await gateway?.close();
  });
  beforeEach(() => {
    gateway!.reset();
    client = createGatewayClient({ baseUrl: gateway!.baseUrl, apiKey: gateway!.demoKey });
  });
  return {
    get gateway() {
      return gateway!;
    },
    get client() {
      return client!;
    },
  };
}
