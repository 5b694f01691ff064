/**
 * The names models see. Every interface takes `^[A-Za-z0-9_-]{1,64}$`: an MCP tool is named
 * after its server and itself (`notes__delete_note`), made to fit, and made unique on the run.
 */
import { BUILTIN_SOURCE } from './types';

const FIT = /[^A-Za-z0-9_-]+/g;

function fit(text: string, max: number): string {
  const clean = text.replace(FIT, '_').replace(/^_+|_+$/g, '');
  return (clean === '' ? 'tool' : clean).slice(0, max);
}

/** The name a tool is offered under; `taken`: the names already given on this run. */
export function modelToolName(source: string, serverName: string, tool: string, taken: ReadonlySet<string>): string {
  const base = source === BUILTIN_SOURCE ? fit(tool, 64) : `${fit(serverName, 20)}__${fit(tool, 42)}`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const name = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
}
