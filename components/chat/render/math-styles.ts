/**
 * KaTeX's stylesheet, loaded the first time a reply holds a formula. It is a chunk of its own, so
 * a page that never shows a formula never loads it. Its fonts (bundled from
 * node_modules/katex/dist/fonts into the package: no remote address) are declared with the page's
 * own styles instead (math-fonts.css; wxt.config.ts takes them out of this one), and fetched the
 * first time a formula is drawn: a stylesheet that adds fonts would have the browser restyle and
 * lay out the whole page again (measured: 260–306 ms for a page of 4,000 paragraphs, against
 * 6–23 ms for KaTeX's classes alone).
 */
let loading: Promise<void> | undefined;

export function loadMathStyles(): Promise<void> {
  loading ??= import('katex/dist/katex.min.css').then(
    () => undefined,
    (error: unknown) => {
      // A failed load (the extension updated under the page, say) is tried again next time.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
