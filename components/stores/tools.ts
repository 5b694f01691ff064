import { useEffect } from 'react';
import { create } from 'zustand';
import { loadToolConfig, watchToolConfig } from '@/lib/tools/config.adapter';
import type { ToolConfig } from '@/lib/tools/config';

/**
 * The page's one copy of the tool config (issue 33: MCP servers, the search provider, what is
 * always allowed), fed from storage and kept current when the options page or a card's "Always
 * allow" changes it. Writes go through `updateToolConfig` (lib/tools/config.adapter.ts).
 */
export const useToolConfigStore = create<{ config: ToolConfig | undefined }>(() => ({ config: undefined }));

let started = false;

export function watchToolConfigStore(): void {
  if (started) return;
  started = true;
  let changed = false;
  watchToolConfig((config) => {
    changed = true;
    useToolConfigStore.setState({ config });
  });
  void loadToolConfig().then((config) => {
    if (!changed) useToolConfigStore.setState({ config });
  });
}

/** The stored tool config; undefined while loading. */
export function useToolConfig(): ToolConfig | undefined {
  useEffect(() => watchToolConfigStore(), []);
  return useToolConfigStore((s) => s.config);
}
