/**
 * The main journey in Simplified Chinese: Chromium started with --lang=zh-CN, the reference
 * gateway answering in new-api's Chinese messages. Setup in the options page, a streamed reply,
 * an invalid key with our remedy in Chinese beside the gateway's own words, the context menu's
 * titles, the side panel's tabs; then the language switched in the options page reaches an open
 * side panel without a reload. Screenshots (fonts-noto-cjk) go to test-results/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearConversations, compareWith, profileFor, resetSettings } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile({ lang: 'zh-CN' });
const SHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');
mkdirSync(SHOTS, { recursive: true });

beforeEach(async () => {
  env.gateway.reset();
  env.gateway.setLanguage('zh-CN');
  await clearConversations(env.ext);
});

const chineseReply = (page: Page) => page.getByRole('article', { name: '助手消息' }).last();

async function sendChinese(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: '消息', exact: true }).fill(text);
  await page.keyboard.press('Enter');
}

describe('in Simplified Chinese (--lang=zh-CN)', () => {
  it('setup in the options page, then a streamed reply in the popup', async () => {
    await resetSettings(env.ext, undefined);
    const options = await env.ext.open('options.html');
    await options.getByRole('heading', { name: '设置', exact: true }).waitFor();
    await options.getByRole('textbox', { name: '网关地址', exact: true }).fill(env.gateway.siteUrl);
    await options.getByRole('textbox', { name: 'API 密钥', exact: true }).fill(env.gateway.demoKey);
    await options.getByRole('button', { name: '测试连接', exact: true }).click();
    await options.getByRole('status').filter({ hasText: '已连接：有 12 个可用模型。' }).waitFor();
    await options.getByRole('button', { name: '保存', exact: true }).click();
    await options.getByRole('status').filter({ hasText: `已保存。请求只会发送到 ${env.gateway.baseUrl}。` }).waitFor();
    await options.screenshot({ path: join(SHOTS, 'zh-CN-options.png'), fullPage: false });
    await options.close();

    const popup = await env.ext.open('popup.html');
    await popup.setViewportSize({ width: 400, height: 600 });
    await sendChinese(popup, '你好，网关');
    await chineseReply(popup).getByText('Echo: 你好，网关').waitFor();
    await expect.poll(() => chineseReply(popup).getAttribute('data-status')).toBe('complete');
    await expect(popup.getByRole('main', { name: '快速聊天' }).count()).resolves.toBe(1);
    await popup.screenshot({ path: join(SHOTS, 'zh-CN-popup.png') });
    await popup.close();
  });

  it('an invalid key: our title and remedy in Chinese, the gateway\'s own words as sent', async () => {
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, 'sk-wrong-key-000000000000000000000'));
    const popup = await env.ext.open('popup.html');
    await popup.setViewportSize({ width: 400, height: 600 });
    await sendChinese(popup, '你好');
    const alert = chineseReply(popup).getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('API 密钥被拒绝');
    expect(text).toContain('在你所用账户的令牌页面新建一个 API 密钥');
    expect(text).toContain('网关原话：');
    expect(text).toContain('无效的令牌');
    expect(text).toContain('INVALID_API_KEY');
    await expect(alert.getByRole('link', { name: '令牌页面' }).getAttribute('href')).resolves.toBe(`${env.gateway.siteUrl}/keys`);
    await popup.screenshot({ path: join(SHOTS, 'zh-CN-invalid-key.png') });
    await popup.close();
  });

  it('the context menu\'s titles and the shipped actions are Chinese', async () => {
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { actionModel: 'summarise-1' }));
    const worker = await env.ext.worker();
    await expect.poll(() => worker.evaluate('globalThis.__gatewayChatTest.menu().map((e) => e.title)')).toEqual([
      '用 summarise-1 总结', '更多 Gateway Chat 操作', '解释', '翻译成简体中文', '向 Gateway Chat 询问此页面',
    ]);
  });

  it('the side panel\'s tabs are Chinese, and choosing English in the options page re-words the open panel without a reload', async () => {
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
    const panel = await env.ext.open('sidepanel.html');
    await panel.setViewportSize({ width: 400, height: 800 });
    const tabs = panel.getByRole('tablist', { name: '侧边栏' });
    await tabs.waitFor();
    await expect(tabs.getByRole('tab').allTextContents()).resolves.toEqual(['聊天', '对话', '模型目录']);
    await panel.screenshot({ path: join(SHOTS, 'zh-CN-sidepanel.png') });
    // Marks the document: a reload would lose it.
    await panel.evaluate('globalThis.__notReloaded = true');

    const options = await env.ext.open('options.html');
    const language = options.getByRole('combobox', { name: '语言', exact: true });
    await language.click();
    await expect(options.getByRole('option').allTextContents()).resolves.toEqual(['跟随浏览器', 'English', '简体中文']);
    await options.getByRole('option', { name: 'English', exact: true }).click();
    await options.getByRole('combobox', { name: 'Language', exact: true }).waitFor();

    const english = panel.getByRole('tablist', { name: 'Side panel' });
    await english.waitFor();
    await expect(english.getByRole('tab').allTextContents()).resolves.toEqual(['Chat', 'Conversations', 'Catalogue']);
    await expect(panel.evaluate('globalThis.__notReloaded')).resolves.toBe(true);
    // The context menu is rebuilt in English too.
    const worker = await env.ext.worker();
    await expect.poll(() => worker.evaluate('globalThis.__gatewayChatTest.menu()[1]?.title')).toBe('More Gateway Chat actions');
    await options.close();
    await panel.close();
  });

  it('compare and the prompt list speak Chinese: two models answer side by side, / lists the shipped actions by their Chinese names', async () => {
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
    const page = await env.ext.open('chat.html');
    await page.setViewportSize({ width: 1280, height: 800 });
    await compareWith(page, ['legacy-1'], { button: '对比模型', add: '添加要对比的模型', remove: (m) => `从对比中移除 ${m}` });
    await sendChinese(page, '潮汐是怎么形成的？');
    const compared = page.getByRole('region', { name: '对比的回复' }).getByRole('article', { name: '助手消息' });
    await expect.poll(() => compared.count()).toBe(2);
    await expect.poll(() => page.locator('[data-status="complete"]').count()).toBe(2);
    await expect(compared.first().getByRole('button', { name: '用这个继续' }).count()).resolves.toBe(1);
    await page.screenshot({ path: join(SHOTS, 'zh-CN-compare.png') });

    await page.getByRole('textbox', { name: '消息', exact: true }).fill('/');
    const list = page.getByRole('listbox', { name: '提示词' });
    await list.waitFor();
    await expect(list.getByRole('option').evaluateAll((options) => options.map((o) => o.getAttribute('aria-label')))).resolves.toEqual(['总结 操作', '解释 操作', '翻译成简体中文 操作']);
    await page.screenshot({ path: join(SHOTS, 'zh-CN-prompts.png') });
    await page.close();
  });
});
