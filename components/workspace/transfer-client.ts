import type { Profile } from '@/lib/settings/schema';
import type { ImportProgress, ImportResult } from '@/lib/transfer/run-import';

export type ExportResult = { ok: true; text: string; count: number } | { ok: false; problem: string; params: Record<string, string | number> };

/** One request to the transfer worker: progress as it goes, then its result. */
function inWorker<T>(request: unknown, onProgress?: (p: ImportProgress) => void): Promise<T> {
  const worker = new Worker(new URL('../../lib/transfer/transfer.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<T>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<{ type: string; progress?: ImportProgress; result?: T }>) => {
      if (event.data.type === 'progress' && event.data.progress !== undefined) onProgress?.(event.data.progress);
      if (event.data.type === 'result') {
        worker.terminate();
        resolve(event.data.result as T);
      }
    });
    worker.addEventListener('error', (event) => {
      worker.terminate();
      reject(new Error(event.message));
    });
    worker.postMessage(request);
  });
}

/** Imports a history file under `profileId`; the worker is given the profiles' addresses, never their keys. */
export function importFile(file: File, profileId: string, profiles: readonly Profile[], onProgress: (p: ImportProgress) => void): Promise<ImportResult> {
  const addresses = profiles.map(({ id, siteUrl, baseUrl }) => ({ id, siteUrl, baseUrl }));
  return inWorker<ImportResult>({ type: 'import', file, profileId, profiles: addresses }, onProgress);
}

export function exportConversations(ids: string[] | undefined, includeProfiles: boolean, profiles: readonly Profile[]): Promise<ExportResult> {
  return inWorker<ExportResult>({ type: 'export', ids, includeProfiles, profiles });
}

/** Saves text as a file the user downloads. */
export function download(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
