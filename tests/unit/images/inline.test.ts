/**
 * A chat model's data-URI images taken out of its streamed text (issue 30, item 4): wherever the
 * network splits the reply, the same text with short references and the same images come out.
 */
import { describe, expect, it } from 'vitest';
import { CUT_IMAGE_CHARS, InlineImageExtractor, base64ToBytes, imageRefs, replaceImageRefs, type InlineImage } from '@/lib/images/inline';

/** A tiny PNG's base64 (the 1×1 transparent pixel). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PNG_BYTES = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0));

function ids(): () => string {
  let n = 0;
  return () => `img${++n}`;
}

/** Runs `pieces` through a fresh extractor: the text joined, and the images. */
function run(pieces: string[]): { text: string; images: InlineImage[] } {
  const extractor = new InlineImageExtractor(ids());
  let text = '';
  const images: InlineImage[] = [];
  for (const piece of pieces) {
    const out = extractor.push(piece);
    text += out.text;
    images.push(...out.images);
  }
  const last = extractor.end();
  return { text: text + last.text, images: [...images, ...last.images] };
}

const reply = `Here is your cat!\n\n![image](data:image/png;base64,${PNG})\n\nDo you like it?`;
const expectedText = 'Here is your cat!\n\n![image](gc-image:img1)\n\nDo you like it?';

describe('InlineImageExtractor', () => {
  it('takes an image out of a reply in one piece', () => {
    const { text, images } = run([reply]);
    expect(text).toBe(expectedText);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ id: 'img1', alt: 'image', mime: 'image/png' });
    expect(images[0]!.base64.join('')).toBe(PNG);
  });

  it('at every split point of the reply, the same text and image', () => {
    for (let at = 0; at <= reply.length; at++) {
      const { text, images } = run([reply.slice(0, at), reply.slice(at)]);
      expect(text, `split at ${at}`).toBe(expectedText);
      expect(images.map((i) => i.base64.join('')), `split at ${at}`).toEqual([PNG]);
    }
  });

  it('at every pair of split points (three pieces), a sample: the same text and image', () => {
    for (let a = 0; a <= reply.length; a += 3) {
      for (let b = a; b <= reply.length; b += 7) {
        const { text, images } = run([reply.slice(0, a), reply.slice(a, b), reply.slice(b)]);
        expect(text, `split at ${a}, ${b}`).toBe(expectedText);
        expect(images.map((i) => i.base64.join(''))).toEqual([PNG]);
      }
    }
  });

  it('one character at a time: the base64 stays in pieces, never one growing string', () => {
    const { text, images } = run([...reply]);
    expect(text).toBe(expectedText);
    expect(images[0]!.base64.length).toBe(PNG.length);
    expect(base64ToBytes(images[0]!.base64)).toEqual(PNG_BYTES);
  });

  it('text before an image goes out at once; only a possible start is held', () => {
    const extractor = new InlineImageExtractor(ids());
    expect(extractor.push('Drawing it now… ![')).toEqual({ text: 'Drawing it now… ', images: [] });
    expect(extractor.push('image](data:image/')).toEqual({ text: '', images: [] });
    expect(extractor.push(`png;base64,${PNG.slice(0, 20)}`).text).toBe('');
    const closed = extractor.push(`${PNG.slice(20)}) done`);
    expect(closed.text).toBe('![image](gc-image:img1) done');
    expect(closed.images).toHaveLength(1);
  });

  it('several images, each with its own id, in order', () => {
    const two = `A ![first](data:image/png;base64,${PNG}) and ![second](data:image/jpeg;base64,/9j/4AAQ) end`;
    for (let at = 0; at <= two.length; at += 5) {
      const { text, images } = run([two.slice(0, at), two.slice(at)]);
      expect(text).toBe('A ![first](gc-image:img1) and ![second](gc-image:img2) end');
      expect(images.map((i) => [i.id, i.alt, i.mime, i.base64.join('')])).toEqual([
        ['img1', 'first', 'image/png', PNG],
        ['img2', 'second', 'image/jpeg', '/9j/4AAQ'],
      ]);
    }
  });

  it('whitespace and newlines inside the base64 are allowed and removed', () => {
    const wrapped = PNG.replace(/(.{16})/g, '$1\n  ');
    const { text, images } = run([`x ![image](data:image/png;base64,\n${wrapped}\n) y`]);
    expect(text).toBe('x ![image](gc-image:img1) y');
    expect(images[0]!.base64.join('')).toBe(PNG);
    expect(base64ToBytes(images[0]!.base64)).toEqual(PNG_BYTES);
  });

  it('a data URI with parameters before ;base64 is an image; its type is lower-cased', () => {
    const { images } = run([`![p](data:IMAGE/PNG;name=cat.png;base64,${PNG})`]);
    expect(images[0]).toMatchObject({ alt: 'p', mime: 'image/png' });
  });

  it('fake starts are text: a link image, "![" then ordinary text, a bang', () => {
    const samples = [
      '![not](http://x) and more',
      'Wow![ that was close] indeed',
      'Look: ![alt text] (spaced) and ![x](data:text',
      'Hello! World!',
      '![a](![b](data:image/png;base64,AAAA)',
    ];
    for (const sample of samples) {
      for (let at = 0; at <= sample.length; at++) {
        const { text, images } = run([sample.slice(0, at), sample.slice(at)]);
        if (sample.startsWith('![a]')) {
          expect(text).toBe('![a](![b](gc-image:img1)');
          expect(images).toHaveLength(1);
        } else {
          expect(text, `${sample} split at ${at}`).toBe(sample);
          expect(images).toEqual([]);
        }
      }
    }
  });

  it('"![" at the end of a piece, then ordinary text: held only until decided', () => {
    const extractor = new InlineImageExtractor(ids());
    expect(extractor.push('See ![').text).toBe('See ');
    expect(extractor.push('this] for details').text).toBe('![this] for details');
  });

  it('a data URI that is not an image is left as it is', () => {
    const sample = 'A file: ![doc](data:text/plain;base64,SGVsbG8=) and [link](data:image/png;base64,AAAA)';
    expect(run([sample])).toEqual({ text: sample, images: [] });
  });

  it('prose about the syntax (a character base64 never has) is given back as the text it was', () => {
    const sample = 'Write ![x](data:image/png;base64,THEN the data.) like that';
    for (let at = 0; at <= sample.length; at += 2) {
      expect(run([sample.slice(0, at), sample.slice(at)])).toEqual({ text: sample, images: [] });
    }
  });

  it('an image still open at the end is given back as text (nothing the model sent is dropped)', () => {
    const cut = `Here ![image](data:image/png;base64,${PNG.slice(0, 30)}`;
    expect(run([cut.slice(0, 20), cut.slice(20)])).toEqual({ text: cut, images: [] });
    expect(run(['Fine!'])).toEqual({ text: 'Fine!', images: [] });
  });

  it('an alt text longer than any image\'s is text: the reply after it is not held back (2,000 characters, and just past the bound)', () => {
    for (const length of [2000, 1190]) {
      const start = `![${'a'.repeat(length)}](data:image/png;`;
      const extractor = new InlineImageExtractor(ids());
      let text = '';
      // The whole head in one piece, then the rest: the alt is decided on at once, not waited on.
      text += extractor.push(start).text;
      text += extractor.push('base64,' + PNG + ') and more').text;
      expect(text).toBe(`${start}base64,${PNG}) and more`);
      // And in a piece that completes the head.
      const again = new InlineImageExtractor(ids());
      expect(again.push(`${start}base64,${PNG}) and more`)).toEqual({ text: `${start}base64,${PNG}) and more`, images: [] });
      expect(extractor.end().text).toBe('');
    }
  });

  it('an image cut off past a short length is dropped at the end, and said to be cut (its base64 is not given back as text)', () => {
    const extractor = new InlineImageExtractor(ids());
    let text = extractor.push('Here ![a cat](data:image/png;base64,').text;
    for (let i = 0; i < 10; i++) text += extractor.push('A'.repeat(1000)).text;
    expect(text).toBe('Here ');
    expect(extractor.end()).toEqual({ text: '', images: [], cut: { alt: 'a cat' } });
    // Just within the bound it is still text, and nothing is said to be cut.
    const head = '![x](data:image/png;base64,';
    const short = `${head}${'A'.repeat(CUT_IMAGE_CHARS - head.length)}`;
    expect(run([short])).toEqual({ text: short, images: [] });
  });

  it('a large image in 64 kB pieces stays in pieces of that size', () => {
    const big = 'A'.repeat(4 * 1024 * 1024);
    const stream = `![image](data:image/png;base64,${big}) ok`;
    const pieces: string[] = [];
    for (let at = 0; at < stream.length; at += 64 * 1024) pieces.push(stream.slice(at, at + 64 * 1024));
    const { text, images } = run(pieces);
    expect(text).toBe('![image](gc-image:img1) ok');
    expect(images[0]!.base64.length).toBeGreaterThanOrEqual(64);
    expect(Math.max(...images[0]!.base64.map((p) => p.length))).toBeLessThanOrEqual(64 * 1024);
    expect(base64ToBytes(images[0]!.base64).length).toBe(3 * 1024 * 1024);
  });
});

describe('references', () => {
  it('imageRefs lists the ids in order; replaceImageRefs puts addresses back, leaving unknown ones', () => {
    const text = 'A ![first](gc-image:img1) b ![second](gc-image:img-2) c ![web](https://x/y.png)';
    expect(imageRefs(text)).toEqual(['img1', 'img-2']);
    expect(imageRefs('no images')).toEqual([]);
    const back = replaceImageRefs(text, (id) => (id === 'img1' ? `data:image/png;base64,${PNG}` : undefined));
    expect(back).toBe(`A ![first](data:image/png;base64,${PNG}) b ![second](gc-image:img-2) c ![web](https://x/y.png)`);
  });

  it('what was taken out and put back is the reply as the model sent it', () => {
    const { text, images } = run([reply.slice(0, 40), reply.slice(40)]);
    const byId = new Map(images.map((i) => [i.id, `data:${i.mime};base64,${i.base64.join('')}`]));
    expect(replaceImageRefs(text, (id) => byId.get(id))).toBe(reply);
  });
});

describe('base64ToBytes', () => {
  it('decodes pieces of any length, whitespace, URL-safe letters and missing padding', () => {
    const bytes = new Uint8Array(1000).map((_, i) => (i * 37) % 256);
    const b64 = btoa(String.fromCharCode(...bytes));
    for (const size of [1, 2, 3, 5, 7, 64, 999]) {
      const pieces: string[] = [];
      for (let at = 0; at < b64.length; at += size) pieces.push(b64.slice(at, at + size));
      expect(base64ToBytes(pieces), `pieces of ${size}`).toEqual(bytes);
    }
    expect(base64ToBytes([b64.slice(0, 100), ' \n', b64.slice(100)])).toEqual(bytes);
    expect(base64ToBytes([b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')])).toEqual(bytes);
    expect(base64ToBytes([])).toEqual(new Uint8Array(0));
  });

  it('throws on what is not base64', () => {
    expect(() => base64ToBytes(['abc$'])).toThrow();
  });
});
