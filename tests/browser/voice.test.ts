/**
 * Voice (issue 32): "Read aloud" on a reply in the popup asks the gateway's speech model
 * (`/v1/audio/speech`, the reference gateway serving tts-1) and plays the audio to its end; read
 * again, the session's audio plays with no request; "Stop reading" stops it at once.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { AUDIO_MODELS } from '../gateway/audio';
import { gatewayAndExtensionPerFile } from './fixture';
import { lastReply, profileFor, resetSettings, send } from './harness';

const env = gatewayAndExtensionPerFile({}, { extraModels: AUDIO_MODELS });

beforeEach(() => env.gateway.reset());

async function replyInPopup(text: string, theme: 'light' | 'dark' = 'light') {
  const settings = profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'echo-1' });
  await resetSettings(env.ext, { ...settings, appearance: { theme, language: 'browser' } });
  const page = await env.ext.open('popup.html');
  await page.setViewportSize({ width: 400, height: 600 });
  await page.getByRole('button', { name: 'New chat' }).click();
  // Counts every audio element that played to its end ('ended' does not bubble: caught on the way down).
  await page.evaluate(() => {
    (window as unknown as { ended: number }).ended = 0;
    document.addEventListener('ended', () => { (window as unknown as { ended: number }).ended++; }, true);
  });
  await send(page, text);
  await lastReply(page).getByText(`Echo: ${text}`).waitFor();
  return page;
}

const speechRequests = () => env.gateway.requests.filter((r) => r.path === '/v1/audio/speech');

describe('Read aloud', () => {
  it('asks the gateway\'s speech model and plays the reply to its end; read again, no request', async () => {
    const page = await replyInPopup('Read this back. It has two sentences.');
    await lastReply(page).getByRole('button', { name: 'Read aloud' }).click();
    await lastReply(page).getByRole('button', { name: 'Stop reading' }).waitFor();
    // tts-1's listed price per call, for the calls made so far.
    await lastReply(page).getByText(/^· ≈ \$0\.00[12]$/).waitFor({ timeout: 10_000 });
    await expect.poll(() => speechRequests().length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(speechRequests()[0]!.body).toMatchObject({ model: 'tts-1', voice: 'alloy', input: 'Echo: Read this back.' });
    // Played to the end: the reply offers Read aloud again, every piece's audio having ended.
    await lastReply(page).getByRole('button', { name: 'Read aloud' }).waitFor({ timeout: 20_000 });
    const pieces = speechRequests().length;
    await expect(page.evaluate(() => (window as unknown as { ended: number }).ended)).resolves.toBe(pieces);
    // The key went to the gateway alone, as a bearer token.
    expect(speechRequests().every((r) => r.bearer === env.gateway.demoKey)).toBe(true);

    await lastReply(page).getByRole('button', { name: 'Read aloud' }).click();
    await lastReply(page).getByRole('button', { name: 'Stop reading' }).waitFor();
    await lastReply(page).getByRole('button', { name: 'Read aloud' }).waitFor({ timeout: 20_000 });
    await expect(page.evaluate(() => (window as unknown as { ended: number }).ended)).resolves.toBe(pieces * 2);
    expect(speechRequests()).toHaveLength(pieces);
    await page.close();
  });

  it('Stop reading stops the audio at once', async () => {
    const page = await replyInPopup(`A long reply to stop. ${'It goes on and on. '.repeat(12)}`);
    await lastReply(page).getByRole('button', { name: 'Read aloud' }).click();
    await expect.poll(() => page.locator('audio[data-read-aloud]').count(), { timeout: 10_000 }).toBe(1);
    // The sentence being said is marked in the reply (a CSS highlight over its text).
    const marked = () => page.evaluate(() => {
      const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('read-aloud');
      return highlight === undefined ? '' : [...highlight].map((r) => r.toString()).join('');
    });
    await expect.poll(marked, { timeout: 10_000 }).toBe('Echo: A long reply to stop.');
    await lastReply(page).getByRole('button', { name: 'Stop reading' }).click();
    await expect.poll(marked).toBe('');
    await lastReply(page).getByRole('button', { name: 'Read aloud' }).waitFor();
    await expect(page.locator('audio[data-read-aloud]').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as unknown as { ended: number }).ended)).resolves.toBe(0);
    await page.close();
  });

  it('looks designed while it reads, light and dark, at the popup\'s size', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const page = await replyInPopup(`A reply read aloud in the ${theme} theme. ${'It goes on for a while. '.repeat(6)}`, theme);
      await lastReply(page).getByRole('button', { name: 'Read aloud' }).click();
      await lastReply(page).getByRole('status').filter({ hasText: /Reading 1 of \d+/ }).waitFor({ timeout: 10_000 });
      await page.screenshot({ path: `test-results/screens/${theme}-popup-read-aloud.png` });
      await lastReply(page).getByRole('button', { name: 'Stop reading' }).click();
      await page.close();
    }
  });

  it('reads with the model, voice and speed chosen in the options page\'s Voice section', async () => {
    const settings = profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'echo-1' });
    await resetSettings(env.ext, settings);
    const options = await env.ext.open('options.html');
    const section = options.getByRole('region', { name: 'Voice' });
    // Speech models first, the first of them the automatic choice.
    await section.getByRole('option', { name: 'Automatic: tts-1' }).waitFor({ state: 'attached' });
    await section.getByLabel('Speech model').selectOption('gpt-4o-mini-tts');
    await section.getByLabel('Voice', { exact: true }).selectOption('nova');
    await section.getByLabel('Speed').fill('1.25');
    await section.getByRole('button', { name: 'Save voice settings' }).click();
    await section.getByRole('status').filter({ hasText: 'Preferences saved' }).waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await options.emulateMedia({ colorScheme: theme });
      await section.screenshot({ path: `test-results/screens/${theme}-options-voice.png` });
    }
    await options.close();

    const page = await env.ext.open('popup.html');
    await page.setViewportSize({ width: 400, height: 600 });
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, 'Read me with nova.');
    await lastReply(page).getByText('Echo: Read me with nova.').waitFor();
    await lastReply(page).getByRole('button', { name: 'Read aloud' }).click();
    await expect.poll(() => speechRequests().length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(speechRequests()[0]!.body).toMatchObject({ model: 'gpt-4o-mini-tts', voice: 'nova', speed: 1.25 });
    await lastReply(page).getByRole('button', { name: 'Stop reading' }).click();
    await page.close();
  });
});
