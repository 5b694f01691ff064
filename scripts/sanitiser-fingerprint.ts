/**
 * Which sanitiser a build has: a hash of lib/render/sanitize.ts (the whole of its rules) and the
 * versions of the parser under it (htmlparser2, and the entities it decodes with). The builds
 * (wxt.config.ts, vitest.config.ts) define it as `__SANITISER__`; a saved rendering is read back
 * only by a build with the same one (lib/render/cache.ts), since it is not sanitised again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

function versionOf(packageJson: string): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

/** `source`: the sanitiser's text (by default, as it is on disk). */
export function sanitiserFingerprint(source = readFileSync(resolve(ROOT, 'lib/render/sanitize.ts'), 'utf8')): string {
  const parser = resolve(ROOT, 'node_modules/htmlparser2');
  const ownEntities = resolve(parser, 'node_modules/entities/package.json');
  const entities = existsSync(ownEntities) ? ownEntities : resolve(ROOT, 'node_modules/entities/package.json');
  const hash = createHash('sha256')
    .update(source.replace(/\r\n/g, '\n'))
    .update(`\0htmlparser2@${versionOf(resolve(parser, 'package.json'))}\0entities@${versionOf(entities)}`)
    .digest('hex');
  return hash.slice(0, 16);
}
