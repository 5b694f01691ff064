/**
 * The setup the popup benches share: the e2e build, the reference gateway, Chromium with the
 * extension and a profile on echo-1; then each sample in a freshly opened popup (400×600, a new
 * chat), with `watch` installed before the page's own code runs.
 */
import type { Page } from 'playwright-core';
import { launchExtension, profileFor, writeSettings } from '../browser/harness';
import { startReferenceGateway, type ReferenceGatewayOptions } from '../gateway/server';
import { build } from './popup';

export async function inFreshPopups(samples: number, watch: string, sample: (page: Page, i: number) => Promise<void>, gatewayOptions: ReferenceGatewayOptions = {}): Promise<void> {
  build('e2e');
  const gateway = await startReferenceGateway(gatewayOptions);
  const ext = await launchExtension();
  try {
    const setup = await ext.open('options.html');
    await writeSettings(setup, profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey, { defaultModel: 'echo-1' }));
    await setup.close();
    for (let i = 0; i < samples; i++) {
      const page = await ext.context.newPage();
      await page.setViewportSize({ width: 400, height: 600 });
      await page.addInitScript({ content: watch });
      await page.goto(`chrome-extension://${ext.extensionId}/popup.html`);
      await page.getByRole('button', { name: 'New chat' }).click();
      await sample(page, i);
      await page.close();
    }
  } finally {
    await ext.close();
    await gateway.close();
  }
}
