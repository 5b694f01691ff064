import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextVersion, releaseChangelog } from '@/lib/release/version';
import { drawIcons, ICON_SIZES } from '../../../scripts/icons';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('cutting a release', () => {
  it('the next version: a bump, or one given that is higher', () => {
    expect(nextVersion('0.1.0', 'patch')).toBe('0.1.1');
    expect(nextVersion('0.1.9', 'minor')).toBe('0.2.0');
    expect(nextVersion('0.9.3', 'major')).toBe('1.0.0');
    expect(nextVersion('0.1.0', '0.3.0')).toBe('0.3.0');
    expect(() => nextVersion('0.3.0', '0.2.9')).toThrow(/not higher/);
    expect(() => nextVersion('0.3.0', 'soon')).toThrow(/neither/);
  });

  it('the changelog\'s Unreleased section is named after the version, under a fresh one; an empty one is refused', () => {
    const text = '# Changelog\n\nIntro.\n\n## Unreleased\n\n- New thing.\n\n## 0.1.0 (2026-11-23)\n\n- First.\n';
    expect(releaseChangelog(text, '0.2.0', '2026-12-01')).toBe('# Changelog\n\nIntro.\n\n## Unreleased\n\n## 0.2.0 (2026-12-01)\n\n- New thing.\n\n## 0.1.0 (2026-11-23)\n\n- First.\n');
    expect(() => releaseChangelog('# Changelog\n\n## Unreleased\n\n## 0.1.0\n', '0.2.0', 'd')).toThrow(/empty/);
    expect(() => releaseChangelog('# Changelog\n', '0.2.0', 'd')).toThrow(/no "## Unreleased"/);
  });

  it('the project\'s own changelog can be released', () => {
    expect(() => releaseChangelog(readFileSync(resolve(ROOT, 'CHANGELOG.md'), 'utf8'), '9.9.9', 'today')).not.toThrow();
  });
});

describe('icons', () => {
  it('every PNG in public/icon is what the SVG sources draw (npm run icons), at its size', () => {
    const drawn = drawIcons(ROOT);
    expect([...drawn.keys()]).toEqual(expect.arrayContaining(ICON_SIZES.map((s) => `icon/${s}.png`)));
    for (const [path, png] of drawn) {
      const committed = readFileSync(resolve(ROOT, 'public', path));
      expect(committed.equals(png), `${path} differs from what assets/*.svg draws: run npm run icons`).toBe(true);
      const size = Number(/(\d+)\.png$/.exec(path)![1]);
      expect([committed.readUInt32BE(16), committed.readUInt32BE(20)]).toEqual([size, size]);
    }
  });
});
