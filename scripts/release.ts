/**
 * `npm run release -- <patch|minor|major|x.y.z>`: the version in package.json and
 * package-lock.json (the manifests take it from package.json), and CHANGELOG.md's "Unreleased"
 * named after it. Then, as it prints: check the packages, commit, tag.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { nextVersion, releaseChangelog } from '../lib/release/version';

const ROOT = resolve(import.meta.dirname, '..');
const to = process.argv[2];
if (to === undefined) {
  console.error('Usage: npm run release -- <patch|minor|major|x.y.z>');
  process.exit(2);
}
const read = (name: string): string => readFileSync(join(ROOT, name), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string };
const version = nextVersion(pkg.version, to);
const changelog = releaseChangelog(read('CHANGELOG.md'), version, new Date().toISOString().slice(0, 10));

// Only the version fields change: the files keep their formatting otherwise.
writeFileSync(join(ROOT, 'package.json'), read('package.json').replace(/^(\s*"version":\s*")[^"]+(")/m, `$1${version}$2`));
const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version?: string }> };
lock.version = version;
if (lock.packages[''] !== undefined) lock.packages[''].version = version;
writeFileSync(join(ROOT, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
writeFileSync(join(ROOT, 'CHANGELOG.md'), changelog);

console.log(`${pkg.version} → ${version}: package.json, package-lock.json and CHANGELOG.md updated.
Next:
  npm run check:release      # .output/gateway-chat-${version}-chrome.zip, -firefox.zip, -sources.zip, checked
  git commit -am "Release ${version}" && git tag v${version}
Then upload the Chrome package to the Chrome Web Store, and the Firefox package with its sources
to addons.mozilla.org, with the listing in .output/store/ and the screenshots in test-results/store/.`);
