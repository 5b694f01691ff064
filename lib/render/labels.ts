/** The words rendered HTML carries (button names), in the user's language: plain strings, `{name}` placeholders. */
export interface RenderLabels {
  copy: string;            // "Copy"
  code: string;            // "code" (a block with no language)
  copyCode: string;        // "Copy {language} code"
  loadImage: string;       // "Load image from {host}"
  loadImageAlt: string;    // "Load image “{alt}” from {host}"
  formulaBlocked: string;  // "{command} is turned off: a formula cannot link to or load anything" (KaTeX's \href, \url, \includegraphics, \html…)
  formulaTooLong: string;  // "A formula this long ({chars} characters) is shown as its source"
}

/** `template` with each `{name}` replaced by its value (a name without a value stays as written). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
