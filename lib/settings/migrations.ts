/**
 * Upgrading stored settings from older versions, one numbered step at a time. Each step takes
 * the previous version's shape and returns the next; `tests/unit/settings` holds a saved
 * example of every older version and checks it arrives intact.
 *
 * v0 is the unversioned single-connection shape `{ baseUrl, apiKey, model?, systemPrompt? }`
 * that the first builds wrote; v1 holds a list of profiles.
 */
import * as z from 'zod/mini';
import { tryResolveGatewayAddress } from '../gateway/address';
import { SETTINGS_VERSION, SettingsSchema, defaultSettings, type Settings } from './schema';

const V0 = z.object({
  baseUrl: z.string(),
  apiKey: z.string(),
  model: z.optional(z.string()),
  systemPrompt: z.optional(z.string()),
});

type Step = (previous: unknown) => unknown;

/** `STEPS[n]` turns version n into version n + 1. */
const STEPS: Record<number, Step> = {
  0: (previous) => {
    const v0 = V0.parse(previous);
    const address = tryResolveGatewayAddress(v0.baseUrl);
    const siteUrl = address.ok ? address.siteUrl : v0.baseUrl;
    const baseUrl = address.ok ? address.baseUrl : v0.baseUrl;
    return {
      version: 1,
      profiles: [{ id: 'migrated', name: new URL(siteUrl).host, siteUrl, baseUrl, apiKey: v0.apiKey, apiStyle: 'chat', defaultModel: v0.model }],
      activeProfileId: 'migrated',
      chat: { systemPrompt: v0.systemPrompt ?? '' },
    };
  },
};

function versionOf(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return -1;
  const version = (raw as { version?: unknown }).version;
  if (version === undefined) return 0;
  return typeof version === 'number' && Number.isInteger(version) ? version : -1;
}

export type ParsedSettings =
  | { ok: true; settings: Settings; migrated: boolean }
  | { ok: false; settings: Settings; message: string };

/**
 * Stored value → current settings. Nothing stored gives the defaults; a damaged value gives
 * the defaults too, with a message that says what was wrong (the caller shows it and does not
 * overwrite the stored value until the user saves).
 */
export function parseSettings(raw: unknown): ParsedSettings {
  if (raw === undefined || raw === null) return { ok: true, settings: defaultSettings(), migrated: false };
  let version = versionOf(raw);
  if (version < 0 || version > SETTINGS_VERSION) {
    const newer = version > SETTINGS_VERSION ? ', saved by a newer version of Gateway Chat (update the extension to use them)' : '';
    return { ok: false, settings: defaultSettings(), message: `The stored settings have an unknown version (${JSON.stringify((raw as { version?: unknown }).version)})${newer}; they were left as they are.` };
  }
  let value: unknown = raw;
  const from = version;
  try {
    while (version < SETTINGS_VERSION) {
      const step = STEPS[version];
      if (step === undefined) throw new Error(`no migration from version ${version}`);
      value = step(value);
      version++;
    }
  } catch (error) {
    return { ok: false, settings: defaultSettings(), message: `The stored settings (version ${from}) could not be upgraded: ${error instanceof Error ? error.message : String(error)}.` };
  }
  const parsed = SettingsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, settings: defaultSettings(), message: `The stored settings are damaged at "${issue?.path.join('.') ?? ''}": ${issue?.message ?? 'invalid'}. They were left as they are.` };
  }
  return { ok: true, settings: parsed.data, migrated: from !== SETTINGS_VERSION };
}
