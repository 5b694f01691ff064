/**
 * A streamed reply is a new string of its full length every frame, and a slice of a string keeps
 * the whole string alive (V8): the finished blocks and pieces of a long reply must be copies, or
 * a reply of megabytes holds hundreds of them (issue 28, item 5).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MarkdownBlockSplitter } from '@/lib/render/blocks';
import { TextPieces } from '@/lib/render/pieces';
import { longCodeBlock, longMarkdown } from '../../gateway/models';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** What the splitter and the pieces of its open block hold once `full` has streamed in, `delta` characters a frame. */
function retainedStreaming(full: string, delta: number): number {
  const before = heapUsed();
  const splitter = new MarkdownBlockSplitter();
  const pieces = new TextPieces();
  let text = '';
  for (let at = 0; at < full.length; at += delta) {
    // As a page receives it: the text so far and what came since, made one string by the read.
    text += full.slice(at, at + delta);
    pieces.cut(splitter.split(text).open);
  }
  const held = heapUsed() - before;
  // Kept alive until measured.
  expect(splitter.split(text).open.length + pieces.cut(text).last.length).toBeGreaterThan(0);
  return held;
}

describe('a long reply holds about its own size', () => {
  it('markdown of many blocks', () => {
    const text = longMarkdown(1024 * 1024);
    expect(retainedStreaming(text, 4096)).toBeLessThan(8 * text.length);
  });

  it('one fenced block of code', () => {
    const text = longCodeBlock(1024 * 1024).text;
    expect(retainedStreaming(text, 4096)).toBeLessThan(8 * text.length);
  });
});
