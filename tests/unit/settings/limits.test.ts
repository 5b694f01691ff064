/** The user's deadlines and largest reply become the gateway client's limits (issue 28, item 5). */
import { describe, expect, it } from 'vitest';
import { defaultSettings, gatewayLimitsFrom, SettingsSchema } from '@/lib/settings/schema';

describe('gatewayLimitsFrom', () => {
  it('by default a reply may take 30 minutes and hold 8 MiB', () => {
    expect(gatewayLimitsFrom(defaultSettings())).toEqual({
      firstTokenTimeoutMs: 120_000, headersTimeoutMs: 120_000, idleTimeoutMs: 90_000, totalTimeoutMs: 30 * 60_000, maxReplyBytes: 8 * 1024 * 1024,
      imageTimeoutMs: 180_000,
    });
  });

  it('what the user chose, in milliseconds and bytes', () => {
    const settings = { ...defaultSettings(), deadlines: { firstTokenSeconds: 30, idleSeconds: 10, totalMinutes: 90, maxReplyMegabytes: 2, imageSeconds: 300 } };
    expect(gatewayLimitsFrom(settings)).toMatchObject({ totalTimeoutMs: 90 * 60_000, maxReplyBytes: 2 * 1024 * 1024, imageTimeoutMs: 300_000 });
  });

  it('settings saved before the image deadline existed give images 180 s', () => {
    const saved = SettingsSchema.parse({ version: 1, profiles: [], chat: { systemPrompt: '' }, deadlines: { firstTokenSeconds: 30, idleSeconds: 10, totalMinutes: 90, maxReplyMegabytes: 2 } });
    expect(saved.deadlines.imageSeconds).toBe(180);
    expect(gatewayLimitsFrom(saved).imageTimeoutMs).toBe(180_000);
    expect(SettingsSchema.safeParse({ version: 1, profiles: [], chat: { systemPrompt: '' }, deadlines: { imageSeconds: 0 } }).success).toBe(false);
  });

  it('a total duration or a largest reply out of range is refused', () => {
    const base = { version: 1, profiles: [], chat: { systemPrompt: '' } };
    for (const deadlines of [{ totalMinutes: 0 }, { totalMinutes: 24 * 60 + 1 }, { maxReplyMegabytes: 0 }, { maxReplyMegabytes: 33 }, { maxReplyMegabytes: 1.5 }]) {
      expect(SettingsSchema.safeParse({ ...base, deadlines }).success, JSON.stringify(deadlines)).toBe(false);
    }
    expect(SettingsSchema.safeParse({ ...base, deadlines: { totalMinutes: 24 * 60, maxReplyMegabytes: 32 } }).success).toBe(true);
  });
});
