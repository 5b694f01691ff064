/**
 * The words rendered HTML carries (button names), in the user's language. Plain strings with
 * `{name}` placeholders, because they travel to the render worker (functions cannot) and the
 * page words them through the i18n layer (components/i18n/markdown-labels.ts).
 */
export interface RenderLabels {
  /** "Copy" */
  copy: string;
  /** "code": a code block that names no language. */
  code: string;
  /** "Copy {language} code" */
  copyCode: string;
  /** "Load image from {host}" */
  loadImage: string;
  /** "Load image “{alt}” from {host}" */
  loadImageAlt: string;
  /** "Wrap lines" */
  wrapLines: string;
  /** "Show all {n} lines" */
  showAllLines: string;
  /** "Preview" */
  preview: string;
  /** "Open preview in a new tab" */
  openPreviewTab: string;
  /** "Table options" */
  tableMenu: string;
  /** "{command} is turned off: a formula cannot link to or load anything" (KaTeX's \href, \url, \includegraphics, \html…) */
  formulaBlocked: string;
  /** "A formula this long ({chars} characters) is shown as its source" */
  formulaTooLong: string;
}

/** `template` with each `{name}` replaced by its value (a placeholder without one stays as written). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/** The bare facts, for a caller without words (tests, a warm-up render). */
export const BARE_LABELS: RenderLabels = {
  copy: '⧉',
  code: '</>',
  copyCode: '{language}',
  loadImage: '{host}',
  loadImageAlt: '{alt} {host}',
  wrapLines: '↩',
  showAllLines: '{n}',
  preview: '▶',
  openPreviewTab: '↗',
  tableMenu: '⋯',
  formulaBlocked: '{command}',
  formulaTooLong: '{chars}',
};
