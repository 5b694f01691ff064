/**
 * The user's settings, as stored in `storage.local` (never sync: they hold API keys).
 * Every read goes through `parseSettings`, which migrates older versions step by step and
 * validates with zod, so a damaged or foreign value never reaches the UI unchecked.
 */
import * as z from 'zod/mini';
import { ActionSchema, defaultActions, LargeSelectionSchema } from '../actions/schema';
import { LANGUAGE_CHOICES } from '../i18n/locale';
import { API_STYLES } from '../gateway/interfaces/names';

export const SETTINGS_VERSION = 1;

export const ApiStyleSchema = z.enum(API_STYLES);

export const ProfileSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  /** {site_url}: for links to the keys page, catalogue, dashboard. */
  siteUrl: z.string(),
  /** {base_url}: every request goes to this origin and nowhere else. */
  baseUrl: z.string(),
  apiKey: z.string(),
  apiStyle: z._default(ApiStyleSchema, 'chat'),
  defaultModel: z.optional(z.string()),
  /** The model for right-click actions; the default model when absent. */
  actionModel: z.optional(z.string()),
  /** Models the user has confirmed take images, where the gateway does not say (seed part 4, rule 2). */
  confirmedImageModels: z._default(z.array(z.string()), []),
  /** Models the user starred: first in every model picker. */
  favouriteModels: z.optional(z.array(z.string())),
  /** Models chosen lately, newest first (at most RECENT_MODELS): next in the pickers. */
  recentModels: z.optional(z.array(z.string())),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const ChatPreferencesSchema = z.object({
  systemPrompt: z._default(z.string(), ''),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  maxTokens: z.optional(z.int().check(z.positive())),
});
export type ChatPreferences = z.infer<typeof ChatPreferencesSchema>;

/** Checks on a preset, as codes the options page words. */
export const PRESET_CHECKS = { nameEmpty: 'preset_name_empty', nameLong: 'preset_name_long' } as const;

/**
 * A named way to start a conversation: its system prompt, parameters and (optionally) model.
 * Chosen when a conversation starts (it then keeps them as its own settings) or by an action.
 */
export const PresetSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.trim(), z.minLength(1, PRESET_CHECKS.nameEmpty), z.maxLength(60, PRESET_CHECKS.nameLong)),
  systemPrompt: z._default(z.string(), ''),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  maxTokens: z.optional(z.int().check(z.positive())),
  /** The model to start with; the picker's when absent. */
  model: z.optional(z.string()),
});
export type Preset = z.infer<typeof PresetSchema>;

/** A conversation's own settings when started from a preset. */
export function presetSettings(preset: Preset): { systemPrompt: string; temperature?: number; maxTokens?: number; presetId: string } {
  return {
    systemPrompt: preset.systemPrompt,
    ...(preset.temperature === undefined ? {} : { temperature: preset.temperature }),
    ...(preset.maxTokens === undefined ? {} : { maxTokens: preset.maxTokens }),
    presetId: preset.id,
  };
}

/** How long a reply may keep the user waiting, and how large it may grow; see GatewayLimits. */
export const DeadlinesSchema = z.object({
  /** From asking to the first words (keep-alive comments do not count). */
  firstTokenSeconds: z._default(z.int().check(z.gte(1), z.lte(3600)), 120),
  /** Between two pieces of a reply once it has begun (keep-alive comments do not count). */
  idleSeconds: z._default(z.int().check(z.gte(1), z.lte(3600)), 90),
  /** From asking to the end of the reply, however steadily it streams. */
  totalMinutes: z._default(z.int().check(z.gte(1), z.lte(24 * 60)), 30),
  /** The reply's text and reasoning together, in MiB. */
  maxReplyMegabytes: z._default(z.int().check(z.gte(1), z.lte(32)), 8),
  /**
   * From asking an image model to its answer or first image (image models may take minutes),
   * and between two images of a stream. Settings saved before it existed take the default.
   */
  imageSeconds: z._default(z.int().check(z.gte(1), z.lte(3600)), 180),
});
export type Deadlines = z.infer<typeof DeadlinesSchema>;

/** Each field's default, as the schema gives it. */
export const DEFAULT_DEADLINES: Deadlines = DeadlinesSchema.parse({});

/** Light, dark, or as the system says (the default). */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const AppearanceSchema = z.object({
  theme: z._default(z.enum(THEMES), 'system'),
  /** The interface's language: the browser's (the default) or one we ship. */
  language: z._default(z.enum(LANGUAGE_CHOICES), 'browser'),
});

/** OpenAI's speech voices, offered in the Voice section (a gateway may take others; the field takes any name). */
export const SPEECH_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;
export const SPEECH_SPEED = { min: 0.25, max: 4 } as const;
/** A language code as the Voice section takes it (`en`, `zh`, `zh-CN`). */
export const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

/**
 * Read aloud and Dictate (issue 32). A model absent: the catalogue's first named for the job
 * (lib/voice/models.ts). `browser`: the browser's own voices or speech recognition, said as such.
 */
export const VoiceSettingsSchema = z.object({
  speechModel: z.optional(z.string()),
  speechVia: z._default(z.enum(['gateway', 'browser']), 'gateway'),
  voice: z._default(z.string().check(z.minLength(1), z.maxLength(64)), 'alloy'),
  speed: z._default(z.number().check(z.gte(SPEECH_SPEED.min), z.lte(SPEECH_SPEED.max)), 1),
  transcriptionModel: z.optional(z.string()),
  transcriptionVia: z._default(z.enum(['gateway', 'browser']), 'gateway'),
  /** The language spoken when dictating (ISO 639-1, `zh`, `en`, …): absent, the model finds it. */
  language: z.optional(z.string().check(z.regex(LANGUAGE_CODE))),
  /** Send the message as soon as its dictation is written down. */
  sendAfterDictation: z._default(z.boolean(), false),
});
export type VoiceSettings = z.infer<typeof VoiceSettingsSchema>;
export const DEFAULT_VOICE: VoiceSettings = VoiceSettingsSchema.parse({});

export const SettingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION),
  profiles: z.array(ProfileSchema),
  activeProfileId: z.optional(z.string()),
  chat: ChatPreferencesSchema,
  /** Presets for new conversations and actions, in the order the user keeps them. */
  presets: z._default(z.array(PresetSchema), []),
  /** Right-click and shortcut actions, in menu order. */
  actions: z._default(z.array(ActionSchema), defaultActions),
  /** The language actions answer in (their `{{language}}`); the interface's language when absent. */
  language: z.optional(z.string()),
  largeSelection: z._default(LargeSelectionSchema, () => ({ maxTokens: 12_000 })),
  deadlines: z._default(DeadlinesSchema, () => ({ ...DEFAULT_DEADLINES })),
  appearance: z._default(AppearanceSchema, () => ({ theme: 'system' as const, language: 'browser' as const })),
  voice: z._default(VoiceSettingsSchema, () => ({ ...DEFAULT_VOICE })),
});
export type Settings = z.infer<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return SettingsSchema.parse({ version: SETTINGS_VERSION, profiles: [], chat: { systemPrompt: '' } });
}

/** How many recently used models a profile remembers. */
export const RECENT_MODELS = 5;

/** The profile with `model` first among its recent models. */
export function withRecentModel(profile: Profile, model: string): Profile {
  const recent = profile.recentModels ?? [];
  if (recent[0] === model) return profile;
  return { ...profile, recentModels: [model, ...recent.filter((m) => m !== model)].slice(0, RECENT_MODELS) };
}

/** The profile with `model` starred, or no longer starred. */
export function withFavouriteModel(profile: Profile, model: string, favourite: boolean): Profile {
  const rest = (profile.favouriteModels ?? []).filter((m) => m !== model);
  return { ...profile, favouriteModels: favourite ? [...rest, model] : rest };
}

/**
 * The settings with `profile` added (or, by id, put in place of the one saved) and made the
 * active one; everything else the user has (other profiles, presets, actions, prompts) kept.
 */
export function withProfile(settings: Settings, profile: Profile): Settings {
  const exists = settings.profiles.some((p) => p.id === profile.id);
  const profiles = exists ? settings.profiles.map((p) => (p.id === profile.id ? profile : p)) : [...settings.profiles, profile];
  return { ...settings, profiles, activeProfileId: profile.id };
}

export function activeProfile(settings: Settings): Profile | undefined {
  return settings.profiles.find((p) => p.id === settings.activeProfileId) ?? settings.profiles[0];
}

/** The client limits for a profile's requests, from the user's deadlines and reply size (milliseconds, bytes). */
export function gatewayLimitsFrom(settings: Settings): { firstTokenTimeoutMs: number; idleTimeoutMs: number; headersTimeoutMs: number; totalTimeoutMs: number; maxReplyBytes: number; imageTimeoutMs: number } {
  const { firstTokenSeconds, idleSeconds, totalMinutes, maxReplyMegabytes, imageSeconds } = settings.deadlines;
  const firstToken = firstTokenSeconds * 1000;
  return {
    firstTokenTimeoutMs: firstToken,
    headersTimeoutMs: firstToken,
    idleTimeoutMs: idleSeconds * 1000,
    totalTimeoutMs: totalMinutes * 60_000,
    maxReplyBytes: maxReplyMegabytes * 1024 * 1024,
    imageTimeoutMs: imageSeconds * 1000,
  };
}
