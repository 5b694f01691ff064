/**
 * Cutting a release: the next version number, and the changelog with its "Unreleased" section
 * named after it (a fresh, empty "Unreleased" above). Pure functions: scripts/release.ts applies
 * them to package.json, package-lock.json and CHANGELOG.md (the manifest takes package.json's).
 */
export type Bump = 'major' | 'minor' | 'patch';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** The version after `current`: a bump, or a version given outright (which must be higher). */
export function nextVersion(current: string, to: Bump | string): string {
  const now = SEMVER.exec(current);
  if (now === null) throw new Error(`the current version "${current}" is not x.y.z`);
  const [major, minor, patch] = now.slice(1).map(Number) as [number, number, number];
  if (to === 'major') return `${major + 1}.0.0`;
  if (to === 'minor') return `${major}.${minor + 1}.0`;
  if (to === 'patch') return `${major}.${minor}.${patch + 1}`;
  const next = SEMVER.exec(to);
  if (next === null) throw new Error(`"${to}" is neither major, minor, patch nor a version x.y.z`);
  const [a, b, c] = next.slice(1).map(Number) as [number, number, number];
  const higher = a !== major ? a > major : b !== minor ? b > minor : c > patch;
  if (!higher) throw new Error(`${to} is not higher than ${current}`);
  return to;
}

/** The changelog with "## Unreleased" become "## <version> (<date>)", under a new empty "## Unreleased". */
export function releaseChangelog(text: string, version: string, date: string): string {
  const heading = /^## Unreleased[ \t]*$/m;
  const match = heading.exec(text);
  if (match === null) throw new Error('CHANGELOG.md has no "## Unreleased" section to release');
  const after = text.slice(match.index + match[0].length);
  const body = after.split(/^## /m)[0] ?? '';
  if (body.trim() === '') throw new Error('"## Unreleased" in CHANGELOG.md is empty: say what changed first');
  return `${text.slice(0, match.index)}## Unreleased\n\n## ${version} (${date})${after}`;
}
