/** The per-file lifecycle of browser tests (vitest hooks: kept out of the harness, which npm start also uses). */
import { afterAll, beforeAll } from 'vitest';
import { startReferenceGateway, type ReferenceGateway, type ReferenceGatewayOptions } from '../gateway/server';
import { launchExtension, type LaunchedExtension, type LaunchOptions } from './harness';

/**
 * One reference gateway and one launched extension for a test file: started before its tests,
 * closed after them. Read them through the returned getters inside hooks and tests.
 */
export function gatewayAndExtensionPerFile(options: LaunchOptions = {}, gatewayOptions: ReferenceGatewayOptions = {}): { readonly gateway: ReferenceGateway; readonly ext: LaunchedExtension } {
  let gateway: ReferenceGateway | undefined;
  let ext: LaunchedExtension | undefined;
  beforeAll(async () => {
    gateway = await startReferenceGateway(gatewayOptions);
    ext = await launchExtension(options);
  });
  afterAll(async () => {
    await ext?.close();
    await gateway?.close();
  });
  return {
    get gateway() {
      if (gateway === undefined) throw new Error('the reference gateway is not started yet');
      return gateway;
    },
    get ext() {
      if (ext === undefined) throw new Error('the extension is not launched yet');
      return ext;
    },
  };
}

