/** The words rendered HTML carries (button names), in the user's language: plain strings, `{name}` placeholders. */
export interface RenderLabels {
  copy: string;            // "Copy"
  code: string;            // "code" (a block with no language)
  copyCode: string;        // "Copy {language} code"
  loadImage: string;       // "Load image from {host}"
  loadImageAlt: string;    // "Load image “{alt}” from {host}"
  wrapLines: string;       // "Wrap lines"
  showAllLines: string;    // "Show all {n} lines"
  preview: string;         // "Preview"
  openPreviewTab: string;  // "Open preview in a new tab"
  tableMenu: string;       // "Table options"
}

/** `template` with each `{name}` replaced by its value (a placeholder without one stays as written). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
