/**
 * `npm run icons`: the extension's PNG icons, drawn from the SVG sources in assets/ (never by
 * hand): the product icon at every size the stores and browsers ask for, and the one-colour
 * toolbar mark in a dark glyph (for light toolbars) and a light one (for dark toolbars, Firefox's
 * theme_icons). A unit test draws them again and fails when a committed PNG differs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const ROOT = resolve(import.meta.dirname, '..');

export const ICON_SIZES = [16, 32, 48, 96, 128] as const;
export const TOOLBAR_SIZES = [16, 32] as const;
/** The toolbar glyph's colours: dark on light toolbars, light on dark ones. */
export const TOOLBAR_COLOURS = { dark: '#1f2330', light: '#f4f4f8' } as const;

function render(svg: string, size: number): Buffer {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng());
}

/** Every icon file, by its path under public/, as the sources draw it. */
export function drawIcons(root = ROOT): Map<string, Buffer> {
  const icon = readFileSync(join(root, 'assets/icon.svg'), 'utf8');
  const toolbar = readFileSync(join(root, 'assets/toolbar.svg'), 'utf8');
  const files = new Map<string, Buffer>();
  for (const size of ICON_SIZES) files.set(`icon/${size}.png`, render(icon, size));
  for (const [name, colour] of Object.entries(TOOLBAR_COLOURS)) {
    for (const size of TOOLBAR_SIZES) files.set(`icon/toolbar-${name}-${size}.png`, render(toolbar.replaceAll('currentColor', colour), size));
  }
  return files;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  for (const [path, png] of drawIcons()) {
    const out = join(ROOT, 'public', path);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, png);
    console.log(`public/${path}: ${png.length} bytes`);
  }
}
