/** The tool config in `storage.local` (never sync: it holds tokens and keys), parsed on every read. */
import { storage } from '@wxt-dev/storage';
import { ToolConfigSchema, defaultToolConfig, type ToolConfig } from './config';

const CONFIG_KEY = 'local:toolConfig';

export async function loadToolConfig(): Promise<ToolConfig> {
  const parsed = ToolConfigSchema.safeParse((await storage.getItem(CONFIG_KEY)) ?? {});
  return parsed.success ? parsed.data : defaultToolConfig();
}

export async function saveToolConfig(config: ToolConfig): Promise<void> {
  await storage.setItem(CONFIG_KEY, ToolConfigSchema.parse(config));
}

/** Reads, changes and writes it (the options page, or a card's "Always allow"). */
export async function updateToolConfig(change: (config: ToolConfig) => ToolConfig): Promise<ToolConfig> {
  const next = change(await loadToolConfig());
  await saveToolConfig(next);
  return next;
}

export function watchToolConfig(onChange: (config: ToolConfig) => void): () => void {
  return storage.watch(CONFIG_KEY, (value) => {
    const parsed = ToolConfigSchema.safeParse(value ?? {});
    onChange(parsed.success ? parsed.data : defaultToolConfig());
  });
}
