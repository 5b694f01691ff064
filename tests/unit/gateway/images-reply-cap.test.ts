/**
 * The largest reply counts what the user reads: a data-URI image in a chat model's text (taken
 * out as an image downstream) is not counted against it, wherever the pieces split it; text
 * around it, and prose that only looks like one, still is.
 */
import { describe, expect, it } from 'vitest';
import { ReplyMeter } from '@/lib/gateway/reply-cap';
import type { StreamEvent } from '@/lib/gateway';
import { chunk, clientFor, collect, errorOf, hello, lastOf, replay, textOf } from './recordings';

const text = (t: string): StreamEvent => ({ type: 'text', text: t });

function meter(pieces: string[], max: number): { used: number; kept: string } {
  const m = new ReplyMeter(max);
  let used = 0;
  let kept = '';
  for (const piece of pieces) {
    const events = [text(piece)];
    used = m.count(events);
    kept += events.map((e) => (e.type === 'text' ? e.text : '')).join('');
    if (used < 0) break;
  }
  return { used, kept };
}

describe('ReplyMeter', () => {
  const reply = `Hi ![image](data:image/png;base64,${'A'.repeat(1000)}) bye`;

  it('an image\'s base64 is not counted, at every split of the reply into two pieces', () => {
    for (let at = 0; at <= reply.length; at++) {
      const { used, kept } = meter([reply.slice(0, at), reply.slice(at)], 100);
      expect(used, `split at ${at}`).toBeGreaterThan(0);
      expect(kept).toBe(reply);
    }
    // Counted: "Hi ![image", the head's "](data:image/png;base64,", ") bye".
    expect(meter([reply], 100).used).toBe('Hi ![image](data:image/png;base64,) bye'.length);
  });

  it('text around images still counts, and passing the cap cuts it where it passes', () => {
    const { used, kept } = meter([reply, ' and more words after it'], 50);
    expect(used).toBe(-1);
    expect(kept).toBe(`${reply} and more w`);
  });

  it('prose that only looks like an image is counted', () => {
    const prose = `Write ](data:image/png;base64, then the data. ${'More words. '.repeat(20)}`;
    expect(meter([prose], 100).used).toBe(-1);
    const unclosed = meter([`![x](data:image/png;base64,${'A'.repeat(50)}`, ` then words${'!'.repeat(200)}`], 100);
    expect(unclosed.used).toBe(-1);
  });

  it('base64 after a "](data:image/…;base64," that no "![" opens is counted (the extractor keeps it as text), at every split', () => {
    const bare = `Write ](data:image/png;base64,${'A'.repeat(500)}) done`;
    for (let at = 0; at <= bare.length; at += 7) expect(meter([bare.slice(0, at), bare.slice(at)], 100).used, `split at ${at}`).toBe(-1);
    // So is one whose alt is longer than any image's.
    expect(meter([`![${'a'.repeat(1100)}](data:image/png;base64,${'A'.repeat(500)})`], 1200).used).toBe(-1);
  });

  it('reasoning counts whole, as before', () => {
    const m = new ReplyMeter(50);
    const events: StreamEvent[] = [{ type: 'reasoning', text: `](data:image/png;base64,${'A'.repeat(100)})` }];
    expect(m.count(events)).toBe(-1);
  });
});

describe('streamChat and images', () => {
  it('an image larger than the largest reply streams whole and the reply ends done', async () => {
    const b64 = 'A'.repeat(64 * 1024);
    const pieces = ['Here: ![image](data:image/png;base64,', ...Array.from({ length: 8 }, () => b64), ') done'];
    const chunks = [...pieces.map((content) => chunk({ content })), chunk({}, 'stop'), 'data: [DONE]\n\n'];
    const events = await collect(clientFor(replay({ chunks }), { limits: { maxReplyBytes: 32 * 1024 } }).streamChat(hello));
    expect(lastOf(events)).toMatchObject({ type: 'done' });
    expect(textOf(events)).toBe(pieces.join(''));
  });

  it('text past the largest reply is still cut', async () => {
    const chunks = [chunk({ content: `![image](data:image/png;base64,${'A'.repeat(4096)})` }), ...Array.from({ length: 50 }, () => chunk({ content: 'x'.repeat(100) }))];
    const events = await collect(clientFor(replay({ chunks }), { limits: { maxReplyBytes: 1024 } }).streamChat(hello));
    expect(errorOf(events).detail?.code).toBe('reply_too_large');
  });
});
