import { useEffect } from 'react';
import { create } from 'zustand';
import { watchMemoryMode, type MemoryMode } from '@/lib/conversations/memory-mode.adapter';

/** The page's one copy of whether the background keeps conversations in memory only, fed from session storage. */
const useMemoryModeStore = create<{ mode: MemoryMode | undefined }>(() => ({ mode: undefined }));

let started = false;

/** Why the background keeps conversations in memory only, or undefined while it saves them. */
export function useMemoryMode(): MemoryMode | undefined {
  useEffect(() => {
    if (started) return;
    started = true;
    watchMemoryMode((mode) => useMemoryModeStore.setState({ mode }));
  }, []);
  return useMemoryModeStore((s) => s.mode);
}
