/**
 * Attached files (issue 32): a PDF attached in the popup is read in the files worker and its
 * text reaches the gateway (a marker from its second page), the sent message shows its card,
 * which opens the text; a password-protected PDF is refused by name, and nothing else in the
 * composer is lost.
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { gatewayAndExtensionPerFile } from './fixture';
import { lastReply, profileFor, resetSettings, send } from './harness';

const env = gatewayAndExtensionPerFile();
const FILES = join(import.meta.dirname, '../fixtures/files');

beforeEach(() => env.gateway.reset());

async function popup(theme: 'light' | 'dark' = 'light') {
  const settings = profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'echo-1' });
  await resetSettings(env.ext, { ...settings, appearance: { theme, language: 'browser' } });
  const page = await env.ext.open('popup.html');
  await page.setViewportSize({ width: 400, height: 600 });
  await page.getByRole('button', { name: 'New chat' }).click();
  return page;
}

const chatRequests = () => env.gateway.requests.filter((r) => r.path === '/v1/chat/completions');
/** Chat requests whose body the gateway has read (a request is logged when it arrives, its body a moment later). */
const chatRequestsRead = () => chatRequests().filter((r) => r.body !== undefined);
const lastUserContent = (): string => {
  const body = chatRequestsRead().at(-1)?.body as { messages: { role: string; content: unknown }[] } | undefined;
  const content = body?.messages.filter((m) => m.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
};

describe('Attach file', () => {
  it('sends a PDF\'s text, page by page, and shows its card, which opens the text', async () => {
    const page = await popup();
    await page.getByLabel('Attach file').setInputFiles(join(FILES, 'report.pdf'));
    const chips = page.getByRole('list', { name: 'Attached files' });
    await chips.getByText(/^3 pages · ~\d+ tokens$/).waitFor({ timeout: 15_000 });
    await expect(chips.getByRole('button', { name: 'Remove report.pdf' }).isVisible()).resolves.toBe(true);
    await send(page, 'What does page two say?');
    await expect.poll(() => chatRequestsRead().length, { timeout: 10_000 }).toBe(1);
    expect(chatRequests()).toHaveLength(1);
    const content = lastUserContent();
    expect(content.startsWith('What does page two say?\n\nAttached file "report.pdf" (3 pages):\n```text\n[Page 1]\n')).toBe(true);
    expect(content).toContain('[Page 2]\nQuarterly report, page 2\nMARKER-PAGE-2: this line is on page 2.');
    // Sent: the composer is empty again, and the question shows the file as a card. (The request
    // leaves before the page draws the sent message: the page is waited for, not read at once.)
    await expect.poll(() => page.getByRole('list', { name: 'Attached files' }).count()).toBe(1);
    const card = page.getByRole('article', { name: 'User message' }).getByRole('button', { name: 'Open report.pdf' });
    await card.click();
    const dialog = page.getByRole('dialog', { name: 'report.pdf' });
    await dialog.getByText('MARKER-PAGE-2: this line is on page 2.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await lastReply(page).getByText(/^Echo: What does page two say\?/).waitFor();
    await page.close();
  });

  it('refuses a password-protected PDF by name, and keeps the text typed and the files attached', async () => {
    const page = await popup();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Compare these');
    await page.getByLabel('Attach file').setInputFiles([join(FILES, 'comparison.docx'), join(FILES, 'protected.pdf'), join(FILES, 'notes.txt')]);
    const alert = page.getByRole('alert').filter({ hasText: 'protected.pdf is password-protected' });
    await alert.waitFor({ timeout: 15_000 });
    await expect(alert.textContent()).resolves.toContain('notes.txt is not a text file');
    await page.getByRole('list', { name: 'Attached files' }).getByText('comparison.docx').waitFor();
    await expect(box.inputValue()).resolves.toBe('Compare these');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => chatRequestsRead().length, { timeout: 10_000 }).toBe(1);
    expect(chatRequests()).toHaveLength(1);
    expect(lastUserContent()).toContain('| deepseek-chat | 64k | 0.27 |');
    expect(lastUserContent()).not.toContain('protected.pdf');
    await page.close();
  });

  it('looks designed with files attached, light and dark, at the popup\'s size', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const page = await popup(theme);
      await page.getByRole('textbox', { name: 'Message' }).fill('Summarise the report and check the table against the prices.');
      await page.getByLabel('Attach file').setInputFiles([join(FILES, 'report.pdf'), join(FILES, 'comparison.docx'), join(FILES, 'prices.csv'), join(FILES, 'scanned.pdf')]);
      await page.getByRole('list', { name: 'Attached files' }).getByText('prices.csv').waitFor({ timeout: 15_000 });
      await page.getByRole('alert').filter({ hasText: 'scanned.pdf has no text to read' }).waitFor();
      await page.screenshot({ path: `test-results/screens/${theme}-popup-attached-files.png` });
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await page.getByRole('button', { name: 'Send' }).click();
      const card = page.getByRole('article', { name: 'User message' }).getByRole('button', { name: 'Open comparison.docx' });
      await card.waitFor();
      await lastReply(page).getByText(/^Echo: Summarise/).waitFor();
      await page.getByRole('article', { name: 'User message' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `test-results/screens/${theme}-popup-sent-files.png` });
      await page.close();
    }
  });
});
