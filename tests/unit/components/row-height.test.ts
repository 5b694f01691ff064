import { describe, expect, it } from 'vitest';
import { estimateHeight } from '@/components/chat/row-height';
import type { Message } from '@/lib/conversations/records';

const reply = (text: string, reasoning = ''): Message => ({ id: 'a', conversationId: 'c', seq: 1, role: 'assistant', text, reasoning, status: 'complete', createdAt: 1 });
const user = (text: string): Message => ({ id: 'u', conversationId: 'c', seq: 0, role: 'user', text, reasoning: '', status: 'complete', createdAt: 1 });
const code = (lines: number, lang = 'ts'): string => `\`\`\`${lang}\n${Array.from({ length: lines }, (_, i) => `const step${i} = ${i};`).join('\n')}\n\`\`\``;

// Heights measured in the chat page (tests/bench/saved-open.ts's conversation, 1,000 px wide list).
describe("a message's first guess of its height (before it is drawn and measured)", () => {
  it('counts a code block by its lines, not as prose: a reply of two blocks of 14 lines is about as tall as drawn', () => {
    const text = `Here is step 1, where $f(x) = x^2$:\n\n${code(14)}\n\nAnd the other way:\n\n${code(28, 'python')}\n\nBoth give the same result.`;
    // Drawn: 1,055.6 px (14 lines of C++, 28 of Python).
    expect(estimateHeight(reply(text), 1_000)).toBeGreaterThan(1_000);
    expect(estimateHeight(reply(text), 1_000)).toBeLessThan(1_110);
  });

  it('counts a folded block (past 30 lines) by the lines it shows, with its "Show all N lines"', () => {
    const short = estimateHeight(reply(code(20)));
    expect(estimateHeight(reply(code(31)))).toBe(estimateHeight(reply(code(200))));
    expect(estimateHeight(reply(code(31))) - short).toBeGreaterThan(0);
    expect(estimateHeight(reply(code(31))) - short).toBeLessThan(40);
  });

  it('wraps prose at the list width: the same paragraph is taller in a narrow list', () => {
    const paragraph = 'word '.repeat(200);
    expect(estimateHeight(reply(paragraph), 400)).toBeGreaterThan(estimateHeight(reply(paragraph), 1_000) * 1.5);
  });

  it('reads a fence that never closed (a reply cut short) as code to the end', () => {
    const cut = code(10).slice(0, -'\n```'.length);
    expect(estimateHeight(reply(`Start:\n\n${cut}`))).toBe(estimateHeight(reply(`Start:\n\n${code(10)}`)));
  });

  it("a user's one-line message is a bubble of one line; a reasoning reply adds its folded reasoning", () => {
    // Drawn: 70.75 px.
    expect(estimateHeight(user('Show me two versions of step 99.'))).toBeCloseTo(71, 0);
    expect(estimateHeight(reply('Yes.', 'thinking'))).toBeGreaterThan(estimateHeight(reply('Yes.')));
  });

  it('caps what it guesses for a reply of megabytes', () => {
    expect(estimateHeight(reply('word '.repeat(400_000)))).toBe(20_000);
  });
});
