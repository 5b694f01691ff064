/**
 * The composer's attached files: read one after another (in the files worker), each fitted to
 * what is left of the message's token budget, refusals kept with their file's name until the
 * user sends or dismisses them. Nothing else in the composer is touched by a bad file.
 */
import { useRef, useState } from 'react';
import { newId } from '@/lib/conversations/ids';
import { FILE_LIMITS, type AttachedFile, type FileRefusal } from '@/lib/files/types';
import { DEFAULT_MESSAGE_LIMITS } from '@/lib/runs/limits';

// The reading and fitting code arrives with the first file (off the popup's first chunk).
const loadReader = () => Promise.all([import('./files-client'), import('@/lib/files/fit')]).then(([client, fit]) => ({ readAttachment: client.readAttachment, fitFile: fit.fitFile }));

/** A file being read: its name, and how far (PDF pages). */
export interface ReadingFile {
  key: string;
  name: string;
  page?: number;
  pages?: number;
}

/** Below this many tokens left, a file is not worth attaching: it is refused as "no room". */
const MIN_ROOM = 200;
/** Kept free of files for the question typed beside them. */
const QUESTION_ROOM = 4_000;
/** All files sent as themselves in one message together (base64), under the 64 MiB a message between extension parts may be. */
const MAX_INLINE_CHARS = 24 * 1024 * 1024;

export function useAttachedFiles(maxTokens: number = DEFAULT_MESSAGE_LIMITS.maxTextTokens) {
  const [files, setFiles] = useState<AttachedFile[]>([]);
  const [reading, setReading] = useState<ReadingFile[]>([]);
  const [refusals, setRefusals] = useState<FileRefusal[]>([]);
  // The files as the next read sees them (state is a render behind inside the loop).
  const current = useRef<AttachedFile[]>([]);
  const queued = useRef(0);
  const chain = useRef<Promise<void>>(Promise.resolve());

  const set = (next: AttachedFile[]): void => {
    current.current = next;
    setFiles(next);
  };

  const readOne = async (file: File): Promise<void> => {
    const key = newId();
    setReading((now) => [...now, { key, name: file.name }]);
    try {
      const { readAttachment, fitFile } = await loadReader();
      const result = await readAttachment(file, key, (page, pages) => setReading((now) => now.map((r) => (r.key === key ? { ...r, page, pages } : r))));
      if (!result.ok) {
        setRefusals((now) => [...now, result.refusal]);
        return;
      }
      const used = current.current.reduce((sum, f) => sum + f.tokens, 0);
      const room = maxTokens - QUESTION_ROOM - used;
      if (room < MIN_ROOM) {
        setRefusals((now) => [...now, { name: file.name, code: 'no_room', params: { limit: maxTokens } }]);
        return;
      }
      let fitted = fitFile(result.file, room);
      // Past the cap of files sent as themselves, a file goes as its text.
      const inline = current.current.reduce((sum, f) => sum + (f.data?.length ?? 0), 0);
      if (fitted.data !== undefined && inline + fitted.data.length > MAX_INLINE_CHARS) {
        const { data: _data, ...text } = fitted;
        fitted = text;
      }
      set([...current.current, fitted]);
    } finally {
      queued.current--;
      setReading((now) => now.filter((r) => r.key !== key));
    }
  };

  /** Takes files (picker, drop, paste): each read in turn; those over the count or size limit refused at once. */
  const add = (list: readonly File[]): void => {
    setRefusals([]);
    for (const file of list) {
      if (current.current.length + queued.current >= FILE_LIMITS.maxFiles) {
        setRefusals((now) => [...now, { name: file.name, code: 'too_many', params: { limit: FILE_LIMITS.maxFiles } }]);
        continue;
      }
      if (file.size > FILE_LIMITS.maxBytes) {
        setRefusals((now) => [...now, { name: file.name, code: 'too_large', params: { size: file.size, limit: FILE_LIMITS.maxBytes } }]);
        continue;
      }
      queued.current++;
      // A read that fails (its code could not be loaded, say) is refused by name; the next one still runs.
      chain.current = chain.current.then(() => readOne(file)).catch((error: unknown) => {
        setRefusals((now) => [...now, { name: file.name, code: 'failed', params: { detail: error instanceof Error ? error.name : 'unknown' } }]);
      });
    }
  };

  return {
    files,
    reading,
    refusals,
    add,
    remove: (id: string): void => set(current.current.filter((f) => f.id !== id)),
    /** After sending: the files went with the message. */
    clear: (): void => {
      set([]);
      setRefusals([]);
    },
    dismissRefusals: (): void => setRefusals([]),
  };
}
