/**
 * Settings and the catalogue cache in `storage.local` (never `sync`: settings hold API keys).
 * Everything read is parsed (`parseSettings`, `CatalogueCacheSchema`); migrated settings are
 * written back once.
 */
import { storage } from '@wxt-dev/storage';
import { browser } from 'wxt/browser';
import * as z from 'zod/mini';
import type { Balance, ModelInfo, PriceList } from '../gateway';
import { BALANCE_SOURCES } from '../gateway/billing';
import { parseSettings, type ParsedSettings } from './migrations';
import { SettingsSchema, type Profile, type Settings } from './schema';
import { API_STYLES, type ApiStyle } from '../gateway/interfaces/names';
import { UnservedRoutesSchema, unservedAt, withUnserved } from './unserved-routes';

const SETTINGS_KEY = 'local:settings';

/**
 * Keeps `storage.local` (settings, API keys) from the scripts we inject into web pages: only the
 * extension's own pages and its background may read it. Chromium added the switch for `local` in
 * 2025 (it had it for `session` only before; tests/browser/own-pages.test.ts checks it works);
 * Firefox has it for `session` only. Where the browser has no such switch, our injected scripts
 * still never touch storage. Resolves whether it applied.
 */
export async function restrictStorageToExtension(): Promise<boolean> {
  const local = browser.storage.local;
  if (typeof local.setAccessLevel !== 'function') return false;
  try {
    await local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
    return true;
  } catch {
    return false;
  }
}

export async function loadSettings(): Promise<ParsedSettings> {
  const parsed = parseSettings(await storage.getItem(SETTINGS_KEY));
  if (parsed.ok && parsed.migrated) await storage.setItem(SETTINGS_KEY, parsed.settings);
  return parsed;
}

/** Why settings were not saved, as a code and its facts (the UI words them). */
export type SettingsSaveProblem =
  /** The settings do not pass the schema (`params.detail`: zod's words). */
  | 'invalid'
  /** The stored settings cannot be read; the options page decides what to do with them. */
  | 'stored_unreadable'
  | 'quota'
  | 'write_failed'
  | 'profile_gone';

export type SaveResult = { ok: true } | { ok: false; problem: SettingsSaveProblem; params: Record<string, string | number> };

/**
 * Saves settings; a full disk or a refused write comes back as a problem code. While the
 * stored value cannot be read (damaged, or from a newer version), nothing overwrites it unless
 * the user chose to replace it (`replaceUnreadable`): every profile in it would be lost.
 */
export async function saveSettings(settings: Settings, options: { replaceUnreadable?: boolean } = {}): Promise<SaveResult> {
  const checked = SettingsSchema.safeParse(settings);
  if (!checked.success) return { ok: false, problem: 'invalid', params: { detail: checked.error.issues[0]?.message ?? '' } };
  if (options.replaceUnreadable !== true) {
    const stored = parseSettings(await storage.getItem(SETTINGS_KEY));
    if (!stored.ok) return { ok: false, problem: 'stored_unreadable', params: {} };
  }
  try {
    await storage.setItem(SETTINGS_KEY, checked.data);
    return { ok: true };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return /quota/i.test(text) ? { ok: false, problem: 'quota', params: {} } : { ok: false, problem: 'write_failed', params: { detail: text } };
  }
}

/** Changes the settings as stored now (another surface may have saved since), not a stale copy. */
export async function updateSettings(change: (settings: Settings) => Settings): Promise<SaveResult> {
  const loaded = await loadSettings();
  if (!loaded.ok) return { ok: false, problem: 'stored_unreadable', params: {} };
  return saveSettings(change(loaded.settings));
}

/** Changes one profile from the settings as stored now (another surface may have saved since). */
export async function updateProfile(profileId: string, change: (profile: Profile) => Profile): Promise<SaveResult> {
  const { settings } = await loadSettings();
  if (!settings.profiles.some((p) => p.id === profileId)) return { ok: false, problem: 'profile_gone', params: {} };
  return saveSettings({ ...settings, profiles: settings.profiles.map((p) => (p.id === profileId ? change(p) : p)) });
}

export function watchSettings(onChange: (parsed: ParsedSettings) => void): () => void {
  return storage.watch(SETTINGS_KEY, (raw) => onChange(parseSettings(raw)));
}

const Capability = z.union([z.boolean(), z.literal('unknown')]);
const ModelInfoSchema = z.object({
  id: z.string(),
  ownedBy: z.optional(z.string()),
  name: z.optional(z.string()),
  contextLength: z.optional(z.number()),
  capabilities: z.object({ chat: Capability, responses: Capability, imageInput: Capability, imageGeneration: Capability, embeddings: Capability,
    // Older caches have neither: the gateway said nothing about them, as far as we know.
    reasoning: z._default(Capability, 'unknown'), tools: z._default(Capability, 'unknown'),
    // Added with attached files (issue 32): absent in older caches and where the gateway says nothing.
    fileInput: z.optional(Capability) }),
  endpointTypes: z.optional(z.array(z.string())),
  apis: z.optional(z.array(z.enum(API_STYLES))),
  preferredApi: z.optional(z.enum(API_STYLES)),
});
const CatalogueCacheSchema = z.object({ fetchedAt: z.number(), baseUrl: z.string(), models: z.array(ModelInfoSchema) });
export type CatalogueCache = z.infer<typeof CatalogueCacheSchema>;

const catalogueKey = (profileId: string) => `local:catalogue:${profileId}` as const;

/** Forgets a deleted profile's cached catalogue (and its balance). */
export async function removeCatalogue(profileId: string): Promise<void> {
  await storage.removeItem(catalogueKey(profileId));
  await storage.removeItem(balanceKey(profileId));
  await storage.removeItem(pricingKey(profileId));
  await storage.removeItem(routesKey(profileId));
}

const routesKey = (profileId: string) => `local:routes:${profileId}` as const;

async function loadRoutes(profileId: string) {
  const parsed = UnservedRoutesSchema.safeParse(await storage.getItem(routesKey(profileId)));
  return parsed.success ? parsed.data : undefined;
}

/** The interfaces this profile's gateway was lately found not to serve, at its current address. */
export async function loadUnservedApis(profile: { id: string; baseUrl: string }): Promise<ApiStyle[]> {
  return unservedAt(await loadRoutes(profile.id), profile.baseUrl, Date.now());
}

/** Notes of missing routes, one after the other: two columns of a comparison rerouted at once both land. */
let routesWritten: Promise<unknown> = Promise.resolve();

/** Notes that this profile's gateway does not serve `api` (its route answered 404 or 405). */
export function saveUnservedApi(profile: { id: string; baseUrl: string }, api: ApiStyle): Promise<void> {
  const write = routesWritten.then(async () => {
    await storage.setItem(routesKey(profile.id), withUnserved(await loadRoutes(profile.id), profile.baseUrl, api, Date.now()));
  });
  routesWritten = write.catch(() => undefined);
  return write;
}

const BalanceSchema = z.object({
  remaining: z.nullable(z.number()),
  total: z.optional(z.number()),
  used: z.optional(z.number()),
  currency: z.string(),
  unlimited: z.boolean(),
  source: z.enum(BALANCE_SOURCES),
});
const BalanceCacheSchema = z.object({
  checkedAt: z.number(),
  baseUrl: z.string(),
  /** Which key it is the balance of (a fingerprint: another key of the same profile has its own). */
  key: z.string(),
  /** Where the balance was read (asked first next time), or `none`: the gateway exposes none. */
  source: z.union([z.enum(BALANCE_SOURCES), z.literal('none')]),
  balance: z.nullable(BalanceSchema),
});
export type BalanceCache = z.infer<typeof BalanceCacheSchema>;

const balanceKey = (profileId: string) => `local:balance:${profileId}` as const;

const ModelPriceSchema = z.object({ input: z.optional(z.number()), output: z.optional(z.number()), perRequest: z.optional(z.number()), currency: z.string() });
const PricingCacheSchema = z.object({
  fetchedAt: z.number(),
  baseUrl: z.string(),
  /** null: the gateway publishes no prices. */
  prices: z.nullable(z.record(z.string(), ModelPriceSchema)),
});
export type PricingCache = z.infer<typeof PricingCacheSchema>;

const pricingKey = (profileId: string) => `local:pricing:${profileId}` as const;

export async function loadPricing(profileId: string): Promise<PricingCache | undefined> {
  const parsed = PricingCacheSchema.safeParse(await storage.getItem(pricingKey(profileId)));
  return parsed.success ? parsed.data : undefined;
}

export async function savePricing(profileId: string, baseUrl: string, prices: PriceList | null): Promise<void> {
  const cache: PricingCache = { fetchedAt: Date.now(), baseUrl, prices };
  await storage.setItem(pricingKey(profileId), cache);
}

/** Whose balance: the profile's address and key. */
export interface BalanceOwner {
  id: string;
  baseUrl: string;
  apiKey: string;
}

/** A short fingerprint of a key (FNV-1a, 64 bits): tells keys apart without keeping another copy of one. */
export function keyFingerprint(apiKey: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < apiKey.length; i++) {
    a = Math.imul(a ^ apiKey.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ apiKey.charCodeAt(apiKey.length - 1 - i), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

function owns(owner: BalanceOwner, raw: unknown): BalanceCache | undefined {
  const parsed = BalanceCacheSchema.safeParse(raw);
  return parsed.success && parsed.data.baseUrl === owner.baseUrl && parsed.data.key === keyFingerprint(owner.apiKey) ? parsed.data : undefined;
}

/** The balance of this profile's address and key as last read, and where it was read. */
export async function loadBalance(owner: BalanceOwner): Promise<BalanceCache | undefined> {
  return owns(owner, await storage.getItem(balanceKey(owner.id)));
}

export async function saveBalance(owner: BalanceOwner, balance: Balance | null): Promise<void> {
  const cache: BalanceCache = { checkedAt: Date.now(), baseUrl: owner.baseUrl, key: keyFingerprint(owner.apiKey), source: balance?.source ?? 'none', balance };
  await storage.setItem(balanceKey(owner.id), cache);
}

/** Calls back when the balance of this address and key is read again (by any surface); another key's is not this one's. */
export function watchBalance(owner: BalanceOwner, onChange: (cache: BalanceCache) => void): () => void {
  return storage.watch(balanceKey(owner.id), (raw) => {
    const cache = owns(owner, raw);
    if (cache !== undefined) onChange(cache);
  });
}

export async function loadCatalogue(profileId: string): Promise<CatalogueCache | undefined> {
  const parsed = CatalogueCacheSchema.safeParse(await storage.getItem(catalogueKey(profileId)));
  return parsed.success ? parsed.data : undefined;
}

/** Calls back when the profile's cached catalogue is written (by any surface). */
export function watchCatalogue(profileId: string, onChange: (cache: CatalogueCache | undefined) => void): () => void {
  return storage.watch(catalogueKey(profileId), (raw) => {
    const parsed = CatalogueCacheSchema.safeParse(raw);
    onChange(parsed.success ? parsed.data : undefined);
  });
}

export async function saveCatalogue(profileId: string, baseUrl: string, models: ModelInfo[]): Promise<void> {
  const cache: CatalogueCache = { fetchedAt: Date.now(), baseUrl, models };
  await storage.setItem(catalogueKey(profileId), cache);
}
