// Tests of the stand-in extractor (lib/runs/inline-images.local.ts): deleted with it when helper A's
// lib/images/inline.ts is merged (its own tests cover the same ground).
import { describe, expect, it } from 'vitest';
import { base64ToBytes, imageRefs, InlineImageExtractor, replaceImageRefs } from '@/lib/runs/inline-images.local';

const reply = 'Look! ![a [b] cat](data:image/png;base64,AQID\nBAUG) and ![x](https://e.com/y.png) done!';

function run(chunks: string[]): { text: string; images: { alt: string; mime: string; base64: string }[] } {
  let n = 0;
  const extractor = new InlineImageExtractor(() => `id${n++}`);
  let text = '';
  const images: { alt: string; mime: string; base64: string }[] = [];
  for (const chunk of [...chunks.map((c) => extractor.push(c)), extractor.end()]) {
    text += chunk.text;
    images.push(...chunk.images.map((i) => ({ alt: i.alt, mime: i.mime, base64: i.base64.join('') })));
  }
  return { text, images };
}

describe('stand-in inline image extractor', () => {
  it('takes the image out at every split point (and every pair of split points)', () => {
    const whole = run([reply]);
    // An alt holding brackets is not an image opening we take: it stays text (its base64 too).
    expect(whole.images).toEqual([]);
    const simple = 'Look! ![cat](data:image/png;base64,AQID\nBAUG) and ![x](https://e.com/y.png) done!';
    const expected = { text: 'Look! ![cat](gc-image:id0) and ![x](https://e.com/y.png) done!', images: [{ alt: 'cat', mime: 'image/png', base64: 'AQIDBAUG' }] };
    for (let i = 0; i <= simple.length; i++) {
      expect(run([simple.slice(0, i), simple.slice(i)])).toEqual(expected);
      for (let j = i; j <= simple.length; j += 7) expect(run([simple.slice(0, i), simple.slice(i, j), simple.slice(j)])).toEqual(expected);
    }
  });

  it('decodes base64 pieces of any length; finds and replaces references', () => {
    const text = Buffer.from([0, 1, 2, 250, 251, 252, 253]).toString('base64');
    for (let i = 0; i <= text.length; i++) expect([...base64ToBytes([text.slice(0, i), text.slice(i)])]).toEqual([0, 1, 2, 250, 251, 252, 253]);
    expect(imageRefs('![a](gc-image:x1) ![b](gc-image:y-2)')).toEqual(['x1', 'y-2']);
    expect(replaceImageRefs('![a](gc-image:x1) ![b](gc-image:y2)', (id) => (id === 'x1' ? 'data:image/png;base64,AA' : undefined))).toBe('![a](data:image/png;base64,AA) ![b](gc-image:y2)');
  });
});
