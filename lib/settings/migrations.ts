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
import { isUnchangedPreset } from '../actions/schema';
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

/**
 * Built-in actions saved before they followed the language (English name and prompt, no
 * `preset`) follow it again, unless the user changed their words.
 */
function withPresetActions(settings: Settings): Settings {
  if (!settings.actions.some((a) => a.preset === undefined && isUnchangedPreset(a))) return settings;
  return { ...settings, actions: settings.actions.map((a) => (a.preset === undefined && isUnchangedPreset(a) ? { ...a, preset: a.id as NonNullable<typeof a.preset> } : a)) };
}

function versionOf(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return -1;
  const version = (raw as { version?: unknown }).version;
  if (version === undefined) return 0;
  return typeof version === 'number' && Number.isInteger(version) ? version : -1;
}

/** Why stored settings could not be read, as a code and its facts (the UI words them). */
export type SettingsReadProblem =
  /** `params.version` is not one this build knows; `params.newer` is 1 when a newer build wrote it. */
  | 'unknown_version'
  /** `params.from`: the version that could not be upgraded; `params.detail`: why. */
  | 'upgrade_failed'
  /** `params.path`: where the value is damaged; `params.detail`: zod's words. */
  | 'damaged';

export type ParsedSettings =
  | { ok: true; settings: Settings; migrated: boolean }
  | { ok: false; settings: Settings; problem: SettingsReadProblem; params: Record<string, string | number> };

/**
 * Stored value → current settings. Nothing stored gives the defaults; a damaged value gives
 * the defaults too, with a message that says what was wrong (the caller shows it and does not
 * overwrite the stored value until the user saves).
 */
export function parseSettings(raw: unknown): ParsedSettings {
  if (raw === undefined || raw === null) return { ok: true, settings: defaultSettings(), migrated: false };
  let version = versionOf(raw);
  if (version < 0 || version > SETTINGS_VERSION) {
    return { ok: false, settings: defaultSettings(), problem: 'unknown_version', params: { version: JSON.stringify((raw as { version?: unknown }).version) ?? '?', newer: version > SETTINGS_VERSION ? 1 : 0 } };
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
    return { ok: false, settings: defaultSettings(), problem: 'upgrade_failed', params: { from, detail: error instanceof Error ? error.message : String(error) } };
  }
  const parsed = SettingsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, settings: defaultSettings(), problem: 'damaged', params: { path: issue?.path.join('.') ?? '', detail: issue?.message ?? '' } };
  }
  return { ok: true, settings: withPresetActions(parsed.data), migrated: from !== SETTINGS_VERSION };
}
