/**
 * KaTeX's stylesheet, with its fonts (bundled from node_modules/katex/dist/fonts into the
 * package: no remote address), loaded the first time a reply holds a formula. It is a chunk of
 * its own, so a page that never shows a formula never loads it.
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
