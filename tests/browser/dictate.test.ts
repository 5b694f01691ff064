/**
 * Dictate (issue 32), with Chromium's fake microphone playing a WAV file: in the popup the
 * first press opens the tab that asks for the microphone; allowed there, the next press records,
 * and "Stop and write down" sends the recording to the gateway's whisper-1, whose transcript
 * lands in the composer at the caret. With "Send after dictation" (options page, Voice), the
 * full-tab chat sends it at once, with the dictation language chosen there.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUDIO_MODELS, TRANSCRIPT_PREFIX, wavTone } from '../gateway/audio';
import { gatewayAndExtensionPerFile } from './fixture';
import { profileFor, resetSettings } from './harness';

const wav = join(mkdtempSync(join(tmpdir(), 'gc-mic-')), 'voice.wav');
writeFileSync(wav, wavTone(4));

const env = gatewayAndExtensionPerFile({
  // A fake device playing the WAV; no fake prompt: the answer is the test's to give (grantPermissions).
  args: ['--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`],
}, { extraModels: AUDIO_MODELS });

beforeEach(() => env.gateway.reset());

const transcriptions = () => env.gateway.requests.filter((r) => r.path === '/v1/audio/transcriptions');

async function open(surface: 'popup' | 'chat', voice: Record<string, unknown> = {}, theme: 'light' | 'dark' = 'light') {
  const settings = profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'echo-1' });
  await resetSettings(env.ext, { ...settings, appearance: { theme, language: 'browser' }, voice });
  const page = await env.ext.open(`${surface}.html`);
  if (surface === 'popup') await page.setViewportSize({ width: 400, height: 600 });
  await page.getByRole('button', { name: 'New chat' }).click();
  return page;
}

describe('Dictate', () => {
  it('from the popup: asks for the microphone in a tab once, then records and puts the transcript at the caret', async () => {
    const page = await open('popup');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Before the dictation. After it.');
    // The caret between the two sentences.
    await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(22, 22));
    const asking = env.ext.context.waitForEvent('page');
    await page.getByRole('button', { name: 'Dictate' }).click();
    const mic = await asking;
    await mic.waitForLoadState();
    expect(new URL(mic.url()).pathname).toBe('/microphone.html');
    await page.getByRole('status').filter({ hasText: 'Allow it there, then press Dictate again' }).waitFor();
    // The user answers the browser's prompt with Allow (headless Chromium shows none).
    // The user answers the browser's prompt with Allow (headless Chromium denies prompts; CDP
    // grants for every origin, as it cannot name an extension's).
    await env.ext.context.grantPermissions(['microphone']);
    await mic.getByRole('button', { name: 'Allow microphone' }).click();
    await mic.getByRole('status').filter({ hasText: 'The microphone is allowed' }).waitFor();
    await mic.close();
    await page.getByRole('button', { name: 'Close' }).click();

    await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(22, 22));
    await page.getByRole('button', { name: 'Dictate' }).click();
    const dictation = page.getByRole('group', { name: 'Dictation' });
    await dictation.getByRole('timer', { name: 'Time recorded' }).filter({ hasText: /^0:0[1-9] of 5:00$/ }).waitFor({ timeout: 10_000 });
    await expect(dictation.getByRole('meter', { name: 'Microphone level' }).count()).resolves.toBe(1);
    await dictation.getByRole('button', { name: 'Stop and write down' }).click();
    await expect.poll(() => box.inputValue(), { timeout: 15_000 }).toMatch(new RegExp(`^Before the dictation\\. ${TRANSCRIPT_PREFIX}: \\d+ bytes of audio/webm\\. After it\\.$`));
    expect(transcriptions()).toHaveLength(1);
    const fields = transcriptions()[0]!.body as Record<string, string>;
    expect(fields).toMatchObject({ model: 'whisper-1' });
    expect(fields.file).toMatch(/^<file speech\.webm, audio\/webm(;codecs=opus)?, [1-9]\d* bytes>$/);
    expect(transcriptions()[0]!.bearer).toBe(env.gateway.demoKey);
    await expect(page.getByRole('group', { name: 'Dictation' }).count()).resolves.toBe(0);
    await page.close();
  });

  it('in the chat page, with "Send after dictation" and a language: the transcript is sent at once', async () => {
    await env.ext.context.grantPermissions(['microphone']);
    const page = await open('chat', { sendAfterDictation: true, language: 'en' });
    await page.getByRole('button', { name: 'Dictate' }).click();
    const dictation = page.getByRole('group', { name: 'Dictation' });
    await dictation.getByRole('timer').filter({ hasText: /^0:0[1-9]/ }).waitFor({ timeout: 10_000 });
    await dictation.getByRole('button', { name: 'Stop and write down' }).click();
    await expect.poll(() => env.gateway.requests.filter((r) => r.path === '/v1/chat/completions').length, { timeout: 15_000 }).toBe(1);
    expect((transcriptions()[0]!.body as Record<string, string>).language).toBe('en');
    const chat = env.gateway.requests.find((r) => r.path === '/v1/chat/completions')!.body as { messages: { role: string; content: string }[] };
    expect(chat.messages.at(-1)!.content).toMatch(new RegExp(`^${TRANSCRIPT_PREFIX}: \\d+ bytes of audio/webm in en\\.$`));
    await page.close();
  });

  it('looks designed while it records, light and dark, at the popup\'s size', async () => {
    await env.ext.context.grantPermissions(['microphone']);
    for (const theme of ['light', 'dark'] as const) {
      const page = await open('popup', {}, theme);
      await page.getByRole('textbox', { name: 'Message' }).fill('Dictating into the popup');
      await page.getByRole('button', { name: 'Dictate' }).click();
      await page.getByRole('group', { name: 'Dictation' }).getByRole('timer').filter({ hasText: /^0:0[1-9]/ }).waitFor({ timeout: 10_000 });
      await page.screenshot({ path: `test-results/screens/${theme}-popup-dictation.png` });
      await page.getByRole('button', { name: 'Discard recording' }).click();
      await page.close();
    }
  });
});
