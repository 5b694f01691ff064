import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file a test server holds under `root` (its own folder), by path below it, with its bytes. */
export function serverFiles(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(path.slice(root.length + 1), readFileSync(path));
    }
  };
  walk(root);
  return out;
}
