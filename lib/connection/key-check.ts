/**
 * Checking a pasted API key for the signs of a bad copy (seed part 3: a key "incomplete when
 * copied" is invalid) before it is ever sent, each with its own message.
 */

export type KeyProblem =
  | 'empty'
  | 'looks_like_address'
  | 'masked'
  | 'inner_whitespace'
  | 'too_short'
  | 'odd_characters';

export interface KeyIssue {
  problem: KeyProblem;
  message: string;
}

/** The shortest key seen from real gateways is well above this (new-api: sk- + 48). */
const MIN_KEY_LENGTH = 16;

/** Trim spaces and quotes, and a `Bearer ` prefix copied from a header. */
export function normalizeApiKey(input: string): string {
  return input
    .trim()
    .replace(/^['"`‘’“”]+|['"`‘’“”]+$/g, '')
    .trim()
    .replace(/^(authorization:\s*)?bearer\s+/i, '')
    .trim();
}

/** The first problem with a key (after `normalizeApiKey`), or undefined when it looks whole. */
export function checkApiKey(input: string): KeyIssue | undefined {
  const key = normalizeApiKey(input);
  if (key === '') return { problem: 'empty', message: 'Enter the API key from the keys page of your gateway.' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(key) || /^[\w-]+(\.[\w-]+)+(:\d+)?(\/|$)/.test(key)) {
    return { problem: 'looks_like_address', message: 'This is an address, not a key: put it in the Gateway address field, and paste the key (often starting with sk-) here.' };
  }
  if (/…|\.\.\.|\*{2,}|•{2,}/.test(key)) {
    return { problem: 'masked', message: 'This key is shortened or masked (it contains … or ***), as the keys page shows it. Use the copy button on the keys page to copy the whole key.' };
  }
  if (/\s/.test(key)) {
    return { problem: 'inner_whitespace', message: 'The key contains spaces or line breaks, so part of it is missing or extra. Copy it again in one piece.' };
  }
  if (/[^\x21-\x7e]/.test(key)) {
    return { problem: 'odd_characters', message: 'The key contains characters keys never have (non-ASCII letters or punctuation). Copy it again from the keys page.' };
  }
  if (key.length < MIN_KEY_LENGTH) {
    return { problem: 'too_short', message: `The key is only ${key.length} characters long, so it looks cut off. Copy the whole key again from the keys page.` };
  }
  return undefined;
}

/** For display: the first and last few characters, never the whole key. */
export function maskApiKey(key: string): string {
  if (key.length <= 10) return '•'.repeat(key.length);
  return `${key.slice(0, 5)}…${key.slice(-4)}`;
}
