/**
 * Checking a pasted API key for the signs of a bad copy (seed part 3: a key "incomplete when
 * copied" is invalid) before it is ever sent, each with its own code.
 */
import { trimEnds } from '../shared/trim';

export type KeyProblem =
  | 'empty'
  | 'looks_like_address'
  | 'masked'
  | 'inner_whitespace'
  | 'too_short'
  | 'odd_characters';

export interface KeyIssue {
  problem: KeyProblem;
  /** `length` for `too_short`. */
  params?: { length: number };
}

/** The shortest key seen from real gateways is well above this (new-api: sk- + 48). */
const MIN_KEY_LENGTH = 16;

const QUOTES = /['"`‘’“”]/;

/** Trim spaces and quotes, and a `Bearer ` prefix copied from a header. */
export function normalizeApiKey(input: string): string {
  return trimEnds(input.trim(), QUOTES)
    .trim()
    .replace(/^(authorization:\s*)?bearer\s+/i, '')
    .trim();
}

/** The first problem with a key (after `normalizeApiKey`), or undefined when it looks whole. */
export function checkApiKey(input: string): KeyIssue | undefined {
  const key = normalizeApiKey(input);
  if (key === '') return { problem: 'empty' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(key) || /^[\w-]+(\.[\w-]+)+(:\d+)?(\/|$)/.test(key)) {
    return { problem: 'looks_like_address' };
  }
  if (/…|\.\.\.|\*{2,}|•{2,}/.test(key)) {
    return { problem: 'masked' };
  }
  if (/\s/.test(key)) {
    return { problem: 'inner_whitespace' };
  }
  if (/[^\x21-\x7e]/.test(key)) {
    return { problem: 'odd_characters' };
  }
  if (key.length < MIN_KEY_LENGTH) {
    return { problem: 'too_short', params: { length: key.length } };
  }
  return undefined;
}

/** For display: the first and last few characters, never the whole key. */
export function maskApiKey(key: string): string {
  if (key.length <= 10) return '•'.repeat(key.length);
  return `${key.slice(0, 5)}…${key.slice(-4)}`;
}
