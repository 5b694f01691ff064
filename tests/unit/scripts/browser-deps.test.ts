import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../../scripts/browser-deps.sh');

/** A PATH with only these commands (found where the machine has them): no apt-get, no sudo. */
function pathWith(commands: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'browser-deps-'));
  for (const name of commands) {
    const found = spawnSync('bash', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found !== '') symlinkSync(found, join(dir, name));
  }
  made.push(dir);
  return dir;
}
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('the browser tests\' machine check (scripts/browser-deps.sh)', () => {
  it('stops at once, naming what is missing and the exact command, where it cannot install', () => {
    const run = spawnSync('/bin/bash', [SCRIPT], {
      encoding: 'utf8',
      env: { PATH: pathWith(['id', 'grep', 'head', 'fc-list']), CHROMIUM_PATH: '/nonexistent/chromium', FIREFOX_PATH: '/nonexistent/firefox-esr' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('missing chromium firefox-esr');
    expect(run.stderr).toContain('Chromium at /nonexistent/chromium');
    expect(run.stderr).toMatch(/apt-get update && apt-get install -y chromium firefox-esr/);
  });
});
