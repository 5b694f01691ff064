/**
 * The pages' image state, one zustand store each: the options set next to the composer (per
 * model, saved in storage.local), and the image chosen to edit ("Edit this image").
 */
import { create } from 'zustand';
import { loadImagePrefs, saveImagePrefs, type ImagePrefs, type ModelImagePrefs } from '@/lib/images/options.adapter';
import type { ImageOptions } from '@/lib/images/types';

interface ImagePrefsState {
  prefs: ImagePrefs;
  loaded: boolean;
}

export const useImagePrefs = create<ImagePrefsState>(() => ({ prefs: {}, loaded: false }));

let loading: Promise<void> | undefined;

/** Reads the saved options once per page. */
export function ensureImagePrefs(): Promise<void> {
  loading ??= loadImagePrefs().then((saved) => {
    // What was set meanwhile wins over what was saved.
    useImagePrefs.setState((s) => ({ prefs: { ...saved, ...s.prefs }, loaded: true }));
  }, () => useImagePrefs.setState({ loaded: true }));
  return loading;
}

/** Changes one model's options (saved at once). */
export function updateImagePrefs(model: string, change: (before: ModelImagePrefs) => ModelImagePrefs): void {
  useImagePrefs.setState((s) => ({ prefs: { ...s.prefs, [model]: change(s.prefs[model] ?? { options: {} }) } }));
  void saveImagePrefs(useImagePrefs.getState().prefs).catch(() => undefined);
}

export function setImageOptions(model: string, options: ImageOptions): void {
  updateImagePrefs(model, (before) => ({ ...before, options }));
}

/** Tests: forget what was read. */
export function resetImagePrefs(): void {
  loading = undefined;
  useImagePrefs.setState({ prefs: {}, loaded: false });
}

/** The image the user chose to edit, for the composer of its conversation. */
interface ImageEditState {
  editOf: { id: string; conversationId: string; prompt: string } | undefined;
}

export const useImageEdit = create<ImageEditState>(() => ({ editOf: undefined }));

export function chooseImageToEdit(editOf: ImageEditState['editOf']): void {
  useImageEdit.setState({ editOf });
}
