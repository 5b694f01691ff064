// @vitest-environment jsdom
/**
 * The diagram sanitiser on its own, with SVG written to attack it (Mermaid's own output is
 * covered in diagrams.test.ts): what survives is drawing, styles without outside references,
 * and links to the SVG's own fragments.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeDiagramSvg, svgDataUrl } from '@/components/chat/render/diagram-svg';

const REMOTE = 'http://127.0.0.1:9/x';

function clean(svg: string): Document {
  const out = sanitizeDiagramSvg(svg);
  expect(out).toBeDefined();
  // One namespace declaration, or the image does not decode.
  expect(out!.match(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g)).toHaveLength(1);
  const doc = new DOMParser().parseFromString(out!, 'image/svg+xml');
  expect(doc.querySelector('parsererror')).toBeNull();
  return doc;
}

const wrap = (inner: string, attrs = '') => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200.5 100" width="100%" style="max-width: 200px;" ${attrs}>${inner}</svg>`;

describe('sanitizeDiagramSvg', () => {
  it('keeps the drawing: shapes, text, markers and filters by fragment, its own styles; sizes it from its viewBox', () => {
    const doc = clean(wrap(
      '<style>#d .node rect { fill: #ECECFF; stroke: #9370DB; } #d [data-look="neo"] { filter: drop-shadow(1px 2px 2px rgba(0,0,0,.2)); }</style>'
      + '<defs><marker id="m" viewBox="0 0 10 10"><path d="M0 0L10 5L0 10z"/></marker><filter id="f"><feGaussianBlur stdDeviation="2"/></filter></defs>'
      + '<g class="node" data-look="neo" transform="translate(10,10)"><rect width="50" height="20" filter="url(#f)"/><text><tspan x="0" dy="1.1em">Label</tspan></text></g>'
      + '<path d="M0 0L100 0" marker-end="url(#m)" style="stroke-dasharray: 0 0 32 4;"/>',
    ));
    const svg = doc.documentElement;
    expect(svg.getAttribute('width')).toBe('201');
    expect(svg.getAttribute('height')).toBe('100');
    expect(svg.hasAttribute('style')).toBe(false);
    expect(doc.querySelector('style')!.textContent).toContain('fill: #ECECFF');
    expect(doc.querySelector('rect')!.getAttribute('filter')).toBe('url(#f)');
    expect(doc.querySelector('path[marker-end]')!.getAttribute('marker-end')).toBe('url(#m)');
    expect(doc.querySelector('path[marker-end]')!.getAttribute('style')).toContain('stroke-dasharray');
    expect(doc.querySelector('g')!.getAttribute('data-look')).toBe('neo');
    expect(doc.querySelector('tspan')!.textContent).toBe('Label');
    expect(doc.querySelector('feGaussianBlur')).not.toBeNull();
  });

  it('removes script, handlers, foreignObject, links, remote images, use, animation', () => {
    const doc = clean(wrap(
      '<script>alert(1)</script>'
      + '<g onclick="alert(2)" onmouseover="alert(3)"><rect onload="alert(4)" width="5" height="5"/></g>'
      + '<foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(5)"><iframe src="javascript:alert(6)"></iframe></div></foreignObject>'
      + `<a href="javascript:alert(7)"><text>link text</text></a><a xlink:href="${REMOTE}"><text>remote</text></a>`
      + `<image href="${REMOTE}" width="10" height="10"/><image xlink:href="${REMOTE}"/>`
      + `<use href="${REMOTE}#icon"/><use xlink:href="data:image/svg+xml,%3Csvg%20onload%3Dalert(8)%3E"/>`
      + '<animate attributeName="href" values="javascript:alert(9)"/><set attributeName="onclick" to="alert(10)"/>'
      + `<feImage href="${REMOTE}"/>`,
      'onload="alert(11)"',
    ));
    const names = [...doc.querySelectorAll('*')].map((el) => el.localName);
    for (const banned of ['script', 'foreignObject', 'a', 'image', 'use', 'animate', 'set', 'feImage', 'iframe', 'img', 'div']) expect(names).not.toContain(banned);
    for (const el of doc.querySelectorAll('*')) for (const attr of el.attributes) expect(attr.name).not.toMatch(/^on/i);
    // A link's words stay, as words.
    expect(doc.documentElement.textContent).toContain('link text');
  });

  it('drops references outside the SVG: hrefs, url() in attributes and styles, @import, expressions', () => {
    const doc = clean(wrap(
      `<style>@import url(${REMOTE}); .a { fill: red; }</style>`
      + `<style>.b { background: url(${REMOTE}); }</style>`
      + `<style>.c { fill: url( '${REMOTE}' ); }</style>`
      + '<style>.d { fill: u\\72l(//127.0.0.1/x); }</style>'
      + `<rect id="r1" fill="url(${REMOTE})" filter="url( ${REMOTE}#f )" mask="url('${REMOTE}')" width="5" height="5"/>`
      + `<rect id="r2" style="fill: url(${REMOTE})" width="5" height="5"/>`
      + '<rect id="r3" style="width: expression(alert(1))"/>'
      + '<rect id="r4" style="behavior: url(#x)"/>'
      + '<linearGradient id="g" href="http://127.0.0.1:9/g"/>'
      + '<linearGradient id="h" xlink:href="#g"/>',
    ));
    const out = new XMLSerializer().serializeToString(doc);
    expect(out).not.toContain('127.0.0.1');
    expect(out).not.toMatch(/@import|expression|behavior|u\\72l/i);
    expect(doc.querySelector('#r1')!.hasAttribute('fill')).toBe(false);
    expect(doc.querySelector('#r2')!.hasAttribute('style')).toBe(false);
    expect(doc.querySelector('#g')!.hasAttribute('href')).toBe(false);
    expect(doc.querySelector('#h')!.getAttribute('xlink:href')).toBe('#g');
  });

  it('an SVG without a namespace declaration gets one', () => {
    const out = sanitizeDiagramSvg('<svg viewBox="0 0 10 10"><rect width="1" height="1"/></svg>')!;
    expect(out.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('nothing drawable: undefined', () => {
    expect(sanitizeDiagramSvg('<p>not svg</p>')).toBeUndefined();
    expect(sanitizeDiagramSvg('<script>alert(1)</script>')).toBeUndefined();
  });

  it('an image address with the SVG, encoded', () => {
    expect(svgDataUrl('<svg>#a %</svg>')).toBe('data:image/svg+xml;charset=utf-8,%3Csvg%3E%23a%20%25%3C%2Fsvg%3E');
  });
});
