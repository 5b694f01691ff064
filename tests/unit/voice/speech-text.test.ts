/**
 * A reply made ready to be read aloud (issue 32, item 1): marks dropped, code blocks, formulas,
 * images and tables said by the page's words (not read out), sentences kept whole, the first piece
 * short so speech starts at once, and no piece past the size a speech request takes.
 */
import { describe, expect, it } from 'vitest';
import { speechPieces, speechText, type SpokenPart } from '@/lib/voice/speech-text';
import { SPEECH_MAX_INPUT } from '@/lib/gateway';
import { longMarkdown } from '../../gateway/models';

/** Words a page would give, marked so a test sees where they went. */
const say = (part: SpokenPart): string => {
  switch (part.kind) {
    case 'code': return `[${part.language || 'plain'} code, ${part.lines} lines]`;
    case 'formula': return '[formula]';
    case 'image': return `[image: ${part.alt}]`;
    case 'table': return `[table ${part.rows}x${part.columns}]`;
  }
};

describe('speechText', () => {
  it('drops the marks: emphasis, code marks, link targets, heading hashes, list bullets and quote marks', () => {
    const text = speechText('# The *plan*\n\nRead **this** and `npm test`, then see [the docs](https://example.com/docs).\n\n- first step\n- second step!\n\n> quoted words', say);
    expect(text).toEqual(['The plan.', 'Read this and npm test, then see the docs.', 'first step.', 'second step!', 'quoted words.']);
    expect(text.join(' ')).not.toMatch(/[*#`>]|https:|\]\(/);
  });

  it('says a code block by its language and length instead of reading it, and formulas, images and tables by the page\'s words', () => {
    const markdown = 'Here:\n\n```python\nprint(1)\nprint(2)\n```\n\nThe area is $\\pi r^2$ exactly.\n\n$$\nE = mc^2\n$$\n\n![a red cat](https://example.com/cat.png)\n\n| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |';
    expect(speechText(markdown, say)).toEqual([
      'Here:',
      '[python code, 2 lines].',
      'The area is [formula] exactly.',
      '[formula].',
      '[image: a red cat].',
      '[table 3x2].',
    ]);
    // Prices are text, not formulas.
    expect(speechText('It costs $5 and $10.', say)).toEqual(['It costs $5 and $10.']);
  });
});

describe('speechPieces', () => {
  it('the first piece is the first sentence alone; later sentences are grouped, whole, up to the size', () => {
    const pieces = speechPieces('Hello there. This is the second sentence. And a third one follows it here. Then a fourth.', { say, maxChars: 60 });
    expect(pieces[0]).toBe('Hello there.');
    expect(pieces.slice(1)).toEqual(['This is the second sentence.', 'And a third one follows it here. Then a fourth.']);
  });

  it('a first sentence too long to start quickly is cut at a comma; no piece is longer than asked', () => {
    const long = `${'word '.repeat(30)}, and then ${'more '.repeat(60)}.`;
    const pieces = speechPieces(long, { say, firstChars: 120, maxChars: 200 });
    expect(pieces[0]!.length).toBeLessThanOrEqual(120);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(200);
    // Nothing lost: the same words, in order.
    const words = (text: string) => text.split(/[\s,.]+/).filter((w) => w !== '');
    expect(words(pieces.join(' '))).toEqual(words(long));
  });

  it('Chinese sentences are split at their full-width marks', () => {
    expect(speechPieces('你好。今天天气很好！我们去公园吧？', { say, locale: 'zh', maxChars: 8 })).toEqual(['你好。', '今天天气很好！', '我们去公园吧？']);
  });

  it('a 100 kB reply: every piece fits a speech request, nothing of its prose is lost, no code is read out', () => {
    const reply = longMarkdown(100 * 1024);
    const pieces = speechPieces(reply, { say });
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(SPEECH_MAX_INPUT);
    const spoken = pieces.join(' ');
    expect(spoken).not.toContain('```');
    expect(spoken).toContain('Note 1: keep the numbers above in mind for the next section.');
    expect(spoken).not.toContain('def ');
  });
});
